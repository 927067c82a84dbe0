import { availableParallelism } from "node:os";
import { Command, Option } from "commander";
import { addStoreOptions, openFromOptions, parseWholeNumber, parsePositiveInt, runAction, type CommonOptions } from "../shared.js";
import { createProgress } from "../progress.js";
import { isSqliteMemoryStore } from "../../store/sqlite/sqlite-store.js";
import { isPostgresMemoryStore } from "../../store/postgres/postgres-store.js";
import { MAX_PARALLEL_WORKERS } from "../../store/postgres/dense-index.js";
import { isPostgresUrl } from "../../store/open-store.js";
import { resolveStoreLocation } from "../store-location.js";
import { bulkLoad } from "../../store/postgres/bulk-load.js";
import type { DenseIndexReport } from "../../store/postgres/dense-index-report.js";
import { RamemError } from "../../model/errors.js";
import { readConversationFile, type FormatName } from "../../formats/conversation-file.js";
import { ANCHORER_NAMES, type AnchorerName } from "../../open-memory.js";
import { cliOut, cliErr } from "../io.js";

interface IngestOptions extends CommonOptions {
  format: FormatName | "auto";
  anchorer: AnchorerName;
  force?: boolean;
  quiet?: boolean;
  threads: number;
  bulk?: boolean;
  maintenanceWorkMem?: string;
  parallelWorkers?: number;
}

/**
 * From this many turns on, the rule anchorer runs in `--threads` worker
 * threads. Since the first-pass tagger (rule-anchorer@10) a turn anchors in
 * about 1 ms, so 5,000 turns are ~5 s on one core against ~1.5 s for the
 * threads to start: LoCoMo's 5,882 turns with the hash embedder made 536 and
 * 562 units/s in one thread, 563 and 612 with two (load ~2, this shared
 * 2-core machine); below that the start-up eats what the threads save.
 */
export const POOL_MIN_TURNS = 5_000;

export function ingestCommand(): Command {
  return addStoreOptions(
    new Command("ingest")
      .description(
        "Anchor a conversation file into memory units and store them.\n" +
          "Each session is written in one transaction; re-ingesting an unchanged session is a no-op.",
      )
      .argument("<file>", "conversation file (native JSON/JSONL, OpenAI-style messages JSON/JSONL, LoCoMo, LongMemEval, or a `ramem export` file, whose turns are anchored and embedded afresh)")
      .addOption(new Option("--format <format>", "input format (export: re-derive units from an export's verbatim turns)").choices(["auto", "native", "messages", "locomo", "longmemeval", "export"]).default("auto"))
      .option("--namespace <ns>", "store everything in this namespace (default: the file's own, e.g. LoCoMo sample_id)")
      .addOption(
        new Option("--anchorer <name>", "rule: offline restatement per turn; llm: the configured LLM (RAMEM_LLM_*) restates windows of turns, falling back to the rules per window")
          .choices([...ANCHORER_NAMES])
          .default("rule"),
      )
      .option("--force", "re-anchor and rewrite sessions even when unchanged")
      .option(
        "--threads <n>",
        "anchor (rule anchorer, from 5,000 turns on) and embed (use-lite, one model each, ~120 MB) in this many worker threads; 1 does both in this process",
        parsePositiveInt("--threads"),
        availableParallelism(),
      )
      .option(
        "--bulk",
        "PostgreSQL, for a load that is a large share of the schema: drop the HNSW index before the first change, write, build it once at the end (faster, a better graph; nothing changed: the index is left alone; " +
          "meanwhile every dense search in the schema is an exact scan; after an interrupted load run `ramem reindex`; a second bulk load into the same schema meanwhile is refused, BULK_LOAD_BUSY)",
      )
      .option("--maintenance-work-mem <size>", "with --bulk: PostgreSQL maintenance_work_mem for the index build, e.g. 3GB (default: what the graph needs, at least the server's setting, at most 4096MB)")
      .option("--parallel-workers <n>", "with --bulk: PostgreSQL processes that build the index beside the one running the statement (default 0, serial: see ramem reindex --help)", parseWholeNumber("--parallel-workers", MAX_PARALLEL_WORKERS))
      .option("--quiet", "no progress output"),
  ).action(async (file: string, opts: IngestOptions) =>
    runAction(opts.json, async () => {
      const { conversations, report } = await readConversationFile(file, {
        format: opts.format,
        ...(opts.namespace ? { namespace: opts.namespace } : {}),
      });
      // Refused before the store is opened: opening a SQLite path would create the file.
      for (const [set, flag] of [[opts.maintenanceWorkMem, "--maintenance-work-mem"], [opts.parallelWorkers, "--parallel-workers"]] as const) {
        if (set === undefined || opts.bulk) continue;
        throw new RamemError("BAD_OPTION", `${flag} sets up the index build of a bulk load`, {
          where: flag,
          hint: `add --bulk (PostgreSQL), or run \`ramem reindex ${flag} <value>\` to build the index again`,
        });
      }
      if (opts.bulk && !isPostgresUrl(resolveStoreLocation(opts))) {
        throw new RamemError("BAD_OPTION", "--bulk is for PostgreSQL stores (a postgres:// URL in --store or RAMEM_STORE)", {
          hint: "leave --bulk out: SQLite builds a namespace's dense index after the ingest anyway",
        });
      }
      const sessions = conversations.flatMap((c) => c.sessions);
      // Anchoring threads cost ~1.5 s to start (each loads the tagger): below POOL_MIN_TURNS one thread is done first.
      const turns = sessions.reduce((n, s) => n + s.turns.length, 0);
      const memory = await openFromOptions(opts, { anchorer: opts.anchorer, embedderThreads: opts.threads, anchorerThreads: turns >= POOL_MIN_TURNS ? opts.threads : 1 });
      const progress = createProgress("turns", { quiet: opts.quiet || false });
      try {
        const store = memory.store;
        const write = (beforeFirstWrite?: () => Promise<void>) =>
          memory.ingest(sessions, {
            force: opts.force ?? false,
            ...(beforeFirstWrite ? { beforeFirstWrite } : {}),
            onProgress: (p) => progress.update(p.turnsDone, p.turnsTotal, `session ${p.sessionsDone}/${p.sessionsTotal}`),
          });
        let bulkIndex: DenseIndexReport | null = null;
        let result: Awaited<ReturnType<typeof write>>;
        if (opts.bulk && isPostgresMemoryStore(store)) {
          const loaded = await bulkLoad(store, memory.embedder, async (beforeFirstWrite) => {
            let dropped = false;
            const written = await write(async () => {
              dropped = true;
              await beforeFirstWrite();
            });
            progress.stop();
            if (dropped && !opts.quiet) cliErr("writes done; building the HNSW index in one go…\n");
            return written;
          }, {
            ...(opts.maintenanceWorkMem ? { maintenanceWorkMem: opts.maintenanceWorkMem } : {}),
            ...(opts.parallelWorkers !== undefined ? { parallelWorkers: opts.parallelWorkers } : {}),
            onProgress: (done, total, phase) => total > 0 && progress.update(done, total, `HNSW index: ${phase}`, "blocks"),
          });
          result = loaded.result;
          bulkIndex = loaded.denseIndex;
        } else {
          result = await write();
        }
        progress.stop();
        const namespaces = [...new Set(sessions.map((s) => s.session.namespace))];
        const rate = result.unitsWritten / Math.max(result.seconds, 1e-6);
        const turnRate = result.turns / Math.max(result.seconds, 1e-6);
        // A namespace that grew past the HNSW threshold gets its index now, not in the first recall (SQLite builds it lazily otherwise);
        // one that already has an index keeps it: the next search applies this ingest from the log, no rewrite of the whole file.
        const denseIndex =
          result.unitsWritten > 0 && isSqliteMemoryStore(store)
            ? await store.buildDenseIndexes({ namespaces, ifMissing: true, onProgress: (done, total, namespace) => progress.update(done, total, `dense index of ${namespace}`, "vectors") }).finally(() => progress.stop())
            : null;
        const built = denseIndex?.namespaces.filter((n) => n.built) ?? [];
        if (opts.json) {
          cliOut(
            `${JSON.stringify({ file, namespaces, ...result, unitsPerSecond: rate, turnsPerSecond: turnRate, embedderThreads: opts.threads, anchorerThreads: memory.anchorer.concurrency ?? 1, droppedEvidence: report.dropped.length, ...(built.length ? { denseIndexesBuilt: built, denseIndexSeconds: denseIndex!.seconds } : {}), ...(opts.bulk ? { bulkDenseIndex: bulkIndex } : {}) })}\n`,
          );
        } else {
          cliOut(
            `ingested ${result.sessions} sessions (${result.sessionsUnchanged} unchanged), ${result.turns} turns → ${result.unitsWritten} units written ` +
              `in ${result.seconds.toFixed(1)} s (${rate.toFixed(1)} units/s, ${turnRate.toFixed(1)} turns/s)\n` +
              `namespaces: ${namespaces.join(", ")}\nstore: ${memory.store.location}\n` +
              (result.llm.calls ? `anchored by ${memory.anchorer.id}: ${result.llm.calls} LLM calls, tokens in/out ${result.llm.promptTokens}/${result.llm.completionTokens}\n` : "") +
              (built.length ? `dense index built for ${built.map((n) => `${n.namespace} (${n.vectors} vectors)`).join(", ")} in ${denseIndex!.seconds.toFixed(1)} s\n` : "") +
              (opts.bulk ? `${describeBulkIndex(bulkIndex)}\n` : ""),
          );
          for (const w of [...(report.warnings ?? []), ...result.warnings].slice(0, 20)) cliErr(`warning: ${w}\n`);
        }
      } finally {
        progress.stop();
        await memory.close();
      }
    }),
  );
}

/** The bulk load's index build in a line; a store whose vectors are above HNSW's limit says why none was built. */
function describeBulkIndex(report: DenseIndexReport | null): string {
  if (report === null) return "nothing changed: the HNSW index was left as it was (not dropped, not rebuilt)";
  if (report.action === "none") return `no HNSW index built: ${report.note ?? "nothing to index"}`;
  const memory = report.maintenanceWorkMem ? ` with maintenance_work_mem ${report.maintenanceWorkMem}` : "";
  return `HNSW index ${report.action} over the schema's ${report.vectors} vectors in ${report.seconds.toFixed(1)} s${memory}, after the writes${report.note ? ` (${report.note})` : ""}`;
}
