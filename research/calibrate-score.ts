/**
 * Fits and checks the final score of a recall hit (src/retrieval/final-score.ts)
 * on LoCoMo: every question's top-20 hits (full RaMem, default embedder and
 * anchorer), each labelled relevant when it covers an evidence turn. Fits a
 * logistic model on conversations 1–5 and reports, on conversations 6–10
 * (held out), the precision of hits scoring ≥ 0.5 and a reliability table,
 * for the fitted weights and for the ones in final-score.ts.
 *
 *   node --import tsx research/calibrate-score.ts ../shared/datasets/locomo/locomo10.json [cacheDir]
 */
import { prepareBench } from "../src/bench/prepare-bench.js";
import { createUseLiteEmbedder } from "../src/providers/use-lite/use-lite-embedder.js";
import { createRuleAnchorer } from "../src/anchoring/rule-anchorer.js";
import { runRecall } from "../src/retrieval/recall-pipeline.js";
import { SCORE_WEIGHTS, rawScore, type ScoreFeatures, type ScoreWeights } from "../src/retrieval/final-score.js";
import type { RecallHit } from "../src/model/recall.js";

const [dataPath = "../shared/datasets/locomo/locomo10.json", cacheDir = "bench-out/calibration-cache"] = process.argv.slice(2);
const K = 20;

function features(hits: readonly RecallHit[]): ScoreFeatures[] {
  const best = Math.max(0, ...hits.map((h) => h.channels.lexical?.score ?? 0));
  return hits.map((h, i) => ({
    rank: i + 1,
    lexicalShare: best > 0 && h.channels.lexical ? Math.max(0, h.channels.lexical.score) / best : 0,
    cosine: h.channels.dense ? Math.max(0, h.channels.dense.score) : 0,
    context: h.reasons.some((r) => r.startsWith("context:")),
  }));
}

interface Row {
  f: ScoreFeatures;
  y: 0 | 1;
  question: string;
}

const prepared = await prepareBench({ dataPath, format: "locomo", cacheDir, embedder: await createUseLiteEmbedder(), anchorer: createRuleAnchorer() });
const namespaces = prepared.conversations.map((c) => c.namespace);
const train: Row[] = [];
const test: Row[] = [];
for (const q of prepared.questions) {
  if (!q.evidence.length || q.category === 5) continue; // adversarial questions have no evidence to find
  const { hits } = await runRecall(prepared.memory, { namespace: q.namespace, query: q.question, k: K, queryVector: prepared.queryVectors.get(q.question)! });
  const evidence = new Set(q.evidence);
  const rows = features(hits).map((f, i) => ({ f, y: (hits[i]!.unit.provenance.turnIds.some((t) => evidence.has(t)) ? 1 : 0) as 0 | 1, question: q.id }));
  (namespaces.indexOf(q.namespace) < 5 ? train : test).push(...rows);
}

/** Logistic regression by full-batch gradient descent on the five features. */
function fit(rows: readonly Row[]): ScoreWeights {
  const w: { -readonly [K in keyof ScoreWeights]: number } = { bias: 0, logRank: 0, lexicalShare: 0, cosine: 0, context: 0 };
  const x = (f: ScoreFeatures) => [1, Math.log(f.rank), f.lexicalShare, f.cosine, f.context ? 1 : 0];
  const keys = ["bias", "logRank", "lexicalShare", "cosine", "context"] as const;
  for (let step = 0; step < 3000; step++) {
    const grad = [0, 0, 0, 0, 0];
    for (const r of rows) {
      const xs = x(r.f);
      const p = rawScore(r.f, w);
      for (let j = 0; j < 5; j++) grad[j]! += (p - r.y) * xs[j]!;
    }
    keys.forEach((k, j) => (w[k] -= (0.5 * grad[j]!) / rows.length));
  }
  return Object.fromEntries(keys.map((k) => [k, Math.round(w[k] * 100) / 100])) as ScoreWeights;
}

/** Final scores as the library computes them: calibrated, then cut to the one above. */
function finalOf(rows: readonly Row[], w: ScoreWeights): number[] {
  const out: number[] = [];
  let ceiling = 1;
  rows.forEach((r, i) => {
    if (i === 0 || rows[i - 1]!.question !== r.question) ceiling = 1;
    ceiling = Math.min(ceiling, rawScore(r.f, w));
    out.push(ceiling);
  });
  return out;
}

function report(name: string, rows: readonly Row[], w: ScoreWeights): void {
  const s = finalOf(rows, w);
  const above = rows.filter((_, i) => s[i]! >= 0.5);
  const precision = above.length ? above.filter((r) => r.y).length / above.length : NaN;
  const relevant = rows.filter((r) => r.y).length;
  console.log(`${name}: ${rows.length} hits, ${relevant} relevant (base rate ${(relevant / rows.length).toFixed(3)})`);
  console.log(`  score >= 0.5: ${above.length} hits, precision ${precision.toFixed(3)}, recall of relevant ${(above.filter((r) => r.y).length / relevant).toFixed(3)}`);
  for (const [lo, hi] of [[0, 0.1], [0.1, 0.2], [0.2, 0.3], [0.3, 0.5], [0.5, 0.7], [0.7, 1.01]] as const) {
    const bin = rows.filter((_, i) => s[i]! >= lo && s[i]! < hi);
    const mean = bin.reduce((a, _r, i) => a + s[rows.indexOf(bin[i]!)]!, 0) / (bin.length || 1);
    console.log(`  [${lo.toFixed(1)}, ${Math.min(hi, 1).toFixed(1)}): ${String(bin.length).padStart(5)} hits, mean score ${mean.toFixed(3)}, share relevant ${(bin.filter((r) => r.y).length / (bin.length || 1)).toFixed(3)}`);
  }
}

const fitted = fit(train);
console.log("fitted on conversations 1-5:", JSON.stringify(fitted));
report("held out (conversations 6-10), fitted weights", test, fitted);
report("held out (conversations 6-10), SCORE_WEIGHTS in final-score.ts", test, SCORE_WEIGHTS);
await prepared.memory.close();
