import { Command, InvalidArgumentError } from "commander";
import { mkdirSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join, resolve } from "node:path";
import { createAnchorer, createEmbedder } from "../../open-memory.js";
import { readConversationFile } from "../../formats/conversation-file.js";
import { INGEST_VARIANTS, runIngestBench, type IngestFigure, type IngestVariant } from "../../bench/ingest/run-ingest-bench.js";
import { RamemError } from "../../model/errors.js";
import { createProgress } from "../progress.js";
import { parsePositiveInt, runAction } from "../shared.js";
import { cliOut } from "../io.js";

interface IngestBenchCliOptions {
  locomo?: string;
  longmemeval?: string;
  turns: number;
  variants: IngestVariant[];
  threads: number[];
  out: string;
  json?: boolean;
  quiet?: boolean;
}

function parseVariants(raw: string): IngestVariant[] {
  const names = raw.split(",").map((s) => s.trim()).filter(Boolean);
  const bad = names.filter((n) => !(INGEST_VARIANTS as readonly string[]).includes(n));
  if (bad.length > 0 || names.length === 0) throw new InvalidArgumentError(`--variants takes ${INGEST_VARIANTS.join(", ")} (comma-separated), got "${raw}".`);
  return [...new Set(names)] as IngestVariant[];
}

function parseThreadList(raw: string): number[] {
  const parts = raw.split(",").map((s) => s.trim());
  if (parts.some((p) => !/^\d+$/.test(p) || Number(p) < 1)) throw new InvalidArgumentError(`--threads must be comma-separated positive whole numbers, got "${raw}" (e.g. --threads 1,2).`);
  return [...new Set(parts.map(Number))];
}

export function ingestTable(figures: readonly IngestFigure[]): string {
  return [
    "ingest throughput (first sessions of each data set; a fresh SQLite file per run)",
    "",
    "| data set | path | turns | units | s | turns/s | units/s | load 1 min (before→after) |",
    "|---|---|---|---|---|---|---|---|",
    ...figures.map((f) => `| ${f.dataset} | ${f.variant} | ${f.turns} | ${f.units} | ${f.seconds} | ${f.turnsPerSecond} | ${f.unitsPerSecond} | ${f.loadAverage[0]}→${f.loadAverage[1]} |`),
  ].join("\n");
}

export function benchIngestCommand(): Command {
  return new Command("ingest")
    .description(
      "Ingest throughput on LoCoMo and/or the LongMemEval file: turns/s and units/s of the rule anchorer alone and of the real offline path (USE-lite), " +
        "each with every --threads count, and of anchorer + hash vectors + SQLite. Writes <out>/results.json.",
    )
    .option("--locomo <file>", "a LoCoMo file (e.g. ../shared/datasets/locomo/locomo10.json)")
    .option("--longmemeval <file>", "a LongMemEval file (e.g. ../shared/datasets/longmemeval/longmemeval_s_dev100.json)")
    .option("--turns <n>", "the first sessions of each data set up to this many turns", parsePositiveInt("--turns"), 1000)
    .option("--variants <list>", `what to time, comma-separated: ${INGEST_VARIANTS.join(", ")}`, parseVariants, [...INGEST_VARIANTS])
    .option("--threads <list>", "thread counts to time the rule anchorer alone and USE-lite with, comma-separated (1: in this process)", parseThreadList, [...new Set([1, availableParallelism()])])
    .option("--out <dir>", "where results.json goes", "bench-out/ingest")
    .option("--json", "print results.json to stdout instead of the table")
    .option("--quiet", "no progress output")
    .action(async (opts: IngestBenchCliOptions) =>
      runAction(opts.json, async () => {
        if (!opts.locomo && !opts.longmemeval)
          throw new RamemError("BAD_OPTION", "no data set given", { hint: "pass --locomo <file> and/or --longmemeval <file>" });
        const datasets = [];
        for (const [name, file, format] of [["locomo", opts.locomo, "locomo"], ["longmemeval", opts.longmemeval, "longmemeval"]] as const) {
          if (!file) continue;
          const { conversations } = await readConversationFile(file, { format });
          datasets.push({ name, sessions: conversations.flatMap((c) => c.sessions) });
        }
        const progress = createProgress("turns", { quiet: opts.quiet ?? false });
        const figures = await runIngestBench({
          datasets,
          turns: opts.turns,
          variants: opts.variants,
          threads: opts.threads,
          anchorer: (threads) => createAnchorer("rule", undefined, { threads }),
          hashEmbedder: () => createEmbedder("hash"),
          useLite: (threads) => createEmbedder("use-lite", process.env, { threads }),
          onProgress: (done, total, label) => progress.update(done, total, label),
        });
        progress.stop();
        const result = { command: `ramem ${process.argv.slice(2).join(" ")}`, cores: availableParallelism(), figures };
        const out = resolve(opts.out);
        mkdirSync(out, { recursive: true });
        const file = join(out, "results.json");
        writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
        if (opts.json) cliOut(`${JSON.stringify(result)}\n`);
        else cliOut(`${ingestTable(figures)}\n\nwrote ${file}\n`);
      }),
    );
}
