import type { Embedder } from "./embedder.js";
import { l2Normalize } from "./vector-math.js";
import { RamemError } from "../model/errors.js";
import { checkArgs } from "../model/check-args.js";

/**
 * Feature-hashing bag of words: lowercased word unigrams and bigrams, each
 * hashed to a bucket with a hashed sign (so collisions cancel on average
 * instead of piling up), then L2-normalised. Deterministic across processes and
 * platforms, needs no model, and costs microseconds per text. Texts that share
 * words are closer; it knows nothing about synonyms, so it is a floor for
 * retrieval quality, not a substitute for a sentence encoder.
 */

// Letters and digits in any script, keeping inner apostrophes ("don't",
// "caroline's") so possessives and contractions stay one token.
const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*/gu;

// Bigrams add word-order evidence but at half weight, so a shared word still
// counts for more than a shared pair position.
const BIGRAM_WEIGHT = 0.5;

// Texts without a single word all map to this one feature: the contract wants
// unit vectors, and an all-zero vector has no direction.
const EMPTY_FEATURE = "\u0000empty";

export function tokenizeForHash(text: string): string[] {
  return (text.toLowerCase().normalize("NFKC").match(WORD) ?? []).map((w) => w.replace(/’/g, "'"));
}

/** FNV-1a over UTF-16 code units, finished with murmur3's fmix32 for avalanche. */
function hash32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

function addFeature(v: Float32Array, feature: string, weight: number): void {
  const h = hash32(feature);
  // Low bits pick the bucket, the top bit the sign; they are independent after fmix32.
  const bucket = h % v.length;
  v[bucket]! += h & 0x80000000 ? -weight : weight;
}

export function hashEmbed(text: string, dimensions: number): Float32Array {
  const v = new Float32Array(dimensions);
  const words = tokenizeForHash(text);
  for (let i = 0; i < words.length; i++) {
    addFeature(v, words[i]!, 1);
    if (i > 0) addFeature(v, `${words[i - 1]!} ${words[i]!}`, BIGRAM_WEIGHT);
  }
  // Features can cancel exactly (e.g. two colliding words of opposite sign), so
  // test the result, not the word count.
  if (!v.some((x) => x !== 0)) addFeature(v, EMPTY_FEATURE, 1);
  return l2Normalize(v);
}

export function createHashEmbedder(dimensions = 256): Embedder {
  checkArgs("createHashEmbedder", { dimensions: [dimensions, "number"] });
  if (!Number.isInteger(dimensions) || dimensions < 2) {
    throw new RamemError("BAD_ARGUMENT", `hash embedder dimensions must be an integer >= 2, got ${dimensions}`, { where: "dimensions", hint: "e.g. createHashEmbedder(256), the default" });
  }
  return {
    specificationVersion: "v1",
    id: `hash-bow@1:${dimensions}`,
    dimensions,
    // Pure CPU and cheap: batching only bounds how long one call blocks the event loop.
    maxBatchSize: 1024,
    embed(texts: readonly string[]): Promise<Float32Array[]> {
      return Promise.resolve(texts.map((t) => hashEmbed(t, dimensions)));
    },
  };
}
