/**
 * Fits and checks the final score of a recall hit (src/retrieval/final-score.ts)
 * on both kinds of conversation: LoCoMo (two people, ~600 units a store) and
 * the LongMemEval dev split (a user and an assistant, ~5,000 units a store).
 * Every answerable question's top-20 hits (full RaMem, default embedder and
 * anchorer), each labelled evidence when it covers an evidence turn (LoCoMo's
 * evidence, LongMemEval's has_answer turns). Trains on LoCoMo conversations
 * 1–5 and every second LongMemEval question, each data set weighing the same;
 * reports on the rest, per data set, the reliability table and the expected
 * calibration error, for the fitted weights and for those in final-score.ts.
 *
 * Small stores too: the same questions over stores of a few sessions (each
 * LoCoMo conversation's first three sessions with the questions they answer;
 * each LongMemEval question's answer sessions and two others), derived into
 * a temporary directory (never into the project).
 *
 * With --content-only, the same for the content-only ranking (no frame, the
 * content order), whose weights are CONTENT_SCORE_WEIGHTS.
 *
 *   node --import tsx research/calibrate-score.ts [--content-only] [--features name,name,…]
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { prepareBench } from "../src/bench/prepare-bench.js";
import { createUseLiteEmbedder } from "../src/providers/use-lite/use-lite-embedder.js";
import { createRuleAnchorer } from "../src/anchoring/rule-anchorer.js";
import { CONTENT_ONLY, runRecall } from "../src/retrieval/recall-pipeline.js";
import { CONTENT_SCORE_WEIGHTS, SCORE_WEIGHTS, rawScore, scoreFeatureVector, type ScoreFeatures, type ScoreWeights } from "../src/retrieval/final-score.js";
import { keyWordShare, queryKeyWords } from "../src/retrieval/judge-evidence.js";
import { scoreReliability } from "../src/bench/metrics/score-reliability.js";

const data = "../shared/datasets";
const cacheDir = ".ramem-cache";
const K = 20;
const embedder = await createUseLiteEmbedder();
const contentOnly = process.argv.includes("--content-only");
const shipped = contentOnly ? CONTENT_SCORE_WEIGHTS : SCORE_WEIGHTS;
const anchorer = createRuleAnchorer();

type SetName = "locomo" | "longmemeval" | "locomo-small" | "longmemeval-small";
interface Row {
  set: SetName;
  train: boolean;
  f: ScoreFeatures;
  y: 0 | 1;
  question: string;
}
const rows: Row[] = [];

async function collect(set: SetName, file: string) {
  const format = set.startsWith("locomo") ? "locomo" : "longmemeval";
  const prepared = await prepareBench({ dataPath: file, format, cacheDir, embedder, anchorer });
  const sizes = new Map<string, number>();
  for (const ns of new Set(prepared.questions.map((q) => q.namespace))) sizes.set(ns, (await prepared.memory.store.stats(ns)).units);
  const namespaces = prepared.conversations.map((c) => c.namespace);
  for (const [i, q] of prepared.questions.entries()) {
    if (!q.evidence.length || q.id.endsWith("_abs") || (format === "locomo" && Number(q.category) === 5)) continue;
    const { hits, frame } = await runRecall(prepared.memory, { namespace: q.namespace, query: q.question, k: K, queryVector: prepared.queryVectors.get(q.question)!, ...(q.questionDate ? { questionDate: q.questionDate } : {}), ...(contentOnly ? { switches: CONTENT_ONLY } : {}) });
    const evidence = new Set(q.evidence);
    const keyed = queryKeyWords(q.question, frame);
    const best = Math.max(0, ...hits.map((h) => h.channels.lexical?.score ?? 0));
    for (const [r, h] of hits.entries()) {
      const context = h.reasons.find((x) => x.startsWith("context: "))?.slice("context: ".length).split(", ") ?? [];
      rows.push({
        set,
        train: format === "locomo" ? namespaces.indexOf(q.namespace) < 5 : i % 2 === 0,
        f: {
          rank: r + 1,
          lexicalShare: best > 0 && h.channels.lexical ? Math.max(0, h.channels.lexical.score) / best : 0,
          cosine: h.channels.dense ? Math.max(0, h.channels.dense.score) : 0,
          context: context.length > 0,
          keyShare: keyWordShare(keyed, h.unit),
          poolSize: Math.min(100, sizes.get(q.namespace) ?? 100),
        },
        y: h.unit.provenance.turnIds.some((t) => evidence.has(t)) ? 1 : 0,
        question: `${set}/${q.id}`,
      });
    }
  }
  await prepared.memory.close();
}

/** Each LoCoMo conversation's first three sessions, with the questions whose evidence lies in them. */
function smallLocomo(file: string): unknown[] {
  const conversations = JSON.parse(readFileSync(file, "utf8")) as Array<{ sample_id: string; conversation: Record<string, unknown>; qa: Array<{ evidence?: string[]; category: number }> }>;
  return conversations.map((c) => {
    const kept = Object.fromEntries(Object.entries(c.conversation).filter(([k]) => !/^session_\d+/.test(k) || Number(/^session_(\d+)/.exec(k)![1]) <= 3));
    const inKept = (e: string) => /^D([123]):\d+$/.test(e.trim());
    return { sample_id: `${c.sample_id}-small`, conversation: kept, qa: c.qa.filter((q) => q.category !== 5 && q.evidence?.length && q.evidence.every(inKept)) };
  });
}

/** Each LongMemEval question over its answer sessions and the first two others of its haystack. */
function smallLongMemEval(file: string): unknown[] {
  const questions = JSON.parse(readFileSync(file, "utf8")) as Array<{ question_id: string; answer_session_ids: string[]; haystack_session_ids: string[]; haystack_dates: string[]; haystack_sessions: unknown[] }>;
  return questions.map((q) => {
    const answer = new Set(q.answer_session_ids);
    const others = q.haystack_session_ids.filter((id) => !answer.has(id)).slice(0, 2);
    const keep = q.haystack_session_ids.map((id, i) => [id, i] as const).filter(([id]) => answer.has(id) || others.includes(id)).map(([, i]) => i);
    return { ...q, question_id: `${q.question_id}-small`, haystack_session_ids: keep.map((i) => q.haystack_session_ids[i]), haystack_dates: keep.map((i) => q.haystack_dates[i]), haystack_sessions: keep.map((i) => q.haystack_sessions[i]) };
  });
}

const derived = join(tmpdir(), "ramem-calibration");
mkdirSync(derived, { recursive: true });
writeFileSync(join(derived, "locomo-small.json"), JSON.stringify(smallLocomo(`${data}/locomo/locomo10.json`)));
writeFileSync(join(derived, "longmemeval-small.json"), JSON.stringify(smallLongMemEval(`${data}/longmemeval/longmemeval_s_dev100.json`)));
await collect("locomo", `${data}/locomo/locomo10.json`);
await collect("longmemeval", `${data}/longmemeval/longmemeval_s_dev100.json`);
await collect("locomo-small", join(derived, "locomo-small.json"));
await collect("longmemeval-small", join(derived, "longmemeval-small.json"));

/** Logistic regression by full-batch gradient descent; each data set weighs the same. */
function fit(train: readonly Row[], use: ReadonlySet<keyof ScoreWeights>): ScoreWeights {
  const keys = Object.keys(SCORE_WEIGHTS) as (keyof ScoreWeights)[];
  const w = Object.fromEntries(keys.map((k) => [k, 0])) as { -readonly [K in keyof ScoreWeights]: number };
  const size = new Map<string, number>();
  for (const r of train) size.set(r.set, (size.get(r.set) ?? 0) + 1);
  for (let step = 0; step < 3000; step++) {
    const grad = keys.map(() => 0);
    for (const r of train) {
      const x = scoreFeatureVector(r.f);
      const p = rawScore(r.f, w);
      const weight = 1 / size.get(r.set)!;
      keys.forEach((k, j) => (grad[j]! += weight * (p - r.y) * x[k]));
    }
    keys.forEach((k, j) => (w[k] = use.has(k) || k === "bias" ? w[k] - (1.0 * grad[j]!) / size.size : 0));
  }
  return Object.fromEntries(keys.map((k) => [k, Math.round(w[k] * 100) / 100])) as ScoreWeights;
}

/** Final scores as the library computes them: calibrated, then cut to the one above. */
function finalOf(set: readonly Row[], w: ScoreWeights): number[] {
  let ceiling = 1;
  return set.map((r, i) => {
    if (i === 0 || set[i - 1]!.question !== r.question) ceiling = 1;
    ceiling = Math.min(ceiling, rawScore(r.f, w));
    return ceiling;
  });
}

function report(name: string, set: readonly Row[], w: ScoreWeights): void {
  const scores = finalOf(set, w);
  const r = scoreReliability(set.map((row, i) => ({ score: scores[i]!, evidence: row.y === 1 })));
  console.log(`${name}: ${r.hits} hits, base rate ${r.baseRate.toFixed(3)}, ECE ${r.ece.toFixed(3)}`);
  const top = scoreReliability(set.flatMap((row, i) => (row.f.rank === 1 ? [{ score: scores[i]!, evidence: row.y === 1 }] : [])));
  console.log(`  top hits only: ${top.hits}, share evidence ${top.baseRate.toFixed(3)}, mean score ${(top.bands.reduce((a, b) => a + b.meanScore * b.hits, 0) / (top.hits || 1)).toFixed(3)}, ECE ${top.ece.toFixed(3)}`);
  const rightTop = set.flatMap((row, i) => (row.f.rank === 1 && row.y === 1 ? [scores[i]!] : []));
  console.log(`  right top hits kept by minScore: ${[0.05, 0.1, 0.15, 0.2, 0.3].map((m) => `${m} → ${(rightTop.filter((x) => x >= m).length / (rightTop.length || 1)).toFixed(3)}`).join(", ")} (of ${rightTop.length})`);
  for (const b of r.bands) console.log(`  [${b.from.toFixed(1)}, ${b.to.toFixed(1)}): ${String(b.hits).padStart(6)} hits, mean score ${b.meanScore.toFixed(3)}, share evidence ${b.evidenceShare.toFixed(3)}`);
}

const arg = process.argv.indexOf("--features");
const use = new Set((arg > 0 ? process.argv[arg + 1]! : Object.keys(SCORE_WEIGHTS).join(",")).split(",") as (keyof ScoreWeights)[]);
const fitted = fit(rows.filter((r) => r.train), use);
console.log(`fitted (${[...use].join(", ")}) on LoCoMo 1-5 and half of LongMemEval dev:`, JSON.stringify(fitted));
for (const set of ["locomo", "longmemeval", "locomo-small", "longmemeval-small"] as const) {
  const held = rows.filter((r) => r.set === set && !r.train);
  report(`${set} held out, fitted`, held, fitted);
  report(`${set} held out, the weights in final-score.ts`, held, shipped);
  report(`${set} all, the weights in final-score.ts`, rows.filter((r) => r.set === set), shipped);
}
