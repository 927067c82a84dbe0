import { Command, InvalidArgumentError, Option } from "commander";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { availableParallelism } from "node:os";
import { createAnchorer, createEmbedder } from "../../open-memory.js";
import { runScaleBench, type ScaleResult } from "../../bench/scale/run-scale.js";
import { createProgress } from "../progress.js";
import { parsePositiveInt, runAction } from "../shared.js";
import { cliOut } from "../io.js";
import { RamemError } from "../../model/errors.js";
import { isPostgresUrl } from "../../store/open-store.js";
import { parsePostgresUrl } from "../../store/postgres/connection.js";

interface ScaleCliOptions {
  units: number[];
  namespaces: number;
  seed: number;
  queries: number;
  warmup: number;
  k: number;
  cache: string;
  store?: string;
  embedder: "hash" | "use-lite";
  useLiteTurns: number;
  fresh?: boolean;
  out: string;
  json?: boolean;
  quiet?: boolean;
}

/** "10000,100000" → [10000, 100000]; each a whole number of units from 20 up (a session's worth). */
export function parseUnitSizes(raw: string): number[] {
  const parts = raw.split(",").map((s) => s.trim().replaceAll("_", ""));
  const sizes = parts.map(Number);
  if (parts.some((p) => !/^\d+$/.test(p)) || sizes.some((n) => n < 20 || n > 10_000_000))
    throw new InvalidArgumentError(`--units must be comma-separated whole numbers from 20 to 10000000, got "${raw}" (e.g. --units 10000,100000).`);
  return [...new Set(sizes)].sort((a, b) => a - b);
}

function parseNonNegativeInt(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value.trim()) || !Number.isInteger(n)) throw new InvalidArgumentError(`${name} must be a whole number (0 or more), got "${value}".`);
    return n;
  };
}

const q = (x: { p50Ms: number; p95Ms: number }) => `${x.p50Ms.toFixed(2)} / ${x.p95Ms.toFixed(2)}`;

/** PostgreSQL's is part of the bulk ingest; SQLite's is built before the queries (an index on disk: read, "on disk"). */
function indexBuild(s: ScaleResult["sizes"][number]): string {
  if (s.ingest.denseIndexBuildSeconds !== undefined) return `${s.ingest.denseIndexBuildSeconds} (in the ingest)`;
  if (!s.denseIndex || s.denseIndex.action === "none") return "–";
  return s.denseIndex.action === "built" ? `${s.denseIndex.seconds}` : `on disk (${s.denseIndex.seconds})`;
}

export function scaleTable(result: ScaleResult): string {
  const rows = result.sizes.map(
    (s) =>
      `| ${s.units} | ${s.namespaces} (${s.namespaceUnits} in the timed one) | ${s.dialect} | ${s.ingest.unitsPerSecond}${s.ingest.useLite ? ` / ${s.ingest.useLite.unitsPerSecond}` : ""} | ${indexBuild(s)} | ${s.bytesPerUnit} | ${s.peakRssMb} | ` +
      `${s.firstRecallMs} | ${q(s.recall.ramem)} | ${q(s.recall.ramemSecondPass)} | ${q(s.recall.contentOnly)} | ${q(s.searchLexical)} | ${q(s.searchDense)} | ${q(s.floor.bruteForce)} | ${s.denseRecallAt100.toFixed(3)} | ${s.loadAverage.before[0]}→${s.loadAverage.after[0]} |`,
  );
  return [
    `scale bench, seed ${result.seed}, ${result.embedder}, ${result.anchorer}; ms p50 / p95 per query, interleaved (first recall: the process's first, untimed query, which loads the namespace's indexes; the second pass: RaMem alone over the same queries again, their terms already read)`,
    "",
    "| units | namespaces | dialect | ingest units/s (hash / use-lite) | dense index build s | bytes/unit | peak RSS MB | first recall ms | recall RaMem | RaMem, second pass | recall content-only | searchLexical | searchDense | brute-force floor | dense R@100 | load 1 min |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ...rows,
  ].join("\n");
}

export function benchScaleCommand(): Command {
  return new Command("scale")
    .description(
      "Scale: a seeded generator of conversations (speakers, places, activities, dates over years, recurring events, state changes) at each --units size; " +
        "ingest units/s, bytes/unit, peak RSS, and per query (interleaved) recall p50/p95 content-only and RaMem, searchLexical, searchDense and an exact " +
        "brute-force floor with dense recall@100 against it, then RaMem once more over the same queries (their terms already read: a warm process). Writes <out>/results.json. The ingested store is cached per size (--fresh ingests again).",
    )
    .option("--units <list>", "sizes in units, comma-separated (e.g. 10000,100000,1000000)", parseUnitSizes, [10_000, 100_000])
    .option("--namespaces <n>", "split each size over n namespaces (queries run in the first)", parsePositiveInt("--namespaces"), 1)
    .option("--seed <n>", "generator seed", parseNonNegativeInt("--seed"), 42)
    .option("--queries <n>", "timed queries per size", parsePositiveInt("--queries"), 200)
    .option("--warmup <n>", "queries run first and not counted", parseNonNegativeInt("--warmup"), 10)
    .option("--k <n>", "budget K of a recall", parsePositiveInt("--k"), 10)
    .option("--cache <dir>", "where the ingested stores are kept", ".ramem-cache")
    .option("--store <location>", "a postgres:// URL (a schema per size unless ?schema= names one) or a SQLite file, instead of the cache")
    .addOption(new Option("--embedder <name>", "the embedder of the stored units: hash (store and anchorer alone) or use-lite").choices(["hash", "use-lite"]).default("hash"))
    .option("--use-lite-turns <n>", "also time the real ingest path (USE-lite) on this many turns, into a throwaway store (0: skip)", parseNonNegativeInt("--use-lite-turns"), 1000)
    .option("--fresh", "ingest again even when the cached store holds this size")
    .option("--out <dir>", "where results.json goes", "bench-out/scale")
    .option("--json", "print results.json to stdout instead of the table")
    .option("--quiet", "no progress output")
    .action(async (opts: ScaleCliOptions) =>
      runAction(opts.json, async () => {
        // A SQLite file, or a URL naming its schema, is one store: two sizes in it would be one corpus read as the other.
        if (opts.store && opts.units.length > 1 && (!isPostgresUrl(opts.store) || parsePostgresUrl(opts.store).schema))
          throw new RamemError("BAD_OPTION", `--store ${isPostgresUrl(opts.store) ? "with ?schema=" : "as a SQLite file"} holds one size, got --units ${opts.units.join(",")}`, {
            hint: "run one size per store, or give a postgres:// URL without ?schema= (a schema per size)",
          });
        const progress = createProgress("turns", { quiet: opts.quiet ?? false });
        const anchorer = createAnchorer("rule", undefined, { threads: availableParallelism() });
        const result = await runScaleBench({
          sizes: opts.units,
          namespaces: opts.namespaces,
          seed: opts.seed,
          queries: opts.queries,
          warmup: opts.warmup,
          k: opts.k,
          cacheDir: opts.cache,
          ...(opts.store ? { store: opts.store } : {}),
          // USE-lite embeds on every core (its thread pool), as `ramem ingest` does.
          embedder: await createEmbedder(opts.embedder, process.env, { threads: availableParallelism() }),
          // And anchors on every core, as `ramem ingest` does (the same units as in one thread).
          anchorer,
          ...(opts.useLiteTurns > 0 ? { useLite: { embedder: () => createEmbedder("use-lite", process.env, { threads: availableParallelism() }), turns: opts.useLiteTurns } } : {}),
          ...(opts.fresh ? { fresh: true } : {}),
          onProgress: (done, total, label, unit) => progress.update(done, total, label, unit),
        }).finally(() => anchorer.close?.());
        progress.stop();
        const out = resolve(opts.out);
        mkdirSync(out, { recursive: true });
        const file = join(out, "results.json");
        writeFileSync(file, `${JSON.stringify({ command: `ramem ${process.argv.slice(2).join(" ")}`, ...result }, null, 2)}\n`);
        if (opts.json) cliOut(`${JSON.stringify(result)}\n`);
        else cliOut(`${scaleTable(result)}\n\nwrote ${file}\n`);
      }),
    );
}
