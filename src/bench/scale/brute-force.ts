import type { MemoryStore } from "../../store/contract.js";

/** A namespace's vectors in one flat array: the exact floor a dense index is measured against. */
export interface VectorTable {
  ids: string[];
  dimensions: number;
  /** ids.length × dimensions, row i is ids[i]'s vector. */
  data: Float32Array;
}

/**
 * Reads every vector of a namespace (untimed, once per size). The ids come
 * session by session: listing a 1M-unit namespace at once parsed every unit
 * into memory (~3 GB of heap) only to keep its id.
 */
export async function loadNamespaceVectors(store: MemoryStore, namespace: string): Promise<VectorTable> {
  const total = (await store.stats(namespace)).units;
  let dimensions = 0;
  let data = new Float32Array(0);
  const kept: string[] = [];
  for (const session of await store.listSessions(namespace)) {
    const chunk = (await store.listUnits(namespace, { sessionId: session.id })).map((u) => u.id);
    const vectors = await store.getUnitEmbeddings(namespace, chunk);
    for (const id of chunk) {
      const v = vectors.get(id);
      if (!v) continue;
      if (!dimensions) {
        dimensions = v.length;
        data = new Float32Array(total * dimensions);
      }
      data.set(v, kept.length * dimensions);
      kept.push(id);
    }
  }
  return { ids: kept, dimensions, data: data.subarray(0, kept.length * dimensions) };
}

/**
 * The exact top k by cosine similarity, as a plain loop: the stored vectors
 * are unit length (the embedders normalise), so the dot product is the
 * cosine; the query is normalised here. Ties go to the lower row; the
 * k-th score is returned too, since with tied vectors (repeated texts) any
 * of the tied units is a correct k-th neighbour.
 */
export function bruteForceTopK(table: VectorTable, query: Float32Array, k: number): { ids: string[]; kthScore: number } {
  const d = table.dimensions;
  const n = table.ids.length;
  let norm = 0;
  for (let j = 0; j < d; j++) norm += query[j]! * query[j]!;
  const inv = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  const scores = new Float64Array(n);
  const data = table.data;
  for (let i = 0; i < n; i++) {
    let dot = 0;
    const o = i * d;
    for (let j = 0; j < d; j++) dot += data[o + j]! * query[j]!;
    scores[i] = dot * inv;
  }
  // A bounded min-heap would be faster for small k; a sort of the kept candidates is simple and k ≤ a few hundred.
  const top: number[] = [];
  let floor = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < n; i++) {
    if (top.length >= k && scores[i]! <= floor) continue;
    top.push(i);
    if (top.length > 4 * k) {
      top.sort((a, b) => scores[b]! - scores[a]! || a - b);
      top.length = k;
      floor = scores[top[k - 1]!]!;
    }
  }
  top.sort((a, b) => scores[b]! - scores[a]! || a - b);
  const kept = top.slice(0, k);
  return { ids: kept.map((i) => table.ids[i]!), kthScore: kept.length ? scores[kept[kept.length - 1]!]! : Number.NEGATIVE_INFINITY };
}
