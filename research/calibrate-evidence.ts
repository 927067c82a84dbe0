/**
 * Fits and checks the abstain judgment of recall (src/retrieval/judge-evidence.ts):
 * does the store hold evidence for the question at all? Answerable questions
 * are LongMemEval's dev split and LoCoMo's categories 1–4; questions whose
 * answer was never said are LongMemEval's abstention questions (abs15) and
 * LoCoMo's adversarial category 5. Prints each data set's AUROC of the
 * judgment and of the top hit's score, and at the default threshold the share
 * of abstention questions flagged and of answerable ones (with a right top
 * hit) wrongly flagged; with --fit, a logistic fit of the weights, trained on
 * LoCoMo conversations 1–5 and LongMemEval's first half, tested on the rest.
 *
 *   node --import tsx research/calibrate-evidence.ts [--fit [--features name,name,…[;name,…]] [--thresholds]] [--dump] [--dump-rules] [--dump-flagged] [--json <file>]
 */
import { prepareBench } from "../src/bench/prepare-bench.js";
import { createUseLiteEmbedder } from "../src/providers/use-lite/use-lite-embedder.js";
import { createRuleAnchorer } from "../src/anchoring/rule-anchorer.js";
import { runRecall } from "../src/retrieval/recall-pipeline.js";
import { contentRecall } from "../src/retrieval/content-recall.js";
import { evidenceFeatures, evidenceFeatureVector, evidenceProbability, EVIDENCE_WEIGHTS, type EvidenceFeatures, type EvidenceWeights } from "../src/retrieval/judge-evidence.js";
import type { MemoryUnit } from "../src/model/memory-unit.js";

const data = "../shared/datasets";
const cacheDir = ".ramem-cache";
const embedder = await createUseLiteEmbedder();
const anchorer = createRuleAnchorer();

interface Row {
  set: "longmemeval" | "locomo";
  train: boolean;
  answerable: boolean;
  rightTop: boolean;
  topScore: number;
  f: EvidenceFeatures;
  question: string;
}
const rows: Row[] = [];

async function collect(set: Row["set"], file: string, format: "locomo" | "longmemeval", abstains: (q: { id: string; category: string | number }) => boolean) {
  const prepared = await prepareBench({ dataPath: file, format, cacheDir, embedder, anchorer });
  const namespaces = prepared.conversations.map((c) => c.namespace);
  for (const [i, q] of prepared.questions.entries()) {
    const queryVector = prepared.queryVectors.get(q.question)!;
    const outcome = await runRecall(prepared.memory, { namespace: q.namespace, query: q.question, k: 10, queryVector, ...(q.questionDate ? { questionDate: q.questionDate } : {}) });
    const ranking = await contentRecall(prepared.memory, q.question, { namespace: q.namespace, pool: 100, queryVector });
    const units = await prepared.memory.store.getUnits(q.namespace, ranking.map((c) => c.unitId));
    const byId = new Map(units.map((u) => [u.id, u]));
    const pool = ranking.flatMap((c) => byId.get(c.unitId) ?? []) as MemoryUnit[];
    const evidence = new Set(q.evidence);
    const top = outcome.hits[0];
    const answerable = !abstains({ id: q.id, category: q.category });
    rows.push({
      set,
      train: format === "locomo" ? namespaces.indexOf(q.namespace) < 5 : i % 2 === 0,
      answerable,
      rightTop: Boolean(top && (top.unit.provenance.turnIds.some((t) => evidence.has(t)) || (q.answerSessionIds ?? []).includes(top.unit.provenance.sessionId))),
      topScore: top?.score ?? 0,
      f: evidenceFeatures(q.question, outcome.frame, pool),
      question: q.question,
    });
  }
  await prepared.memory.close();
}

await collect("longmemeval", `${data}/longmemeval/longmemeval_s_dev100.json`, "longmemeval", () => false);
await collect("longmemeval", `${data}/longmemeval/longmemeval_s_abs15.json`, "longmemeval", () => true);
await collect("locomo", `${data}/locomo/locomo10.json`, "locomo", (q) => String(q.category) === "5");

function auroc(pos: number[], neg: number[]): number {
  let wins = 0;
  for (const p of pos) for (const n of neg) wins += p > n ? 1 : p === n ? 0.5 : 0;
  return wins / (pos.length * neg.length || 1);
}

function fit(train: readonly Row[], use: ReadonlySet<string>): EvidenceWeights {
  const keys = Object.keys(EVIDENCE_WEIGHTS) as (keyof EvidenceWeights)[];
  const w = Object.fromEntries(keys.map((k) => [k, 0])) as { -readonly [K in keyof EvidenceWeights]: number };
  const x = (f: EvidenceFeatures) => keys.map((k) => (k === "bias" || use.has(k) ? evidenceFeatureVector(f)[k] : 0));
  // Each data set and class weighs the same, so that neither LoCoMo's size nor the rarity of abstention decides the fit.
  const groups = new Map<string, number>();
  for (const r of train) groups.set(`${r.set}/${r.answerable}`, (groups.get(`${r.set}/${r.answerable}`) ?? 0) + 1);
  for (let step = 0; step < 4000; step++) {
    const grad = keys.map(() => 0);
    for (const r of train) {
      const weight = 1 / groups.get(`${r.set}/${r.answerable}`)!;
      const xs = x(r.f);
      const p = evidenceProbability(r.f, w);
      for (let j = 0; j < keys.length; j++) grad[j]! += weight * (p - (r.answerable ? 1 : 0)) * xs[j]!;
    }
    keys.forEach((k, j) => (w[k] -= (1.0 * grad[j]!) / groups.size));
  }
  return Object.fromEntries(keys.map((k) => [k, Math.round(w[k] * 100) / 100])) as EvidenceWeights;
}

function report(name: string, set: readonly Row[], w: EvidenceWeights) {
  const pos = set.filter((r) => r.answerable);
  const neg = set.filter((r) => !r.answerable);
  const p = (r: Row) => evidenceProbability(r.f, w);
  const right = pos.filter((r) => r.rightTop);
  console.log(
    `${name}: ${pos.length} answerable, ${neg.length} abstention | AUROC judgment ${auroc(pos.map(p), neg.map(p)).toFixed(3)}, top score ${auroc(pos.map((r) => r.topScore), neg.map((r) => r.topScore)).toFixed(3)} | flagged: abstention ${(neg.filter((r) => p(r) < 0.5).length / (neg.length || 1)).toFixed(3)}, answerable with a right top hit ${(right.filter((r) => p(r) < 0.5).length / (right.length || 1)).toFixed(3)} (${right.length})`,
  );
}

const sets = ["longmemeval", "locomo"] as const;
for (const s of sets) report(`${s}, weights in judge-evidence.ts`, rows.filter((r) => r.set === s), EVIDENCE_WEIGHTS);
if (process.argv.includes("--fit")) {
  // --features a,b;a,b,c fits and reports each set of features in turn.
  const arg = process.argv.indexOf("--features");
  for (const names of arg > 0 ? process.argv[arg + 1]!.split(";") : [Object.keys(EVIDENCE_WEIGHTS).join(",")]) {
    const w = fit(rows.filter((r) => r.train), new Set(names.split(",")));
    console.log(`features ${names}: fitted on the training halves:`, JSON.stringify(w));
    for (const s of sets) report(`${s} held-out half, fitted`, rows.filter((r) => r.set === s && !r.train), w);
    for (const s of sets) report(`${s} all, fitted`, rows.filter((r) => r.set === s), w);
    if (process.argv.includes("--thresholds")) {
      // Where to draw "likely": each threshold's flagged shares on the training halves, then on the held-out ones.
      for (const train of [true, false])
        for (const t of [0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7])
          console.log(`  threshold ${t} (${train ? "training" : "held-out"}):`, sets.map((s) => {
            const set = rows.filter((r) => r.set === s && r.train === train);
            const neg = set.filter((r) => !r.answerable), right = set.filter((r) => r.answerable && r.rightTop);
            const flagged = (xs: Row[]) => (xs.filter((r) => evidenceProbability(r.f, w) < t).length / (xs.length || 1)).toFixed(3);
            return `${s} abstention ${flagged(neg)}, right top ${flagged(right)}`;
          }).join(" | "));
    }
  }
}
if (process.argv.includes("--dump")) {
  for (const r of rows.filter((r) => r.set === "longmemeval" || !r.answerable).slice(0, 400))
    console.log(r.set, r.answerable ? "A" : "X", evidenceProbability(r.f, EVIDENCE_WEIGHTS).toFixed(2), r.f.missing.join(","), "|", r.f.bestShare.toFixed(2), r.f.personUnmet, "unsaid:" + r.f.unsaidNames.join(","), r.f.unmetTime ? `time:${r.f.unmetTime}` : "", "|", r.question);
}
if (process.argv.includes("--dump-rules")) {
  // Where the time and quantity tests fire, either class: they must not flag answerable questions.
  for (const r of rows.filter((r) => r.f.unmetTime)) console.log(r.set, r.answerable ? "A" : "X", r.rightTop ? "right-top" : "", r.f.unmetTime, "|", r.question);
  for (const r of rows.filter((r) => r.f.quantitiesUnsaid.length)) console.log(r.set, r.answerable ? "A" : "X", r.rightTop ? "right-top" : "", r.f.quantitiesUnsaid.join(","), "|", r.question);
}
if (process.argv.includes("--json")) {
  // Every row's features, for exploring a feature offline without running recall again.
  const { writeFileSync } = await import("node:fs");
  const out = process.argv[process.argv.indexOf("--json") + 1]!;
  writeFileSync(out, JSON.stringify(rows.map((r) => ({ ...r, f: { ...r.f, closest: r.f.closest?.content ?? null } }))));
}
if (process.argv.includes("--dump-flagged")) {
  // Answerable questions whose top hit is right, flagged all the same: what the judgment gets wrong.
  for (const r of rows.filter((r) => r.answerable && r.rightTop && evidenceProbability(r.f, EVIDENCE_WEIGHTS) < 0.5).slice(0, 60))
    console.log(r.set, evidenceProbability(r.f, EVIDENCE_WEIGHTS).toFixed(2), r.f.missing.join(","), "|", r.f.bestShare.toFixed(2), r.f.personUnmet, "unsaid:" + r.f.unsaidNames.join(","), "|", r.question);
}
