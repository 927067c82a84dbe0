import type { Embedder } from "../../providers/embedder.js";
import { embedAll } from "../../anchoring/ingest-sessions.js";

/** Vectors kept per embedder; at 512 dimensions this is ~10 MB. */
const MAX_ENTRIES = 5_000;

const caches = new WeakMap<Embedder, Map<string, Float32Array>>();

/**
 * Embeds texts, reusing vectors this process already computed with the same
 * embedder. Appending to a session rewrites the whole session, and the store
 * hands out no vectors, so without this an agent that remembers a long
 * conversation turn by turn would re-embed every earlier turn on every call
 * (quadratic in the conversation's length, seconds per call with the offline
 * model). Embedders are deterministic, so a cached vector is the vector.
 * Least recently used entries are dropped first.
 */
export async function embedWithCache(embedder: Embedder, texts: readonly string[]): Promise<Float32Array[]> {
  let cache = caches.get(embedder);
  if (!cache) caches.set(embedder, (cache = new Map()));
  const missing = [...new Set(texts.filter((t) => !cache.has(t)))];
  const fresh = missing.length ? await embedAll(embedder, missing) : [];
  missing.forEach((t, i) => cache.set(t, fresh[i]!));
  const out = texts.map((t) => {
    const v = cache.get(t)!;
    // Re-inserting marks it recently used (a Map iterates in insertion order).
    cache.delete(t);
    cache.set(t, v);
    return v;
  });
  for (const oldest of cache.keys()) {
    if (cache.size <= MAX_ENTRIES) break;
    cache.delete(oldest);
  }
  return out;
}
