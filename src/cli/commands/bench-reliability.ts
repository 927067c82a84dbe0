import { Command, InvalidArgumentError } from "commander";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { runReliabilityBench, type ReliabilityResult } from "../../bench/reliability/run-reliability.js";
import { OP_KINDS } from "../../bench/reliability/op-log.js";
import { RamemError } from "../../model/errors.js";
import { isPostgresUrl } from "../../store/open-store.js";
import { createProgress } from "../progress.js";
import { parsePositiveInt, runAction } from "../shared.js";
import { cliOut, setExitCode } from "../io.js";

interface ReliabilityCliOptions {
  store?: string[];
  dialects?: Array<"sqlite" | "postgres">;
  postgresUrl?: string;
  seconds: number;
  processes: number;
  namespaces: number;
  sessions: number;
  seed: number;
  keep?: boolean;
  out: string;
  json?: boolean;
  quiet?: boolean;
}

const DIALECTS = ["sqlite", "postgres"] as const;

function parseDialects(raw: string): Array<(typeof DIALECTS)[number]> {
  const names = raw.split(",").map((s) => s.trim()).filter(Boolean);
  if (names.length === 0 || names.some((n) => !(DIALECTS as readonly string[]).includes(n)))
    throw new InvalidArgumentError(`--dialects takes ${DIALECTS.join(", ")} (comma-separated), got "${raw}".`);
  return [...new Set(names)] as Array<(typeof DIALECTS)[number]>;
}

function parseSeed(value: string): number {
  if (!/^\d+$/.test(value.trim())) throw new InvalidArgumentError(`--seed must be a whole number (0 or more), got "${value}".`);
  return Number(value);
}

/** Repeatable without splitting on commas: a path or a URL may hold one. */
const collectStores = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];

/**
 * The stores to run on, in order: each --store, then each --dialects entry
 * (sqlite: a fresh temporary file; postgres: --postgres-url, else
 * RAMEM_TEST_POSTGRES_URL); neither: a fresh SQLite file.
 */
function storesOf(opts: ReliabilityCliOptions): Array<string | undefined> {
  const stores: Array<string | undefined> = [...(opts.store ?? [])];
  for (const dialect of opts.dialects ?? []) {
    if (dialect === "sqlite") {
      stores.push(undefined);
      continue;
    }
    const url = opts.postgresUrl ?? process.env.RAMEM_TEST_POSTGRES_URL?.trim();
    if (!url) throw new RamemError("BAD_OPTION", "--dialects postgres needs a server", { hint: "pass --postgres-url postgres://… or set RAMEM_TEST_POSTGRES_URL" });
    if (!isPostgresUrl(url)) throw new RamemError("BAD_OPTION", "--postgres-url is not a postgres:// URL", { hint: "e.g. --postgres-url postgres://ramem:ramem@127.0.0.1:54329/ramem_test" });
    stores.push(url);
  }
  return stores.length > 0 ? stores : [undefined];
}

export function reliabilityTable(r: ReliabilityResult): string {
  const c = r.check;
  const ops = OP_KINDS.map((k) => `| ${k} | ${c.acked[k]} | ${c.refused[k]} |`);
  const errors = Object.entries(c.errors).map(([code, n]) => `${code} ${n}`).join(", ");
  const examples = Object.entries(c.examples).flatMap(([kind, list]) => list.map((e) => `  ${kind}: ${e}`));
  return [
    `${r.dialect} (${r.location}): ${r.processes} processes, ${r.seconds} s, ${r.namespaces.length} namespaces × ${r.sessionsPerNamespace} sessions, seed ${r.seed}; ` +
      `operations per process ${r.operations.join(", ")}; load 1 min ${r.loadAverage.before}→${r.loadAverage.after}`,
    "",
    "| operation | acked | refused |",
    "|---|---|---|",
    ...ops,
    "",
    "| expected | found | lost | stale text | forgotten | undone forgets | id reuses | duplicates | supersessions lost | validity differences | ambiguous | unacked |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|",
    `| ${c.expected} | ${c.found} | ${c.lost} | ${c.staleText} | ${c.forgotten} | ${c.undoneForgets} | ${c.idReuses} | ${c.duplicates} | ${c.supersessionsLost} | ${c.validityDifferences} | ${c.ambiguous} | ${c.unacked} |`,
    "",
    `${c.failures === 0 ? "ok" : `FAILED: ${c.failures}`}${errors ? `; refusals: ${errors}` : ""}`,
    ...(examples.length ? ["", "examples:", ...examples] : []),
    ...(r.kept ? [`kept: logs in ${r.kept.logs}, store ${r.kept.store}`] : []),
  ].join("\n");
}

export function benchReliabilityCommand(): Command {
  return new Command("reliability")
    .description(
      "Concurrent writers on one store: --processes worker processes, each with its own Memory (hash embedder), write a random mix " +
        "(appends, updates, unit and session forgets, supersessions and state statements) over a few shared sessions for --seconds, " +
        "logging every acknowledged call; then a fresh process checks the store against the logs: acked units found or lost, stale texts, " +
        "undone forgets, reused ids, duplicates, lost supersessions, and validity each worker saw that differs from the fresh view. " +
        "One table per store; exit code 1 when anything failed. Writes <out>/results.json.",
    )
    .option(
      "--store <location>",
      "a SQLite file or a postgres:// URL (a fresh schema per run; the URL's ?schema= is replaced); repeat for several stores. " +
        "Default: a fresh SQLite file in a temporary folder. The namespaces are new per run (rel-<run>-<n>)",
      collectStores,
    )
    .option("--dialects <list>", "also run on these, comma-separated: sqlite (a fresh temporary file), postgres (--postgres-url, else RAMEM_TEST_POSTGRES_URL)", parseDialects)
    .option("--postgres-url <url>", "the server for --dialects postgres")
    .option("--seconds <n>", "how long the workers write", parsePositiveInt("--seconds"), 60)
    .option("--processes <n>", "worker processes on the one store", parsePositiveInt("--processes"), 2)
    .option("--namespaces <n>", "namespaces the workers share", parsePositiveInt("--namespaces"), 2)
    .option("--sessions <n>", "sessions per namespace the workers share", parsePositiveInt("--sessions"), 3)
    .option("--seed <n>", "the workers' random seed", parseSeed, 1)
    .option("--keep", "keep the PostgreSQL schema, the temporary SQLite file and the workers' logs (their paths are printed)")
    .option("--out <dir>", "where results.json goes", "bench-out/reliability")
    .option("--json", "print results.json to stdout instead of the tables")
    .option("--quiet", "no progress output")
    .action(async (opts: ReliabilityCliOptions) =>
      runAction(opts.json, async () => {
        const stores = storesOf(opts);
        const results: ReliabilityResult[] = [];
        for (const store of stores) {
          const progress = createProgress("s", { quiet: opts.quiet ?? false });
          const result = await runReliabilityBench({
            store,
            processes: opts.processes,
            seconds: opts.seconds,
            namespaces: opts.namespaces,
            sessions: opts.sessions,
            seed: opts.seed,
            ...(opts.keep ? { keep: true } : {}),
            onProgress: (elapsed, total) => progress.update(elapsed, total, `${store === undefined || !isPostgresUrl(store) ? "sqlite" : "postgres"} workload`),
          });
          progress.stop();
          results.push(result);
        }
        const failures = results.reduce((n, r) => n + r.check.failures, 0);
        const report = { command: `ramem ${process.argv.slice(2).join(" ")}`, failures, runs: results };
        const out = resolve(opts.out);
        mkdirSync(out, { recursive: true });
        const file = join(out, "results.json");
        writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
        if (opts.json) cliOut(`${JSON.stringify(report)}\n`);
        else cliOut(`${results.map(reliabilityTable).join("\n\n")}\n\nwrote ${file}\n`);
        // A gate: any broken acknowledgement fails the command.
        if (failures > 0) setExitCode(1);
      }),
    );
}
