import { Command } from "commander";
import { addStoreOptions, openFromOptions, parseWholeNumber, runAction, type CommonOptions } from "../shared.js";
import { isPostgresMemoryStore } from "../../store/postgres/postgres-store.js";
import { MAX_PARALLEL_WORKERS } from "../../store/postgres/dense-index.js";
import { isSqliteMemoryStore } from "../../store/sqlite/sqlite-store.js";
import { createProgress } from "../progress.js";
import { cliOut } from "../io.js";

interface ReindexCliOptions extends CommonOptions {
  maintenanceWorkMem?: string;
  parallelWorkers?: number;
  rebuild?: boolean;
  quiet?: boolean;
}

/**
 * `ramem reindex`: builds the approximate dense indexes now instead of in the
 * first recall that needs one. PostgreSQL: the HNSW index again in one go
 * (REINDEX / CREATE INDEX CONCURRENTLY: reads and writes go on), after a bulk
 * load or when inserts grew it (the rebuilt graph finds more of the exact
 * neighbours, README › Numbers). SQLite: the HNSW index of each namespace of
 * 20,000 units or more, which a search would otherwise build itself (~2 min
 * at 100k units here), written beside the .db for the next process.
 */
export function reindexCommand(): Command {
  return addStoreOptions(
    new Command("reindex")
      .description(
        "Build the dense (HNSW) indexes now, so no recall waits for one. PostgreSQL: the index again in one go, without blocking reads or writes (after a bulk load, or when inserts grew it). SQLite: the index of each namespace of 20,000 units or more, which the first search would otherwise build (minutes at 100k units); one already on disk is caught up and kept unless --rebuild.",
      )
      .option("--maintenance-work-mem <size>", "PostgreSQL maintenance_work_mem for the build, e.g. 3GB (default: what the graph needs, at least the server's setting, at most 4096MB; the build is much faster while the graph fits)")
      .option("--parallel-workers <n>", "PostgreSQL: processes that build beside the one running the statement (max_parallel_maintenance_workers; default 0, serial: the parallel build is faster and its graph finds fewer of the exact neighbours)", parseWholeNumber("--parallel-workers", MAX_PARALLEL_WORKERS))
      .option("--rebuild", "SQLite: build every index again from the stored vectors, even one that is on disk and current")
      .option("--quiet", "no progress output"),
  ).action(async (opts: ReindexCliOptions) =>
    runAction(opts.json, async () => {
      const memory = await openFromOptions({ db: opts.db, store: opts.store, ...(opts.embedder ? { embedder: opts.embedder } : {}) }, { mustExist: true });
      try {
        const store = memory.store;
        if (isSqliteMemoryStore(store)) {
          const progress = createProgress("vectors", { quiet: opts.quiet ?? false });
          const report = await store.buildDenseIndexes({ ...(opts.rebuild ? { rebuild: true } : {}), onProgress: (done, total, namespace) => progress.update(done, total, `index of ${namespace}`) }).finally(() => progress.stop());
          if (opts.json) {
            cliOut(`${JSON.stringify({ store: store.location, ...report })}\n`);
            return;
          }
          // Said whatever the action: the space came back on this open, even for a store with no index left to build.
          const swept = report.staleTemps ? `removed ${report.staleTemps.files} temp file(s) of index writes killed half-way: ${formatBytes(report.staleTemps.bytes)} freed\n` : "";
          if (report.action === "none") {
            cliOut(`${report.note}\n${swept}`);
            return;
          }
          const lines = report.namespaces.map((n) => `  ${n.namespace}: ${n.vectors} vectors, ${n.built ? "built" : "on disk, up to date"}`);
          cliOut(`dense indexes of ${report.namespaces.length} namespace(s), ${report.vectors} vectors, in ${report.seconds.toFixed(1)} s (${store.location})\n${lines.join("\n")}\n${swept}`);
          return;
        }
        if (!isPostgresMemoryStore(store)) {
          const note = `a ${store.dialect} store has no dense index to build`;
          cliOut(opts.json ? `${JSON.stringify({ store: store.location, action: "none", note })}\n` : `${note}\n`);
          return;
        }
        const progress = createProgress("blocks", { quiet: opts.quiet ?? false });
        const report = await store
          .rebuildDenseIndex({
            ...(opts.maintenanceWorkMem ? { maintenanceWorkMem: opts.maintenanceWorkMem } : {}),
            ...(opts.parallelWorkers !== undefined ? { parallelWorkers: opts.parallelWorkers } : {}),
            onProgress: (done, total, phase) => total > 0 && progress.update(done, total, `HNSW index: ${phase}`),
          })
          .finally(() => progress.stop());
        if (opts.json) {
          cliOut(`${JSON.stringify({ store: store.location, ...report })}\n`);
          return;
        }
        cliOut(
          report.action === "none"
            ? `${report.note ?? "nothing to rebuild"}\n`
            : `${report.action} the HNSW index over ${report.vectors} vectors in ${report.seconds.toFixed(1)} s with maintenance_work_mem ${report.maintenanceWorkMem}${report.parallelWorkers ? ` and ${report.parallelWorkers} parallel worker(s)` : ""} (${store.location})\n${report.note ? `note: ${report.note}\n` : ""}`,
        );
      } finally {
        await memory.close();
      }
    }),
  );
}

/** "37.5 MB", "812 B": a size a person reads at a glance. */
function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
