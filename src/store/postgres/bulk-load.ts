import type { DenseIndexReport } from "./dense-index-report.js";
import type { PostgresMemoryStore } from "./postgres-store.js";

/**
 * Runs `write` as a bulk load: the HNSW index is dropped first and built in
 * one go afterwards. Inserting each vector into the graph costs more than the
 * rest of a unit's write at 100k units (the scale bench: 266.9 → 583.2
 * units/s with the build counted), and a graph built in one go is the
 * better one (README › Numbers).
 *
 * The embedder is bound before the drop because binding a fresh store creates
 * the index: a drop before it would find nothing and the writes would feed
 * the new graph one vector at a time. While the index is gone every dense
 * search in the schema is an exact scan (complete, slower). When `write`
 * fails the index is built anyway and the write's error is the one thrown;
 * should that build fail too, `ramem reindex` makes it later.
 */
export async function bulkLoad<T>(
  store: PostgresMemoryStore,
  embedder: { id: string; dimensions: number },
  write: () => Promise<T>,
  options: { maintenanceWorkMem?: string } = {},
): Promise<{ result: T; denseIndex: DenseIndexReport }> {
  await store.bindEmbedder(embedder.id, embedder.dimensions);
  await store.dropDenseIndex();
  let result: T;
  try {
    result = await write();
  } catch (err) {
    await store.rebuildDenseIndex(options).catch(() => undefined);
    throw err;
  }
  return { result, denseIndex: await store.rebuildDenseIndex(options) };
}
