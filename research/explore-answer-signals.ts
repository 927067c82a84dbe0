// The experiments behind docs/experiments.md › RaMem targets, second round:
// signals tried on top of episode support, on the cached LoCoMo store (run
// `ramem bench locomo` once first), scored with the harness's own metrics
// and confusable subset. The real reinstate() is used throughout; each
// experiment changes only the candidates it is given.
//   EXP=base,answer,time,priors,sessions,prf,d1cat node --import tsx research/explore-answer-signals.ts
// answer   question penalty × answer lift (what the pipeline does by default);
// time     the bonus for units that carry a time when the query asks when;
// priors   a time or length prior for every query (not adopted);
// sessions BM25 over whole sessions added to each candidate (not adopted);
// prf      pseudo-relevance feedback as a third lexical channel (not adopted);
// d1cat    D@1 and rank gap per category;
// STORE=<file.db> runs on another SQLite copy of the store (e.g. one whose cues were expanded);
// aggregate episode support switched off for multi-hop (oracle) or list-like questions (not adopted).
import { stemmer } from "stemmer";
import { prepareBench } from "../src/bench/prepare-bench.js";
import { createUseLiteEmbedder } from "../src/providers/use-lite/use-lite-embedder.js";
import { createRuleAnchorer } from "../src/anchoring/rule-anchorer.js";
import { contentRecall, type ContentCandidate } from "../src/retrieval/content-recall.js";
import { induceFrame } from "../src/induction/induce-frame.js";
import { summarizeRetrieval, confusableSubset, distractionMetrics, type QuestionRetrieval } from "../src/bench/metrics/index.js";
import type { MemoryUnit } from "../src/model/memory-unit.js";
import { ACTIVATION_CONFIDENCE, type RecallFrame } from "../src/model/recall-frame.js";
import { reinstate } from "../src/retrieval/reinstate.js";
import { asksQuestion } from "../src/retrieval/asks-question.js";
import { renderEvidence } from "../src/synthesis/render-evidence.js";
import { lexicalTerms } from "../src/language/text.js";

const embedder = await createUseLiteEmbedder();
const prepared = await prepareBench({ dataPath: "../shared/datasets/locomo/locomo10.json", format: "locomo", cacheDir: ".ramem-cache", embedder, anchorer: createRuleAnchorer(), ...(process.env.STORE ? { store: process.env.STORE } : {}) });
const store = prepared.memory.store;
const deps = { store, embedder };
const unitById = new Map<string, MemoryUnit>();
const unitsOfNs = new Map<string, MemoryUnit[]>();
for (const c of prepared.conversations) {
  const us = await store.listUnits(c.namespace);
  unitsOfNs.set(c.namespace, us);
  for (const u of us) unitById.set(u.id, u);
}
const nextOf = new Map<string, string>();
for (const us of unitsOfNs.values()) for (let i = 0; i + 1 < us.length; i++) if (us[i]!.provenance.sessionId === us[i + 1]!.provenance.sessionId) nextOf.set(us[i]!.id, us[i + 1]!.id);

interface Item { id: string; cat: number; ns: string; q: string; ev: string[]; evS: string[]; ranking: ContentCandidate[]; frame: RecallFrame }
const items: Item[] = [];
for (const q of prepared.questions) {
  if (Number(q.category) > 4) continue;
  const sessions = prepared.sessionOfTurn.get(q.namespace)!;
  const ev = q.evidence.filter((t) => sessions.has(t));
  if (!ev.length) continue;
  const ranking = await contentRecall(deps, q.question, { namespace: q.namespace, pool: 100, queryVector: prepared.queryVectors.get(q.question)! });
  const [history, ss] = await Promise.all([store.historyRange(q.namespace), store.listSessions(q.namespace)]);
  const frame = await induceFrame(q.question, {
    history,
    knownPeople: [...new Set(ss.flatMap((s) => s.participants))],
    ...(q.questionDate ? { questionDate: q.questionDate } : {}),
    locateEvent: async (phrase) => {
      const [best] = await contentRecall(deps, phrase, { namespace: q.namespace, pool: 5 });
      if (!best) return null;
      const unit = unitById.get(best.unitId)!;
      const s = unit.context.session;
      return { unitId: unit.id, time: unit.context.eventTime ?? { start: s.start, end: s.end > s.start ? s.end : new Date(Date.parse(s.start) + 86_400_000).toISOString(), granularity: "day" } };
    },
  });
  items.push({ id: q.id, cat: Number(q.category), ns: q.namespace, q: q.question, ev, evS: ev.map((t) => sessions.get(t)!), ranking, frame });
}

const row = (it: Item, ids: string[]): QuestionRetrieval => ({
  questionId: it.id, category: it.cat, evidenceTurnIds: it.ev, evidenceSessionIds: it.evS,
  ranked: ids.slice(0, 30).map((id) => ({ unitId: id, sessionId: unitById.get(id)!.provenance.sessionId, turnIds: unitById.get(id)!.provenance.turnIds })),
});
const subset = confusableSubset(items.map((it) => row(it, it.ranking.map((c) => c.unitId))), 20);
function report(name: string, rank: (it: Item) => string[]) {
  const ranks = items.map(rank);
  const rows = items.map((it, i) => row(it, ranks[i]!));
  const s = summarizeRetrieval(rows, [10, 20]);
  const d = distractionMetrics(rows, subset, 20);
  const tokens = ranks.reduce((n, r) => n + renderEvidence(r.slice(0, 10).map((id) => unitById.get(id)!)).tokens, 0) / items.length;
  const cats = [1, 2, 3, 4].map((c) => s.perCategory[c]?.[10]?.recall.toFixed(3)).join(" ");
  console.log(name.padEnd(34), "R@10", s.overall[10]!.recall.toFixed(4), "R@20", s.overall[20]!.recall.toFixed(3), "D@1", d.dAt1.toFixed(3), "gap", d.meanRankGap.toFixed(2), "tok@10", tokens.toFixed(0), "| R@10 by category", cats);
}

/** reinstate() on candidates this experiment adjusted first; `frameAsks` false hides the frame's asksFor, `answers` false the next units. */
const rerank = (it: Item, candidates: ContentCandidate[], frameAsks = true, answers = true) =>
  reinstate(candidates, frameAsks ? it.frame : { ...it.frame, asksFor: null }, (id) => unitById.get(id), {
    k: 100, query: it.q, contextRanking: true, sessionContext: true, ...(answers ? { nextUnitOf: (id: string) => nextOf.get(id) } : {}),
  }).map((c) => c.unitId);
/** A question-penalty/answer-lift pair applied here instead of by reinstate(). */
function dialogue(it: Item, penalty: number, lift: number): ContentCandidate[] {
  const byId = new Map(it.ranking.map((c) => [c.unitId, { ...c }]));
  for (const c of it.ranking) {
    if (!asksQuestion(unitById.get(c.unitId)!)) continue;
    byId.get(c.unitId)!.score -= penalty;
    const next = nextOf.get(c.unitId);
    if (!next) continue;
    const answer = byId.get(next) ?? { unitId: next, score: 0 };
    answer.score = Math.max(answer.score, lift * c.score);
    byId.set(next, answer);
  }
  return [...byId.values()];
}
const carriesTime = (id: string) => { const c = unitById.get(id)!.context; return !!c.eventTime || c.mentionedTimes.length > 0; };

const exps = (process.env.EXP ?? "base").split(",");
if (exps.includes("base")) {
  report("content-only", (it) => it.ranking.map((c) => c.unitId));
  report("episode support only", (it) => rerank(it, it.ranking, false, false));
  report("ramem (as the pipeline)", (it) => rerank(it, it.ranking));
}
if (exps.includes("answer")) {
  for (const penalty of [0, 0.01, 0.02, 0.03]) for (const lift of [0, 0.6, 0.8, 1]) report(`penalty ${penalty} lift ${lift}`, (it) => rerank(it, dialogue(it, penalty, lift), true, false));
}
if (exps.includes("time")) {
  for (const bonus of [0, 0.01, 0.03, 0.05, 0.08]) report(`time bonus ${bonus}`, (it) => rerank(it, it.ranking.map((c) => ({ ...c, score: c.score + (it.frame.asksFor === "time" && carriesTime(c.unitId) ? bonus : 0) })), false));
}
if (exps.includes("priors")) {
  const words = (id: string) => unitById.get(id)!.content.split(/\s+/).length;
  for (const w of [0.005, 0.01, 0.02]) report(`time prior ${w} (every query)`, (it) => rerank(it, it.ranking.map((c) => ({ ...c, score: c.score + (carriesTime(c.unitId) ? w : 0) }))));
  for (const w of [0.002, 0.005, 0.01]) report(`length prior ${w}·ln(1+words)`, (it) => rerank(it, it.ranking.map((c) => ({ ...c, score: c.score + w * Math.log(1 + words(c.unitId)) }))));
}
if (exps.includes("sessions")) {
  // BM25 over whole sessions (k1 1.2, b 0.75), normalised to the best session, minus the frame's people.
  const terms = (t: string) => lexicalTerms(t).map((x) => stemmer(x));
  const docs = new Map<string, Map<string, { tf: Map<string, number>; len: number }>>();
  for (const [ns, us] of unitsOfNs) {
    const m = new Map<string, { tf: Map<string, number>; len: number }>();
    for (const u of us) {
      const d = m.get(u.provenance.sessionId) ?? { tf: new Map(), len: 0 };
      for (const t of terms(u.content)) { d.tf.set(t, (d.tf.get(t) ?? 0) + 1); d.len++; }
      m.set(u.provenance.sessionId, d);
    }
    docs.set(ns, m);
  }
  const sessionScore = (it: Item) => {
    const people = it.frame.participants && it.frame.participants.confidence >= ACTIVATION_CONFIDENCE ? new Set(it.frame.participants.names.flatMap(terms)) : new Set<string>();
    const q = [...new Set(terms(it.q))].filter((t) => !people.has(t));
    const m = docs.get(it.ns)!;
    const avg = [...m.values()].reduce((a, d) => a + d.len, 0) / m.size;
    const scores = new Map<string, number>();
    for (const [s, d] of m) {
      let sc = 0;
      for (const t of q) {
        const f = d.tf.get(t) ?? 0;
        if (!f) continue;
        const n = [...m.values()].filter((x) => x.tf.has(t)).length;
        sc += Math.log(1 + (m.size - n + 0.5) / (n + 0.5)) * ((f * 2.2) / (f + 1.2 * (0.25 + (0.75 * d.len) / avg)));
      }
      scores.set(s, sc);
    }
    const best = Math.max(1e-9, ...scores.values());
    return (id: string) => (scores.get(unitById.get(id)!.provenance.sessionId) ?? 0) / best;
  };
  for (const w of [0.02, 0.05, 0.1, 0.2]) report(`session BM25 ${w}`, (it) => { const s = sessionScore(it); return rerank(it, it.ranking.map((c) => ({ ...c, score: c.score + w * s(c.unitId) }))); });
}
if (exps.includes("d1cat")) {
  // D@1 and rank gap per category on the confusable subset, for the table in docs/experiments.md.
  for (const [name, rank] of [["content-only", (it: Item) => it.ranking.map((c) => c.unitId)], ["ramem", (it: Item) => rerank(it, it.ranking)]] as const) {
    const rows = items.map((it) => row(it, rank(it)));
    for (const cat of [1, 2, 3, 4]) {
      const ids = new Set(items.filter((it) => it.cat === cat).map((it) => it.id));
      const d = distractionMetrics(rows, subset.filter((id) => ids.has(id)), 20);
      console.log(name.padEnd(14), `category ${cat}`, `n ${d.size}`, "D@1", d.dAt1.toFixed(3), "gap", d.meanRankGap.toFixed(2));
    }
  }
}
if (exps.includes("prf")) {
  // Pseudo-relevance feedback: terms of the top lexical hits, weighted tf·idf, as a third lexical channel.
  const dfs = new Map<string, Map<string, number>>();
  for (const [ns, us] of unitsOfNs) { const m = new Map<string, number>(); for (const u of us) for (const t of new Set(lexicalTerms(u.content))) m.set(t, (m.get(t) ?? 0) + 1); dfs.set(ns, m); }
  const people = new Set<string>(); for (const s of prepared.conversations.flatMap((c) => c.sessions)) for (const p of s.session.participants) people.add(p.toLowerCase());
  for (const fb of [3, 5, 10]) for (const nt of [3, 6, 10]) {
    const extra = new Map<string, Map<string, number>>();
    for (const it of items) {
      const q = new Set(lexicalTerms(it.q));
      const top = (await store.searchLexical(it.ns, [...q], fb)).map((h) => unitById.get(h.id)!);
      const m = dfs.get(it.ns)!; const N = unitsOfNs.get(it.ns)!.length;
      const w = new Map<string, number>();
      for (const u of top) for (const t of lexicalTerms(u.content)) if (!q.has(t) && !people.has(t) && t.length > 2 && !/^\d+$/.test(t)) w.set(t, (w.get(t) ?? 0) + Math.log(N / (m.get(t) ?? 1)));
      const exp = [...w].sort((a, b) => b[1] - a[1]).slice(0, nt).map(([t]) => t);
      const hits = await store.searchLexical(it.ns, [...q, ...exp], 100);
      extra.set(it.id, new Map(hits.map((h) => [h.id, h.rank])));
    }
    for (const wt of [0.25, 0.5]) report(`prf docs ${fb} terms ${nt} weight ${wt}`, (it) => {
      const byId = new Map(it.ranking.map((c) => [c.unitId, { ...c }]));
      for (const [id, r] of extra.get(it.id)!) { const c = byId.get(id) ?? { unitId: id, score: 0 }; c.score += wt / (10 + r); byId.set(id, c); }
      return rerank(it, [...byId.values()].sort((a, b) => b.score - a.score).slice(0, 100));
    });
  }
}
if (exps.includes("aggregate")) {
  const noEpisode = (it: Item) => reinstate(it.ranking, it.frame, (id) => unitById.get(id), { k: 100, query: it.q, contextRanking: true, sessionContext: false }).map((c) => c.unitId);
  report("oracle: multi-hop without episode support", (it) => (it.cat === 1 ? noEpisode(it) : rerank(it, it.ranking)));
  report("oracle: multi-hop content-only", (it) => (it.cat === 1 ? it.ranking.map((c) => c.unitId) : rerank(it, it.ranking)));
  const AGG = /^(what|which)\s+(\w+\s+){0,2}(activities|things|kinds|types|hobbies|books|events|places|countries|cities|pets|instruments|sports|items|games|foods|movies|shows|ways|causes|topics|subjects|artists|bands|songs|gifts|symbols)\b|\bboth\b|\bin common\b|\bhow many times\b/i;
  console.log("aggregate-looking", items.filter((i) => AGG.test(i.q)).length, "of which multi-hop", items.filter((i) => AGG.test(i.q) && i.cat === 1).length);
  report("aggregate-looking: without episode support", (it) => (AGG.test(it.q) ? noEpisode(it) : rerank(it, it.ranking)));
}
