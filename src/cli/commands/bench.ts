import { Command, Option } from "commander";
import { resolve } from "node:path";
import { createRuleAnchorer } from "../../anchoring/rule-anchorer.js";
import { ANCHORER_NAMES, createAnchorer, type AnchorerName } from "../../open-memory.js";
import type { LanguageModel } from "../../providers/language-model.js";
import { createUseLiteEmbedder } from "../../providers/use-lite/use-lite-embedder.js";
import { createHashEmbedder } from "../../providers/hash-embedder.js";
import { createOpenAICompatibleLanguageModel, providerConfigFromEnv } from "../../providers/openai-compatible/index.js";
import type { Embedder } from "../../providers/embedder.js";
import { RamemError } from "../../model/errors.js";
import { runLocomoBench } from "../../bench/locomo/run-locomo.js";
import { locomoTables, writeLocomoReport } from "../../bench/report/locomo-report.js";
import { runLongMemEvalBench } from "../../bench/longmemeval/run-longmemeval.js";
import { longMemEvalTables, writeLongMemEvalReport } from "../../bench/report/longmemeval-report.js";
import { DEFAULT_VARIANTS, VARIANTS } from "../../bench/variants.js";
import { prepareBench } from "../../bench/prepare-bench.js";
import { measureRecallLatency, type LatencySummary } from "../../bench/latency/measure-recall-latency.js";
import { createProgress } from "../progress.js";
import { parsePositiveInt, runAction } from "../shared.js";

interface BenchCliOptions {
  data: string;
  k: string;
  variants: string;
  out: string;
  cache: string;
  embedder: "use-lite" | "hash";
  json?: boolean;
  qaLimit?: number;
  conversations?: string;
  quiet?: boolean;
  store?: string;
  anchorer: AnchorerName;
}

/** The configured chat model (RAMEM_LLM_*), if any: QA scoring and `--anchorer llm` share it. */
function languageModelFromEnv(): LanguageModel | undefined {
  const llm = providerConfigFromEnv().llm;
  return llm ? createOpenAICompatibleLanguageModel(llm) : undefined;
}

function parseKs(raw: string): number[] {
  const ks = raw.split(",").map((s) => Number(s.trim()));
  if (ks.length === 0 || ks.some((k) => !Number.isInteger(k) || k < 1 || k > 200))
    throw new RamemError("BAD_OPTION", `--k must be a comma-separated list of integers from 1 to 200, got "${raw}"`, { hint: "e.g. --k 5,10,20,30" });
  return [...new Set(ks)].sort((a, b) => a - b);
}

async function embedderFor(name: string): Promise<Embedder> {
  if (name === "hash") return createHashEmbedder();
  if (name === "use-lite") return createUseLiteEmbedder();
  throw new RamemError("BAD_OPTION", `unknown --embedder "${name}"`, { hint: "use use-lite or hash" });
}

function commonBenchOptions(cmd: Command, defaultKs: string): Command {
  return cmd
    .requiredOption("--data <file>", "benchmark data file")
    .option("--k <list>", "budgets K, comma-separated", defaultKs)
    .option(
      "--variants <list>",
      `retrieval variants, comma-separated (${VARIANTS.map((v) => v.name).join(", ")}; ramem-llm-frame needs an LLM, so it runs only when named)`,
      DEFAULT_VARIANTS.join(","),
    )
    .option("--out <dir>", "where report.md, results.json and the plot go", "bench-out")
    .option("--cache <dir>", "ingested stores and query vectors, reused across runs", ".ramem-cache")
    .option(
      "--store <location>",
      "ingest into this store instead of the SQLite cache: a postgres:// URL (a schema per data set unless ?schema= names one) or a SQLite file",
    )
    .option("--embedder <name>", "use-lite (default, offline) or hash", "use-lite")
    .addOption(
      new Option("--anchorer <name>", "rule (default, offline) or llm (RAMEM_LLM_*: the LLM restates windows of turns; ingested into its own cache)")
        .choices([...ANCHORER_NAMES])
        .default("rule"),
    )
    .option("--json", "print results.json to stdout instead of the tables")
    .option("--quiet", "no progress output");
}

export function benchCommand(): Command {
  const bench = new Command("bench").description("Reproducible retrieval (and, with an LLM, QA) benchmarks. See README › Benchmarks.");

  bench.addCommand(
    commonBenchOptions(
      new Command("locomo").description(
        "LoCoMo: Recall@K, hit@K, MRR, tokens@K per category; the context-confusable subset with D@1 and rank gap; " +
          "QA F1 (official LoCoMo and SimpleMem harness) when RAMEM_LLM_BASE_URL/RAMEM_LLM_MODEL are set.",
      ),
      "5,10,20,30",
    )
      .option("--qa-limit <n>", "answer at most n questions per category with the LLM", parsePositiveInt("--qa-limit"))
      .option("--conversations <ids>", "only these sample ids, comma-separated (e.g. conv-26)")
      .action(async (opts: BenchCliOptions) =>
        runAction(opts.json, async () => {
          const languageModel = languageModelFromEnv();
          const progress = createProgress("items", { quiet: opts.quiet ?? false });
          const result = await runLocomoBench({
            dataPath: opts.data,
            ks: parseKs(opts.k),
            variants: opts.variants.split(",").map((s) => s.trim()).filter(Boolean),
            cacheDir: opts.cache,
            embedder: await embedderFor(opts.embedder),
            // The anchorer's id keys the cache, so an LLM-anchored store is kept apart.
            anchorer: createAnchorer(opts.anchorer, languageModel),
            ...(languageModel ? { languageModel } : {}),
            ...(opts.qaLimit ? { qaLimit: opts.qaLimit } : {}),
            ...(opts.conversations ? { conversations: opts.conversations.split(",").map((s) => s.trim()) } : {}),
            ...(opts.store ? { store: opts.store } : {}),
            onProgress: (done, total, label) => progress.update(done, total, label),
          });
          progress.stop();
          const files = writeLocomoReport(result, resolve(opts.out), `ramem ${process.argv.slice(2).join(" ")}`);
          if (opts.json) process.stdout.write(`${JSON.stringify(result)}\n`);
          else {
            process.stdout.write(`${locomoTables(result)}\n\n`);
            if (result.evidence.dropped) process.stdout.write(`dropped ${result.evidence.dropped} malformed or dangling evidence ids (listed in report.md)\n`);
            process.stdout.write(`wrote ${files.join(", ")}\n`);
          }
        }),
      ),
  );

  bench.addCommand(
    commonBenchOptions(
      new Command("longmemeval").description(
        "LongMemEval: recall_any@k, recall_all@k, ndcg_any@k for k in 1,3,5,10,30,50 at session and turn level, per question type " +
          "(abstention questions skipped). The data set is not shipped: pass its JSON file.",
      ),
      "1,3,5,10,30,50",
    )
      .option("--limit <n>", "only the first n questions", parsePositiveInt("--limit"))
      .action(async (opts: BenchCliOptions & { limit?: number }) =>
        runAction(opts.json, async () => {
          const progress = createProgress("questions", { quiet: opts.quiet ?? false });
          const result = await runLongMemEvalBench({
            dataPath: opts.data,
            ks: parseKs(opts.k),
            variants: opts.variants.split(",").map((s) => s.trim()).filter(Boolean),
            cacheDir: opts.cache,
            embedder: await embedderFor(opts.embedder),
            anchorer: createAnchorer(opts.anchorer, languageModelFromEnv()),
            ...(opts.limit ? { limit: opts.limit } : {}),
            ...(opts.store ? { store: opts.store } : {}),
            onProgress: (done, total, label) => progress.update(done, total, label),
          });
          progress.stop();
          const files = writeLongMemEvalReport(result, resolve(opts.out), `ramem ${process.argv.slice(2).join(" ")}`);
          if (opts.json) process.stdout.write(`${JSON.stringify(result)}\n`);
          else process.stdout.write(`${longMemEvalTables(result)}\n\nwrote ${files.join(", ")}\n`);
        }),
      ),
  );
  bench.addCommand(
    new Command("latency")
      .description(
        "Recall latency per query on a store (p50/p95 of searchLexical, searchDense and a full RaMem recall), with the " +
          "LoCoMo questions on the LoCoMo conversations; the same data on --store postgres://... compares the dialects.",
      )
      .requiredOption("--data <file>", "LoCoMo data file")
      .option("--store <location>", "a postgres:// URL or a SQLite file (default: the bench's SQLite cache store)")
      .option("--cache <dir>", "ingested stores and query vectors, reused across runs", ".ramem-cache")
      .option("--embedder <name>", "use-lite (default, offline) or hash", "use-lite")
      .option("--queries <n>", "questions timed, spread over all conversations", parsePositiveInt("--queries"), 300)
      .option("--k <n>", "budget K of the full recall", parsePositiveInt("--k"), 10)
      .option("--json", "print the result as JSON")
      .option("--quiet", "no progress output")
      .action(async (opts: { data: string; store?: string; cache: string; embedder: string; queries: number; k: number; json?: boolean; quiet?: boolean }) =>
        runAction(opts.json, async () => {
          const progress = createProgress("items", { quiet: opts.quiet ?? false });
          const prepared = await prepareBench({
            dataPath: opts.data,
            format: "locomo",
            cacheDir: opts.cache,
            embedder: await embedderFor(opts.embedder),
            anchorer: createRuleAnchorer(),
            ...(opts.store ? { store: opts.store } : {}),
            onProgress: (done, total, label) => progress.update(done, total, label),
          });
          progress.stop();
          try {
            const all = prepared.questions;
            const step = Math.max(1, all.length / Math.min(opts.queries, all.length));
            const picked = Array.from({ length: Math.min(opts.queries, all.length) }, (_, i) => all[Math.floor(i * step)]!);
            const result = await measureRecallLatency(
              prepared.memory,
              picked.map((q) => ({
                namespace: q.namespace,
                question: q.question,
                vector: prepared.queryVectors.get(q.question)!,
                ...(q.questionDate ? { questionDate: q.questionDate } : {}),
              })),
              { k: opts.k },
            );
            if (opts.json) process.stdout.write(`${JSON.stringify(result)}\n`);
            else {
              const row = (name: string, s: LatencySummary) =>
                `| ${name} | ${s.p50.toFixed(2)} | ${s.p95.toFixed(2)} | ${s.mean.toFixed(2)} | ${s.max.toFixed(2)} |`;
              process.stdout.write(
                `${result.dialect} store ${result.location}: ${result.queries} queries (after warm-up), pool ${result.pool}, k ${result.k}\n\n` +
                  `| ms per query | p50 | p95 | mean | max |\n|---|---|---|---|---|\n` +
                  `${row("searchLexical", result.lexical)}\n${row("searchDense", result.dense)}\n${row("recall (RaMem)", result.recall)}\n`,
              );
            }
          } finally {
            await prepared.memory.close();
          }
        }),
      ),
  );
  return bench;
}
