import { createHash } from "node:crypto";
import type { Embedder } from "../providers/embedder.js";

/**
 * An Embedder that remembers the vectors it computed, by text, in a bounded
 * LRU map. MemoryStore v1 cannot read vectors back, so an append re-embeds
 * the session's old units and an export re-embeds every unit; with this in
 * front of the model those are cache hits for every unit this process
 * ingested or already saw, and the vector returned is the one that was stored.
 * Same id and size as the model it wraps: the store cannot tell them apart.
 */
export function createCachingEmbedder(inner: Embedder, maxEntries = 20_000): Embedder & { readonly cacheSize: number } {
  const cache = new Map<string, Float32Array>();
  const keyOf = (text: string) => createHash("sha256").update(text).digest("base64");
  return {
    specificationVersion: "v1",
    id: inner.id,
    dimensions: inner.dimensions,
    maxBatchSize: inner.maxBatchSize,
    get cacheSize() {
      return cache.size;
    },
    async embed(texts) {
      const keys = texts.map(keyOf);
      const out: Array<Float32Array | undefined> = keys.map((k) => {
        const hit = cache.get(k);
        if (hit) {
          // Refresh recency: a Map iterates in insertion order, so the oldest entry is first.
          cache.delete(k);
          cache.set(k, hit);
        }
        return hit;
      });
      const missing = [...new Set(keys.filter((_, i) => out[i] === undefined))];
      if (missing.length) {
        const firstText = new Map(keys.map((k, i) => [k, texts[i]!] as const).reverse());
        const vectors = await inner.embed(missing.map((k) => firstText.get(k)!));
        missing.forEach((k, i) => {
          cache.set(k, vectors[i]!);
          if (cache.size > maxEntries) cache.delete(cache.keys().next().value!);
        });
        const fresh = new Map(missing.map((k, i) => [k, vectors[i]!] as const));
        keys.forEach((k, i) => (out[i] ??= fresh.get(k)));
      }
      return out as Float32Array[];
    },
  };
}
