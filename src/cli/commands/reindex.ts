import { Command } from "commander";
import { addStoreOptions, openFromOptions, runAction, type CommonOptions } from "../shared.js";
import { isPostgresMemoryStore } from "../../store/postgres/postgres-store.js";
import { cliOut } from "../io.js";

interface ReindexCliOptions extends CommonOptions {
  maintenanceWorkMem?: string;
}

/**
 * `ramem reindex`: builds a PostgreSQL store's HNSW index again in one go
 * (REINDEX / CREATE INDEX CONCURRENTLY: reads and writes go on). After a bulk
 * load, or when a store grew by inserts: the rebuilt graph finds more of the
 * exact neighbours (README › Numbers). SQLite keeps its own dense index up to
 * date as it writes; there is nothing to rebuild.
 */
export function reindexCommand(): Command {
  return addStoreOptions(
    new Command("reindex")
      .description(
        "Rebuild a PostgreSQL store's HNSW (dense) index in one go, without blocking reads or writes: after a bulk load, or when inserts grew it (a rebuilt graph finds more of the exact neighbours). SQLite: nothing to do.",
      )
      .option("--maintenance-work-mem <size>", "PostgreSQL maintenance_work_mem for the build, e.g. 1GB (the build is much faster while the graph fits)"),
  ).action(async (opts: ReindexCliOptions) =>
    runAction(opts.json, async () => {
      const memory = await openFromOptions({ db: opts.db, store: opts.store, ...(opts.embedder ? { embedder: opts.embedder } : {}) }, { mustExist: true });
      try {
        const store = memory.store;
        if (!isPostgresMemoryStore(store)) {
          const note = "SQLite keeps its dense index up to date as it writes: nothing to rebuild";
          cliOut(opts.json ? `${JSON.stringify({ store: store.location, action: "none", note })}\n` : `${note}\n`);
          return;
        }
        const report = await store.rebuildDenseIndex(opts.maintenanceWorkMem ? { maintenanceWorkMem: opts.maintenanceWorkMem } : {});
        if (opts.json) {
          cliOut(`${JSON.stringify({ store: store.location, ...report })}\n`);
          return;
        }
        cliOut(
          report.action === "none"
            ? `${report.note ?? "nothing to rebuild"}\n`
            : `${report.action} the HNSW index over ${report.vectors} vectors in ${report.seconds.toFixed(1)} s (${store.location})\n`,
        );
      } finally {
        await memory.close();
      }
    }),
  );
}
