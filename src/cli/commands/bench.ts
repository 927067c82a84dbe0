import { Command, Option } from "commander";
import { benchMetricsCommand } from "./bench-metrics.js";
import { benchTenantsCommand } from "./bench-tenants.js";
import { join, resolve } from "node:path";
import { createRuleAnchorer } from "../../anchoring/rule-anchorer.js";
import { availableParallelism } from "node:os";
import { ANCHORER_NAMES, createAnchorer, createEmbedder, type AnchorerName } from "../../open-memory.js";
import type { LanguageModel } from "../../providers/language-model.js";
import { createOpenAICompatibleLanguageModel, providerConfigFromEnv } from "../../providers/openai-compatible/index.js";
import type { Embedder } from "../../providers/embedder.js";
import { RamemError } from "../../model/errors.js";
import { runLocomoBench } from "../../bench/locomo/run-locomo.js";
import { locomoTables, writeLocomoReport } from "../../bench/report/locomo-report.js";
import { runLongMemEvalBench } from "../../bench/longmemeval/run-longmemeval.js";
import { longMemEvalSummaryTables, writeLongMemEvalReport } from "../../bench/report/longmemeval-report.js";
import { DEFAULT_VARIANTS, VARIANTS } from "../../bench/variants.js";
import { prepareBench } from "../../bench/prepare-bench.js";
import { measureRecallLatency, type LatencySummary } from "../../bench/latency/measure-recall-latency.js";
import { createProgress, type ProgressReporter } from "../progress.js";
import { combinedRows, combinedTable, writeCombinedReport } from "../../bench/report/combined-report.js";
import { runStatesBench } from "../../bench/states/run-states.js";
import { statesTables, writeStatesReport } from "../../bench/report/states-report.js";
import { runEpisodesBench } from "../../bench/episodes/run-episodes.js";
import type { SegmentationSettings } from "../../anchoring/segment-episodes.js";
import { episodesTable, writeEpisodesReport } from "../../bench/report/episodes-report.js";
import { parsePositiveInt, runAction } from "../shared.js";
import { cliOut } from "../io.js";
import { benchScaleCommand } from "./bench-scale.js";
import { benchIngestCommand } from "./bench-ingest.js";
import { benchReliabilityCommand } from "./bench-reliability.js";

interface BenchCliOptions {
  data: string;
  k: string;
  variants: string;
  out: string;
  cache: string;
  embedder: "use-lite" | "hash";
  workers: number;
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

const BENCH_EMBEDDERS = ["use-lite", "hash"] as const;

async function embedderFor(name: string): Promise<Embedder> {
  if (!(BENCH_EMBEDDERS as readonly string[]).includes(name))
    throw new RamemError("BAD_OPTION", `unknown --embedder "${name}"`, { hint: `use ${BENCH_EMBEDDERS.join(" or ")}` });
  return createEmbedder(name as (typeof BENCH_EMBEDDERS)[number]);
}

/** What prepareBench needs to ingest in worker processes: each worker builds its own embedder and anchorer from these names. */
function parallelIngest(opts: BenchCliOptions): { workers: number; providerNames: { embedder: (typeof BENCH_EMBEDDERS)[number]; anchorer: AnchorerName } } {
  return { workers: opts.workers, providerNames: { embedder: opts.embedder, anchorer: opts.anchorer } };
}

const LOCOMO_KS = "5,10,20,30";
const LONGMEMEVAL_KS_OPTION = "1,3,5,10,30,50";

function commonBenchOptions(cmd: Command): Command {
  return storeBenchOptions(
    cmd.option(
      "--variants <list>",
      `retrieval variants, comma-separated (${VARIANTS.map((v) => v.name).join(", ")}; ramem-llm-frame needs an LLM, so it runs only when named)`,
      DEFAULT_VARIANTS.join(","),
    ),
  );
}

/** Where a bench ingests and writes, with what: every data-set bench's options but the retrieval variants. */
function storeBenchOptions(cmd: Command): Command {
  return cmd
    .option("--out <dir>", "where report.md, results.json and the plot go", "bench-out")
    .option("--cache <dir>", "ingested stores and query vectors, reused across runs", ".ramem-cache")
    .option(
      "--store <location>",
      "ingest into this store instead of the SQLite cache: a postgres:// URL (a schema per data set unless ?schema= names one) or a SQLite file",
    )
    .option("--embedder <name>", "use-lite (default, offline) or hash", "use-lite")
    .option(
      "--workers <n>",
      "ingest in n worker processes (anchoring and embedding are single-threaded, so one per core); 1 ingests in this process",
      parsePositiveInt("--workers"),
      availableParallelism(),
    )
    .addOption(
      new Option("--anchorer <name>", "rule (default, offline) or llm (RAMEM_LLM_*: the LLM restates windows of turns; ingested into its own cache)")
        .choices([...ANCHORER_NAMES])
        .default("rule"),
    )
    .option("--json", "print results.json to stdout instead of the tables")
    .option("--quiet", "no progress output");
}

/** The LoCoMo run of `bench locomo` and `bench all`: results, report files and the tables for stdout. */
async function benchLocomo(opts: BenchCliOptions, data: string, ks: number[], out: string, progress: ProgressReporter) {
  const languageModel = languageModelFromEnv();
  const result = await runLocomoBench({
    dataPath: data,
    ks,
    variants: variantList(opts),
    cacheDir: opts.cache,
    embedder: await embedderFor(opts.embedder),
    // The anchorer's id keys the cache, so an LLM-anchored store is kept apart.
    anchorer: createAnchorer(opts.anchorer, languageModel),
    ...(languageModel ? { languageModel } : {}),
    ...(opts.qaLimit ? { qaLimit: opts.qaLimit } : {}),
    ...(opts.conversations ? { conversations: opts.conversations.split(",").map((s) => s.trim()) } : {}),
    ...parallelIngest(opts),
    ...(opts.store ? { store: opts.store } : {}),
    onProgress: (done, total, label, unit) => progress.update(done, total, `LoCoMo ${label}`, unit),
  });
  const files = writeLocomoReport(result, out, commandLine());
  const notes = result.evidence.dropped ? `dropped ${result.evidence.dropped} malformed or dangling evidence ids (listed in report.md)\n` : "";
  return { result, files, text: `${locomoTables(result)}\n\n${notes}` };
}

/** The LongMemEval run of `bench longmemeval` and `bench all`. */
async function benchLongMemEval(opts: BenchCliOptions & { limit?: number; abstention?: string }, data: string, ks: number[], out: string, progress: ProgressReporter) {
  const result = await runLongMemEvalBench({
    dataPath: data,
    ks,
    variants: variantList(opts),
    cacheDir: opts.cache,
    embedder: await embedderFor(opts.embedder),
    anchorer: createAnchorer(opts.anchorer, languageModelFromEnv()),
    ...(opts.limit ? { limit: opts.limit } : {}),
    ...(opts.abstention ? { abstentionPath: opts.abstention } : {}),
    ...parallelIngest(opts),
    ...(opts.store ? { store: opts.store } : {}),
    onProgress: (done, total, label, unit) => progress.update(done, total, `LongMemEval ${label}`, unit),
  });
  const files = writeLongMemEvalReport(result, out, commandLine());
  const { traces: _traces, ...summary } = result;
  return { result, summary, files, text: `${longMemEvalSummaryTables(result)}\n\n` };
}

const variantList = (opts: BenchCliOptions) => opts.variants.split(",").map((s) => s.trim()).filter(Boolean);
const commandLine = () => `ramem ${process.argv.slice(2).join(" ")}`;

export function benchCommand(): Command {
  const bench = new Command("bench").description("Reproducible retrieval (and, with an LLM, QA) benchmarks. See README › Benchmarks.");

  bench.addCommand(
    commonBenchOptions(
      new Command("locomo").description(
        "LoCoMo: Recall@K, hit@K, MRR, tokens@K per category; the context-confusable subset with D@1 and rank gap; " +
          "QA F1 (official LoCoMo and SimpleMem harness) when RAMEM_LLM_BASE_URL/RAMEM_LLM_MODEL are set.",
      ).requiredOption("--data <file>", "the LoCoMo file (locomo10.json)"),
    )
      .option("--k <list>", "budgets K, comma-separated", LOCOMO_KS)
      .option("--qa-limit <n>", "answer at most n questions per category with the LLM", parsePositiveInt("--qa-limit"))
      .option("--conversations <ids>", "only these sample ids, comma-separated (e.g. conv-26)")
      .action(async (opts: BenchCliOptions) =>
        runAction(opts.json, async () => {
          const progress = createProgress("items", { quiet: opts.quiet ?? false });
          const run = await benchLocomo(opts, opts.data, parseKs(opts.k), resolve(opts.out), progress);
          progress.stop();
          if (opts.json) cliOut(`${JSON.stringify(run.result)}\n`);
          else cliOut(`${run.text}wrote ${run.files.join(", ")}\n`);
        }),
      ),
  );

  bench.addCommand(
    commonBenchOptions(
      new Command("longmemeval").description(
        "LongMemEval: recall_any@k, recall_all@k, ndcg_any@k for k in 1,3,5,10,30,50 at session and turn level, per question type " +
          "(abstention questions left out), the abstain judgment's AUROC against abstention questions, and a per-question trace (longmemeval-questions.jsonl). " +
          "The data set is not shipped: pass its JSON file.",
      ).requiredOption("--data <file>", "a LongMemEval file (e.g. longmemeval_s_dev100.json)"),
    )
      .option("--k <list>", "budgets K, comma-separated", LONGMEMEVAL_KS_OPTION)
      .option("--limit <n>", "only the first n questions", parsePositiveInt("--limit"))
      .option("--abstention <file>", "a LongMemEval file of abstention questions (ids ending _abs, e.g. longmemeval_s_abs15.json), scored for the abstain judgment")
      .action(async (opts: BenchCliOptions & { limit?: number; abstention?: string }) =>
        runAction(opts.json, async () => {
          const progress = createProgress("items", { quiet: opts.quiet ?? false });
          const run = await benchLongMemEval(opts, opts.data, parseKs(opts.k), resolve(opts.out), progress);
          progress.stop();
          if (opts.json) cliOut(`${JSON.stringify(run.summary)}\n`);
          else cliOut(`${run.text}wrote ${run.files.join(", ")}\n`);
        }),
      ),
  );

  bench.addCommand(
    commonBenchOptions(
      new Command("states").description(
        "States and sequences (datasets/ramem-states: moves, jobs, partners, pets, preferences, counts, first/last/previous occurrences): " +
          "whether the currently valid state, the state valid then, or the asked-for occurrence ranks first, above the superseded statements.",
      ),
    )
      .option("--data <files>", "the state/sequence sets in LoCoMo format, comma-separated: the part tuned on", "datasets/ramem-states/ramem-states.json")
      .option("--heldback <files>", "a held-back part, comma-separated, reported apart (e.g. datasets/ramem-states/ramem-states-heldback.json)")
      .option("--k <n>", "budget K", parsePositiveInt("--k"), 10)
      .action(async (opts: BenchCliOptions & { k: number | string; heldback?: string }) =>
        runAction(opts.json, async () => {
          const progress = createProgress("items", { quiet: opts.quiet ?? false });
          const files = (list: string) => list.split(",").map((f) => f.trim()).filter((f) => f !== "");
          const result = await runStatesBench({
            parts: [{ name: "tuned", files: files(opts.data) }, ...(opts.heldback ? [{ name: "held-back", files: files(opts.heldback) }] : [])],
            variants: variantList(opts),
            cacheDir: opts.cache,
            embedder: await embedderFor(opts.embedder),
            anchorer: createAnchorer(opts.anchorer, languageModelFromEnv()),
            k: Number(opts.k),
            ...parallelIngest(opts),
            onProgress: (done, total, label, unit) => progress.update(done, total, `states ${label}`, unit),
          });
          progress.stop();
          const written = writeStatesReport(result, resolve(opts.out), commandLine());
          if (opts.json) cliOut(`${JSON.stringify(result)}\n`);
          else cliOut(`${statesTables(result)}\n\nwrote ${written.join(", ")}\n`);
        }),
      ),
  );

  bench.addCommand(
    storeBenchOptions(
      new Command("episodes").description(
        "Episode segmentation against known boundaries: pieces of LoCoMo sessions joined into documents (Pk, boundary precision and recall) " +
          "and single pieces that should stay one episode; --sweep compares settings of the segmenter.",
      ),
    )
      .option("--data <file>", "a LoCoMo file", "../shared/datasets/locomo/locomo10.json")
      .option("--documents <n>", "joined (and single) documents per conversation", parsePositiveInt("--documents"), 30)
      .option("--seed <n>", "seed of the document builder", parsePositiveInt("--seed"), 7)
      .option("--sweep", "also run a grid of boundary depths and window sizes beside the default")
      .action(async (opts: BenchCliOptions & { documents: number | string; seed: number | string; sweep?: boolean }) =>
        runAction(opts.json, async () => {
          const progress = createProgress("items", { quiet: opts.quiet ?? false });
          const settings: Array<{ name: string; settings: Partial<SegmentationSettings> }> = [{ name: "default", settings: {} }];
          if (opts.sweep) for (const depth of [0.15, 0.25, 0.35, 0.5]) for (const window of [2, 3, 4]) settings.push({ name: `depth ${depth}, window ${window}`, settings: { depth, window } });
          const result = await runEpisodesBench({
            dataPath: opts.data,
            cacheDir: opts.cache,
            embedder: await embedderFor(opts.embedder),
            anchorer: createAnchorer(opts.anchorer, languageModelFromEnv()),
            documents: Number(opts.documents),
            seed: Number(opts.seed),
            settings,
            ...(opts.store ? { store: opts.store } : {}),
            ...parallelIngest(opts),
            onProgress: (done, total, label, unit) => progress.update(done, total, `episodes ${label}`, unit),
          });
          progress.stop();
          const files = writeEpisodesReport(result, resolve(opts.out), commandLine());
          if (opts.json) cliOut(`${JSON.stringify(result)}\n`);
          else cliOut(`${episodesTable(result)}\n\nwrote ${files.join(", ")}\n`);
        }),
      ),
  );

  bench.addCommand(
    commonBenchOptions(
      new Command("all").description(
        "LoCoMo and a LongMemEval file back to back, every variant on both, into one report (<out>/report.md, results.json; " +
          "each data set's own report in <out>/locomo and <out>/longmemeval): a change is judged on both kinds of conversation at once.",
      ),
    )
      .requiredOption("--locomo <file>", "the LoCoMo file (locomo10.json)")
      .requiredOption("--longmemeval <file>", "a LongMemEval file (e.g. longmemeval_s_dev100.json)")
      .option("--abstention <file>", "LongMemEval abstention questions scored beside it (e.g. longmemeval_s_abs15.json)")
      .action(async (opts: BenchCliOptions & { locomo: string; longmemeval: string; abstention?: string }) =>
        runAction(opts.json, async () => {
          const progress = createProgress("items", { quiet: opts.quiet ?? false });
          const out = resolve(opts.out);
          const locomo = await benchLocomo(opts, opts.locomo, parseKs(LOCOMO_KS), join(out, "locomo"), progress);
          const lme = await benchLongMemEval(opts, opts.longmemeval, parseKs(LONGMEMEVAL_KS_OPTION), join(out, "longmemeval"), progress);
          progress.stop();
          const rows = combinedRows(locomo.result, lme.result);
          const files = writeCombinedReport(rows, out, commandLine());
          if (opts.json) cliOut(`${JSON.stringify({ variants: rows, locomo: locomo.result, longmemeval: lme.summary })}\n`);
          else cliOut(`${combinedTable(rows)}\n\nwrote ${[...files, ...locomo.files, ...lme.files].join(", ")}\n`);
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
            onProgress: (done, total, label, unit) => progress.update(done, total, label, unit),
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
            if (opts.json) cliOut(`${JSON.stringify(result)}\n`);
            else {
              const row = (name: string, s: LatencySummary) =>
                `| ${name} | ${s.p50.toFixed(2)} | ${s.p95.toFixed(2)} | ${s.mean.toFixed(2)} | ${s.max.toFixed(2)} |`;
              cliOut(
                `${result.dialect} store ${result.location}: ${result.queries} queries (after warm-up), pool ${result.pool}, k ${result.k}\n\n` +
                  `| ms per query | p50 | p95 | mean | max |\n|---|---|---|---|---|\n` +
                  `${row("searchLexical", result.lexical)}\n${row("searchDense", result.dense)}\n${row("recall (RaMem)", result.recall)}\n${row("recall (content-only)", result.contentOnly)}\n`,
              );
            }
          } finally {
            await prepared.memory.close();
          }
        }),
      ),
  );
  bench.addCommand(benchScaleCommand());
  bench.addCommand(benchIngestCommand());
  bench.addCommand(benchReliabilityCommand());
  bench.addCommand(benchMetricsCommand());
  bench.addCommand(benchTenantsCommand());
  return bench;
}
