import { RamemError } from "../../model/errors.js";
import type { DenseIndexBuildOptions, DenseIndexReport } from "./dense-index-report.js";
import type { PostgresMemoryStore } from "./postgres-store.js";
import { checkDenseIndexBuildOptions } from "./dense-index.js";

/**
 * Runs `write` as a bulk load: the HNSW index is dropped right before the
 * first change and built in one go afterwards. Inserting each vector into the
 * graph costs more than the rest of a unit's write at 100k units (the scale
 * bench: 266.9 → 583.2 units/s with the build counted), and a graph built in
 * one go is the better one (README › Numbers).
 *
 * `write` gets `beforeFirstWrite` and awaits it before it changes anything
 * (Memory.ingest's option of that name does); it drops the index, once. A
 * write that never calls it — every session unchanged — leaves the index as
 * it was, and `denseIndex` is null: a second `ramem ingest --bulk` of the
 * same file drops and builds nothing. When there is no valid index after
 * such a write (an earlier load died before its build finished), it is
 * built; a write that fails before its first change is only rethrown.
 *
 * The embedder is bound before the drop because binding a fresh store creates
 * the index: a drop before it would find nothing and the writes would feed
 * the new graph one vector at a time. While the index is gone every dense
 * search in the schema is an exact scan (complete, slower). When `write`
 * fails after the drop the index is built anyway and the write's error is the
 * one thrown; should that build fail too, a BULK_LOAD_FAILED error says both
 * and to run `ramem reindex`. After the build the tables are analysed, so the
 * first searches are planned with statistics.
 *
 * One bulk load per schema at a time: a second one's drop would take the
 * first one's index away while it is built, so the load holds the schema's
 * bulk-load lock throughout and a second one is refused (BULK_LOAD_BUSY)
 * before it touches anything.
 */
export async function bulkLoad<T>(
  store: PostgresMemoryStore,
  embedder: { id: string; dimensions: number },
  write: (beforeFirstWrite: () => Promise<void>) => Promise<T>,
  options: DenseIndexBuildOptions = {},
): Promise<{ result: T; denseIndex: DenseIndexReport | null }> {
  checkDenseIndexBuildOptions(options);
  const release = await store.lockBulkLoad();
  try {
    return await loadWithoutIndex(store, embedder, write, options);
  } finally {
    await release();
  }
}

async function loadWithoutIndex<T>(
  store: PostgresMemoryStore,
  embedder: { id: string; dimensions: number },
  write: (beforeFirstWrite: () => Promise<void>) => Promise<T>,
  options: DenseIndexBuildOptions,
): Promise<{ result: T; denseIndex: DenseIndexReport | null }> {
  await store.bindEmbedder(embedder.id, embedder.dimensions);
  let dropping: Promise<void> | null = null;
  const beforeFirstWrite = () => (dropping ??= store.dropDenseIndex().then(() => undefined));
  let result: T;
  try {
    result = await write(beforeFirstWrite);
  } catch (err) {
    if (!dropping) throw err;
    // The write's error is the one to report; a failed build too must not pass unsaid.
    await store.rebuildDenseIndex(options).catch((buildError: unknown) => {
      throw new RamemError("BULK_LOAD_FAILED", `the bulk load failed (${messageOf(err)}), and building the HNSW index again failed too (${messageOf(buildError)})`, {
        hint: "dense searches are exact scans until the index is built: run `ramem reindex` once the server is reachable",
        cause: err,
      });
    });
    throw err;
  }
  // Nothing changed: the index stays — unless an earlier load died before its build, which this one then makes up for.
  if (!dropping && (await store.hasDenseIndex())) return { result, denseIndex: null };
  const denseIndex = await store.rebuildDenseIndex(options);
  // Vectors above HNSW's limit never have an index: with nothing written, nothing was done.
  if (!dropping && denseIndex.action === "none") return { result, denseIndex: null };
  // The planner's statistics, before the first search: without them it may
  // skip the new index. Advisory: the load itself succeeded, and autovacuum
  // analyses later, so a failure here is reported, not thrown.
  const analyzed = await store.analyzeTables().then(
    () => null,
    (err: unknown) => `the tables were not analysed (${messageOf(err)}); until autovacuum does, searches may skip the new index: run ANALYZE`,
  );
  return { result, denseIndex: analyzed ? { ...denseIndex, note: [denseIndex.note, analyzed].filter(Boolean).join("; ") } : denseIndex };
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
