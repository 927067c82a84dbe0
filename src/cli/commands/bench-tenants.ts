import { Command } from "commander";
import { mkdirSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join, resolve } from "node:path";
import { createAnchorer } from "../../open-memory.js";
import { createHashEmbedder } from "../../providers/hash-embedder.js";
import { runTenantsBench, type TenantsResult } from "../../bench/tenants/run-tenants.js";
import { createProgress } from "../progress.js";
import { parsePositiveInt, runAction } from "../shared.js";
import { cliOut } from "../io.js";

const q = (x: { p50Ms: number; p95Ms: number }) => `${x.p50Ms.toFixed(2)} / ${x.p95Ms.toFixed(2)}`;

export function tenantsTable(r: TenantsResult): string {
  return [
    `tenants bench: ${r.tenants} namespaces of ${r.unitsPerTenant} units (${r.storedUnits} stored; ingest ${r.ingest === "cached" ? "cached" : `${r.ingest.unitsPerSecond} units/s`}); hash embedder; ms p50 / p95`,
    "",
    "| recall in the first tenant | p50 / p95 ms | ratio (p50) |",
    "|---|---|---|",
    `| alone in its own store | ${q(r.alone)} | |`,
    `| among all the tenants | ${q(r.shared)} | ${r.sharedOverAlone} (target ≤ 2) |`,
    `| no other writer | ${q(r.quiet)} | |`,
    `| while another tenant ingests (${r.writerUnitsPerSecond} units/s) | ${q(r.writing)} | ${r.writingOverQuiet} (target ≤ 1.5) |`,
    "",
    `load average (1 min) ${r.loadAverage.before[0]} → ${r.loadAverage.after[0]}`,
  ].join("\n");
}

/** `ramem bench tenants`: one tenant's recall among many, against alone, and while another tenant ingests. */
export function benchTenantsCommand(): Command {
  return new Command("tenants")
    .description(
      "Many tenants in one store (hash embedder, the scale generator's conversations): recall in the first tenant among --tenants namespaces of --units-per-tenant units, " +
        "interleaved with the same tenant in a store of its own (<schema>_alone), and in phases with and without a writer (its own thread and connection) ingesting into another tenant.",
    )
    .requiredOption("--store <location>", "a postgres://…?schema=NAME URL (NAME_alone is used too) or a SQLite file")
    .option("--tenants <n>", "namespaces in the shared store", parsePositiveInt("--tenants"), 10_000)
    .option("--units-per-tenant <n>", "units (turns) per namespace", parsePositiveInt("--units-per-tenant"), 100)
    .option("--queries <n>", "timed queries", parsePositiveInt("--queries"), 200)
    .option("--warmup <n>", "queries run first and not counted", parsePositiveInt("--warmup"), 10)
    .option("--phases <n>", "writer-off / writer-on phase pairs", parsePositiveInt("--phases"), 4)
    .option("--seed <n>", "generator seed", parsePositiveInt("--seed"), 42)
    .option("--fresh", "ingest the shared store again even when it holds the corpus")
    .option("--out <dir>", "where results.json goes", "bench-out/tenants")
    .option("--json", "print the result as JSON")
    .option("--quiet", "no progress output")
    .action(async (opts: { store: string; tenants: number; unitsPerTenant: number; queries: number; warmup: number; phases: number; seed: number; fresh?: boolean; out: string; json?: boolean; quiet?: boolean }) =>
      runAction(opts.json, async () => {
        const progress = createProgress("turns", { quiet: opts.quiet ?? false });
        const anchorer = createAnchorer("rule", undefined, { threads: availableParallelism() });
        const result = await runTenantsBench({
          store: opts.store,
          tenants: opts.tenants,
          unitsPerTenant: opts.unitsPerTenant,
          queries: opts.queries,
          warmup: opts.warmup,
          phases: opts.phases,
          seed: opts.seed,
          embedder: createHashEmbedder(),
          anchorer,
          ...(opts.fresh ? { fresh: true } : {}),
          onProgress: (done, total, label, unit) => progress.update(done, total, label, unit),
        }).finally(async () => (progress.stop(), await anchorer.close?.()));
        const out = resolve(opts.out);
        mkdirSync(out, { recursive: true });
        const file = join(out, "results.json");
        writeFileSync(file, `${JSON.stringify({ command: `ramem ${process.argv.slice(2).join(" ")}`, ...result }, null, 2)}\n`);
        cliOut(opts.json ? `${JSON.stringify(result)}\n` : `${tenantsTable(result)}\n\nwrote ${file}\n`);
      }),
    );
}
