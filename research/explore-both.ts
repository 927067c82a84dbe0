// The experiments behind docs/experiments.md › One method for both kinds of
// conversation: every reinstatement signal judged on LoCoMo AND the
// LongMemEval dev split in one run, on the cached bench stores (run
// `ramem bench locomo` and `ramem bench longmemeval --data …dev100.json`
// once first, or let this script ingest). The real contentRecall(),
// induceFrame() and reinstate() are used throughout; an experiment is a
// setting of reinstate's signals, or a frame / candidate list it adjusts.
//   EXP=base,signals node --import tsx research/explore-both.ts
//   SETS=lme LME=../shared/datasets/longmemeval/longmemeval_s_dev30.json EXP=base ...
//   TRACE=<question id>[,…] EXP=base   prints each variant's top 10 with gold marks
// EXP: base (content-only, bm25, ramem, no-session-context), signals (each signal off), spread, depth,
// sweep (floor × spread × depth), diff (questions where ramem loses to content-only, with their frames),
// sessionpass (a session-level BM25 pass fused with the turn level, content-only and under ramem).
import { prepareBench, type PreparedBench } from "../src/bench/prepare-bench.js";
import { createUseLiteEmbedder } from "../src/providers/use-lite/use-lite-embedder.js";
import { createRuleAnchorer } from "../src/anchoring/rule-anchorer.js";
import { contentRecall, type ContentCandidate } from "../src/retrieval/content-recall.js";
import { induceFrame } from "../src/induction/induce-frame.js";
import { summarizeRetrieval, confusableSubset, distractionMetrics, summarizeLongMemEval, freshFirst, type QuestionRetrieval } from "../src/bench/metrics/index.js";
import type { MemoryUnit } from "../src/model/memory-unit.js";
import { withoutConditions, type RecallFrame } from "../src/model/recall-frame.js";
import { reinstate, type ReinstateSignals } from "../src/retrieval/reinstate.js";
import { deriveValidity, type Validity } from "../src/anchoring/derive-validity.js";

const embedder = await createUseLiteEmbedder();
const SETS = (process.env.SETS ?? "locomo,lme").split(",");
const TRACE = new Set((process.env.TRACE ?? "").split(",").filter(Boolean));

export interface Item {
  set: "locomo" | "lme";
  id: string;
  type: string;
  ns: string;
  q: string;
  questionDate?: string;
  goldTurns: string[];
  goldSessions: string[];
  ranking: ContentCandidate[];
  bm25: string[];
  frame: RecallFrame;
}

const unitById = new Map<string, MemoryUnit>();
const validityByNs = new Map<string, Map<string, Validity>>();
const nextOf = new Map<string, string>();
const items: Item[] = [];
const corpusTurns = new Map<string, string[]>();
const corpusSessions = new Map<string, string[]>();
const sessionStart = new Map<string, string>();

async function load(set: "locomo" | "lme", dataPath: string, format: "locomo" | "longmemeval"): Promise<PreparedBench> {
  const t0 = performance.now();
  const prepared = await prepareBench({
    dataPath, format, cacheDir: ".ramem-cache", embedder, anchorer: createRuleAnchorer(),
    workers: 2, providerNames: { embedder: "use-lite", anchorer: "rule" },
  });
  const store = prepared.memory.store;
  const deps = { store, embedder };
  for (const c of prepared.conversations) {
    const us = await store.listUnits(c.namespace);
    for (const u of us) unitById.set(u.id, u);
    validityByNs.set(c.namespace, deriveValidity(us.filter((u) => (u.context.states?.length ?? 0) > 0 || u.supersession)));
    for (let i = 0; i + 1 < us.length; i++) if (us[i]!.provenance.sessionId === us[i + 1]!.provenance.sessionId) nextOf.set(us[i]!.id, us[i + 1]!.id);
    corpusTurns.set(c.namespace, c.sessions.flatMap((s) => s.turns.map((t) => t.id)));
    corpusSessions.set(c.namespace, c.sessions.map((s) => s.session.id));
    for (const s of c.sessions) sessionStart.set(`${c.namespace}\u0000${s.session.id}`, s.session.startTime);
  }
  for (const q of prepared.questions) {
    if (set === "locomo" && Number(q.category) > 4) continue;
    if (set === "lme" && q.id.includes("_abs")) continue;
    const sessions = prepared.sessionOfTurn.get(q.namespace)!;
    const goldTurns = q.evidence.filter((t) => sessions.has(t));
    if (set === "locomo" && !goldTurns.length) continue;
    const ranking = await contentRecall(deps, q.question, { namespace: q.namespace, pool: 100, queryVector: prepared.queryVectors.get(q.question)! });
    const [history, ss] = await Promise.all([store.historyRange(q.namespace), store.listSessions(q.namespace)]);
    const bm25 = (await contentRecall(deps, q.question, { namespace: q.namespace, pool: 50, fusion: { lexical: 1, dense: 0, rrfK: 10 } })).map((c) => c.unitId);
    const poolUnits = await store.getUnits(q.namespace, ranking.map((c) => c.unitId));
    const frame = await induceFrame(q.question, {
      history,
      knownPeople: [...new Set(ss.flatMap((s) => s.participants))],
      knownRoles: [...new Set(poolUnits.flatMap((u) => (u.context.role ? [u.context.role] : [])))],
      ...(q.questionDate ? { questionDate: q.questionDate } : {}),
      locateEvent: async (phrase) => {
        const [best] = await contentRecall(deps, phrase, { namespace: q.namespace, pool: 5 });
        if (!best) return null;
        const unit = unitById.get(best.unitId)!;
        const s = unit.context.session;
        return { unitId: unit.id, time: unit.context.eventTime ?? { start: s.start, end: s.end > s.start ? s.end : new Date(Date.parse(s.start) + 86_400_000).toISOString(), granularity: "day" } };
      },
    });
    items.push({
      set, id: q.id, type: String(q.category), ns: q.namespace, q: q.question, ...(q.questionDate ? { questionDate: q.questionDate } : {}),
      goldTurns, goldSessions: set === "lme" ? (q.answerSessionIds ?? []) : [...new Set(goldTurns.map((t) => sessions.get(t)!))], ranking, bm25, frame,
    });
  }
  console.error(`${set}: ${items.filter((i) => i.set === set).length} questions, ${prepared.conversations.length} namespaces, loaded in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  return prepared;
}

if (SETS.includes("locomo")) await load("locomo", process.env.LOCOMO ?? "../shared/datasets/locomo/locomo10.json", "locomo");
if (SETS.includes("lme")) await load("lme", process.env.LME ?? "../shared/datasets/longmemeval/longmemeval_s_dev100.json", "longmemeval");

export interface Experiment {
  name: string;
  signals?: Partial<ReinstateSignals>;
  /** Replace the frame (e.g. drop a condition). */
  frame?: (it: Item) => RecallFrame | null;
  /** Rank entirely by hand (e.g. content-only). */
  rank?: (it: Item) => string[];
  sessionContext?: boolean;
}

function ranked(it: Item, e: Experiment): string[] {
  if (e.rank) return e.rank(it);
  const frame = e.frame ? e.frame(it) : it.frame;
  return reinstate(it.ranking, frame, (id) => unitById.get(id), {
    k: 50, query: it.q, contextRanking: true, sessionContext: e.sessionContext ?? true,
    nextUnitOf: (id) => nextOf.get(id), ...(e.signals ? { signals: e.signals } : {}),
    validityOf: (id) => validityByNs.get(it.ns)?.get(id),
  }).map((c) => c.unitId);
}

const locomoItems = items.filter((i) => i.set === "locomo");
const lmeItems = items.filter((i) => i.set === "lme");
const row = (it: Item, ids: string[]): QuestionRetrieval => ({
  questionId: it.id, category: Number(it.type), evidenceTurnIds: it.goldTurns, evidenceSessionIds: it.goldSessions,
  ranked: ids.slice(0, 30).map((id) => ({ unitId: id, sessionId: unitById.get(id)!.provenance.sessionId, turnIds: unitById.get(id)!.provenance.turnIds })),
});
const subset = locomoItems.length ? confusableSubset(locomoItems.map((it) => row(it, it.ranking.map((c) => c.unitId))), 20) : [];
const unique = (xs: string[]) => [...new Set(xs)];
const TYPES_SHORT: Record<string, string> = {
  "knowledge-update": "KU", "multi-session": "MS", "single-session-assistant": "SSA", "single-session-preference": "SSP", "single-session-user": "SSU", "temporal-reasoning": "TR",
};

let baseCells: Record<string, number> | null = null;

/** Prints one line; the first LongMemEval report (content-only in EXP=base) is the baseline the losses are counted against. */
export function report(e: Experiment): void {
  const parts: string[] = [e.name.padEnd(30)];
  if (locomoItems.length) {
    const rows = locomoItems.map((it) => row(it, ranked(it, e)));
    const s = summarizeRetrieval(rows, [10]);
    const d = distractionMetrics(rows, subset, 20);
    parts.push(`LoCoMo R@10 ${s.overall[10]!.recall.toFixed(4)} D@1 ${d.dAt1.toFixed(3)} [${[1, 2, 3, 4].map((c) => s.perCategory[c]?.[10]?.recall.toFixed(3)).join(" ")}]`);
  }
  if (lmeItems.length) {
    const ranks = lmeItems.map((it) => ranked(it, e));
    const sess = summarizeLongMemEval(lmeItems.map((it, i) => ({ questionId: it.id, questionType: it.type, rankedIds: unique(ranks[i]!.map((id) => unitById.get(id)!.provenance.sessionId)), answerIds: it.goldSessions, corpusIds: corpusSessions.get(it.ns)! })), [5, 10]);
    const turn = summarizeLongMemEval(lmeItems.map((it, i) => ({ questionId: it.id, questionType: it.type, rankedIds: unique(ranks[i]!.flatMap((id) => unitById.get(id)!.provenance.turnIds)), answerIds: it.goldTurns, corpusIds: corpusTurns.get(it.ns)! })), [1, 5, 10]);
    const types = Object.keys(turn.perType).sort();
    const cells: Record<string, number> = {};
    for (const t of types) for (const k of [5, 10]) { cells[`${TYPES_SHORT[t]} s@${k}`] = sess.perType[t]![k]!.recallAll; cells[`${TYPES_SHORT[t]} t@${k}`] = turn.perType[t]![k]!.recallAll; }
    if (!baseCells) baseCells = cells;
    const losses = Object.entries(cells).filter(([key, v]) => v < baseCells![key]! - 1e-9).map(([key, v]) => `${key} ${(v - baseCells![key]!).toFixed(2)}`);
    parts.push(`| LME s@5 ${sess.overall[5]!.recallAll.toFixed(3)} s@10 ${sess.overall[10]!.recallAll.toFixed(3)} t@5 ${turn.overall[5]!.recallAll.toFixed(3)} t@10 ${turn.overall[10]!.recallAll.toFixed(3)}`);
    const ku = lmeItems.map((it, i) => [it, ranks[i]!] as const).filter(([it]) => it.type === "knowledge-update");
    const ff = freshFirst(ku.map(([it, r]) => ({ rankedSessions: unique(r.map((id) => unitById.get(id)!.provenance.sessionId)), answerSessions: it.goldSessions.map((id) => ({ id, date: sessionStart.get(`${it.ns}\u0000${id}`) ?? "" })) })));
    parts.push(`ff ${ff.freshFirst.toFixed(2)}`);
    parts.push(`| losses: ${losses.length ? losses.join(", ") : "none"}`);
    parts.push(`| t@10 ${types.map((t) => `${TYPES_SHORT[t] ?? t} ${turn.perType[t]![10]!.recallAll.toFixed(2)}`).join(" ")} | s@5 ${types.map((t) => `${TYPES_SHORT[t] ?? t} ${sess.perType[t]![5]!.recallAll.toFixed(2)}`).join(" ")}`);
  }
  console.log(parts.join(" "));
  for (const it of items.filter((i) => TRACE.has(i.id))) trace(it, e);
}

function trace(it: Item, e: Experiment): void {
  const all = ranked(it, e);
  const sessionOrder = unique(all.map((id) => unitById.get(id)!.provenance.sessionId)).slice(0, 8);
  console.log(`  sessions: ${sessionOrder.map((s) => `${it.goldSessions.includes(s) ? "*" : ""}${s.slice(-14)}@${all.findIndex((id) => unitById.get(id)!.provenance.sessionId === s) + 1}`).join(" ")}`);
  const ids = all.slice(0, 10);
  console.log(`  ${it.id} [${it.type}] ${it.q}${it.questionDate ? ` (asked ${it.questionDate.slice(0, 10)})` : ""} frame: ${JSON.stringify({ active: it.frame.active, time: it.frame.time && `${it.frame.time.relation} ${it.frame.time.window.start.slice(0, 10)}..${it.frame.time.window.end.slice(0, 10)} (${it.frame.time.confidence})`, who: it.frame.participants?.names, asks: it.frame.asksFor })}`);
  console.log(`    gold sessions ${it.goldSessions.join(" ")} turns ${it.goldTurns.join(" ")}`);
  for (const [i, id] of ids.entries()) {
    const u = unitById.get(id)!;
    const gold = u.provenance.turnIds.some((t) => it.goldTurns.includes(t)) ? "G" : it.goldSessions.includes(u.provenance.sessionId) ? "s" : " ";
    console.log(`    ${String(i + 1).padStart(2)} ${gold} ${u.provenance.turnIds.join(",").padEnd(22)} ${u.context.session.start.slice(0, 10)} ${u.content.slice(0, 110).replace(/\s+/g, " ")}`);
  }
}

const exps = (process.env.EXP ?? "base").split(",");
const contentOnly: Experiment = { name: "content-only", rank: (it) => it.ranking.map((c) => c.unitId) };
if (exps.includes("base")) {
  report(contentOnly);
  report({ name: "bm25", rank: (it) => it.bm25 });
  report({ name: "ramem (pipeline defaults)" });
  report({ name: "no-session-context", sessionContext: false });
}
if (exps.includes("signals")) {
  report({ name: "- question penalty", signals: { questionPenalty: 0 } });
  report({ name: "- answer lift", signals: { answerLift: 0 } });
  report({ name: "- penalty and lift", signals: { questionPenalty: 0, answerLift: 0 } });
  report({ name: "- time bonus", signals: { timeAnswerBonus: 0 } });
  report({ name: "- episode support", signals: { episodeSupport: 0 } });
  report({ name: "- coverage", signals: { coverageWeight: 0 } });
  report({ name: "- episode support & coverage", signals: { episodeSupport: 0, coverageWeight: 0 } });
  report({ name: "- C_ctx first", signals: { contextFirst: false } });
  report({ name: "- participant condition", frame: (it) => withoutConditions(it.frame, ["participants"]) });
  report({ name: "- time condition", frame: (it) => withoutConditions(it.frame, ["time"]) });
  report({ name: "- role condition", frame: (it) => withoutConditions(it.frame, ["role"]) });
  report({ name: "- role-aware dialogue", signals: { roleAwareDialogue: false } });
  report({ name: "- fine times only", signals: { fineTimesOnly: false } });
  report({ name: "- persons lend support", signals: { personsLendSupport: false } });
  report({ name: "- spread", signals: { episodeSpread: 0 } });
  report({ name: "- successor lift / stale last", signals: { successorLift: 0 } });
  report({ name: "- validity times", signals: { validityTimes: false } });
  report({ name: "- context depth (whole pool)", signals: { contextDepth: 0 } });
  report({ name: "support floor 0.5 (LoCoMo-era)", signals: { supportFloor: 0.5 } });
  report({ name: "first-round ramem (LoCoMo-era)", signals: { supportFloor: 0.5, personsLendSupport: false, episodeSpread: 0, contextDepth: 0, roleAwareDialogue: false, fineTimesOnly: false }, frame: (it) => withoutConditions(it.frame, ["role"]) });
  report({ name: "- every signal (frame kept)", signals: { questionPenalty: 0, answerLift: 0, timeAnswerBonus: 0, episodeSupport: 0, coverageWeight: 0 } });
}

if (exps.includes("spread")) {
  for (const spread of [0.005, 0.01, 0.02, 0.05]) report({ name: `spread ${spread}`, signals: { episodeSpread: spread } });
}
if (exps.includes("diff")) {
  // Questions where A loses to content-only at session@5 or turn@10, with both traces.
  const A: Experiment = { name: "ramem" };
  const worst = (ids: string[], gold: string[], of: (id: string) => string[]) => { const r = unique(ids.flatMap(of)); return Math.max(...gold.map((g) => (r.indexOf(g) + 1) || 999)); };
  for (const it of lmeItems) {
    const a = ranked(it, A), c = it.ranking.map((x) => x.unitId);
    const sess = (id: string) => [unitById.get(id)!.provenance.sessionId], turns = (id: string) => unitById.get(id)!.provenance.turnIds;
    const [as, cs, at, ct] = [worst(a, it.goldSessions, sess), worst(c, it.goldSessions, sess), worst(a, it.goldTurns, turns), worst(c, it.goldTurns, turns)];
    if ((as > 5 && cs <= 5) || (at > 10 && ct <= 10) || (as > 10 && cs <= 10) || (at > 5 && ct <= 5)) {
      console.log(`${it.id} [${it.type}] sessions A ${as} co ${cs} | turns A ${at} co ${ct} | ${it.q.slice(0, 90)}`);
      console.log(`   frame ${JSON.stringify({ time: it.frame.time && [it.frame.time.relation, it.frame.time.window.start.slice(0, 10), it.frame.time.window.end.slice(0, 10), it.frame.time.confidence], role: it.frame.role?.role, agg: it.frame.aggregates?.evidence, asks: it.frame.asksFor })}`);
    }
  }
}
if (exps.includes("depth")) {
  for (const d of [0, 10, 15, 20, 25, 30, 50]) report({ name: `ctx depth ${d}`, signals: { contextDepth: d } });
}
if (exps.includes("sweep")) {
  for (const floor of [0, 0.25, 0.5]) for (const spread of [0.01, 0.02, 0.03]) for (const depth of [15, 20, 25])
    report({ name: `floor ${floor} spread ${spread} depth ${depth}`, signals: { supportFloor: floor, episodeSpread: spread, contextDepth: depth } });
}
if (exps.includes("sessionpass")) {
  // A session-level pass fused with the turn level: each session one BM25 document (its units' words), the
  // session's rank added to every candidate of it as one more RRF term, then reinstate as usual.
  const { stemmedTerms } = await import("../src/language/stemmed-terms.js");
  const docs = new Map<string, Map<string, { tf: Map<string, number>; len: number }>>();
  for (const u of unitById.values()) {
    const byNs = docs.get(u.namespace) ?? docs.set(u.namespace, new Map()).get(u.namespace)!;
    const doc = byNs.get(u.provenance.sessionId) ?? byNs.set(u.provenance.sessionId, { tf: new Map(), len: 0 }).get(u.provenance.sessionId)!;
    for (const t of stemmedTerms(u.content)) { doc.tf.set(t, (doc.tf.get(t) ?? 0) + 1); doc.len++; }
  }
  const sessionRanks = (it: Item): Map<string, number> => {
    const byNs = docs.get(it.ns)!;
    const n = byNs.size;
    const avg = [...byNs.values()].reduce((a, d) => a + d.len, 0) / n;
    const terms = [...stemmedTerms(it.frame.need || it.q)];
    const df = new Map(terms.map((t) => [t, [...byNs.values()].filter((d) => d.tf.has(t)).length]));
    const scored = [...byNs.entries()].map(([id, d]) => [id, terms.reduce((s, t) => { const f = d.tf.get(t) ?? 0; if (!f) return s; const idf = Math.log(1 + (n - df.get(t)! + 0.5) / (df.get(t)! + 0.5)); return s + idf * (f * 2.2) / (f + 1.2 * (0.25 + 0.75 * d.len / avg)); }, 0)] as const).filter(([, s]) => s > 0).sort((a, b) => b[1] - a[1]);
    return new Map(scored.map(([id], i) => [id, i + 1]));
  };
  const ranksOf = new Map(items.map((it) => [it.id, sessionRanks(it)]));
  for (const weight of [0.25, 0.5, 1]) {
    const withSessions = (it: Item): ContentCandidate[] => {
      const ranks = ranksOf.get(it.id)!;
      const rrf = (id: string) => { const r = ranks.get(unitById.get(id)!.provenance.sessionId); return r ? weight / (10 + r) : 0; };
      return it.ranking.map((c) => ({ ...c, score: c.score + rrf(c.unitId) })).sort((a, b) => b.score - a.score);
    };
    report({ name: `session pass ${weight} (content)`, rank: (it) => withSessions(it).map((c) => c.unitId) });
    report({ name: `session pass ${weight} (ramem)`, rank: (it) => ranked({ ...it, ranking: withSessions(it) }, { name: "ramem" }) });
  }
}
