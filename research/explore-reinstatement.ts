// The experiments behind docs/experiments.md › RaMem targets: re-ranking rules
// tried on the cached LoCoMo store without re-ingesting, scored with the
// harness's own metrics and confusable subset. Run `ramem bench locomo` once
// first; EXP picks experiments (base, depth, cued, need, gated, nocf, time,
// you, nb, fusion, m, cov, covonly, self, others-dn, final, whole, nextcue,
// densesup, show, showd1, d1cat); POOL sets the candidates per channel (default 100).
//   EXP=base,final node --import tsx research/explore-reinstatement.ts \
//     .ramem-cache/<store>.db ../shared/datasets/locomo/locomo10.json [/tmp/cued-vectors.json]
// (the third argument comes from research/embed-cued.ts; needed by EXP=cued only)
import { readFileSync } from "node:fs";
import { openSqliteStore } from "../src/store/sqlite/sqlite-store.js";
import { createUseLiteEmbedder } from "../src/providers/use-lite/use-lite-embedder.js";
import { readConversationFile } from "../src/formats/conversation-file.js";
import { embedWithCache } from "../src/bench/vector-cache.js";
import { lexicalTerms } from "../src/language/text.js";
import { induceFrame } from "../src/induction/induce-frame.js";
import { matchContext } from "../src/retrieval/context-match.js";
import { contentRecall } from "../src/retrieval/content-recall.js";
import { summarizeRetrieval, confusableSubset, distractionMetrics, type QuestionRetrieval } from "../src/bench/metrics/index.js";
import type { MemoryUnit } from "../src/model/memory-unit.js";

const [dbPath, dataPath, cuedPath] = process.argv.slice(2);
const store = await openSqliteStore(dbPath!, { readonly: true });
const embedder = await createUseLiteEmbedder();
const { conversations } = await readConversationFile(dataPath!, { format: "locomo" });
const sessionOfTurn = new Map<string, string>();
for (const c of conversations) for (const s of c.sessions) for (const t of s.turns) sessionOfTurn.set(c.namespace + "|" + t.id, s.session.id);
const questions = conversations.flatMap((c) => c.questions ?? []).filter((q) => Number(q.category) <= 4 && q.evidence.length);
const vectors = await embedWithCache(embedder, dbPath!.replace(/\.db$/, ".queries.json"), questions.map((q) => q.question));
const cuedRaw = cuedPath ? (JSON.parse(readFileSync(cuedPath, "utf8")) as Record<string, string>) : {};
const cued = new Map(Object.entries(cuedRaw).map(([id, b]) => { const buf = Buffer.from(b, "base64"); return [id, new Float32Array(buf.buffer, buf.byteOffset, buf.byteLength / 4)]; }));
const unitsOf = new Map<string, MemoryUnit[]>();
const unitById = new Map<string, MemoryUnit>();
for (const c of conversations) { const us = await store.listUnits(c.namespace); unitsOf.set(c.namespace, us); for (const u of us) unitById.set(u.id, u); }
const POOL = Number(process.env.POOL ?? 100);
type Item = { names: Set<string>; ctxOkYou: Set<string>; timeActive: boolean; ctxOkNoTime: Set<string>; timeKind: string; lexS: Map<string, number>; lexN: Map<string, number>; denN: Map<string, number>; id: string; cat: number; ev: string[]; evS: string[]; lex: Map<string, number>; den: Map<string, number>; cden: Map<string, number>; ctxOk: Set<string> };
const items: Item[] = [];
for (const q of questions) {
  const ev = q.evidence.filter((t) => sessionOfTurn.has(q.namespace + "|" + t));
  if (!ev.length) continue;
  const v = vectors.get(q.question)!;
  const lexHits = await store.searchLexical(q.namespace, lexicalTerms(q.question), POOL);
  const lex = new Map(lexHits.map((h) => [h.id, h.rank]));
  const lexS = new Map(lexHits.map((h) => [h.id, h.score / (lexHits[0]?.score ?? 1)]));
  const den = new Map((await store.searchDense(q.namespace, v, POOL)).map((h) => [h.id, h.rank]));
  const cden = new Map<string, number>();
  if (cued.size) {
    const sims = unitsOf.get(q.namespace)!.map((u) => { const w = cued.get(u.id)!; let d = 0; for (let i = 0; i < v.length; i++) d += v[i]! * w[i]!; return [u.id, d] as const; });
    sims.sort((a, b) => b[1] - a[1]).slice(0, POOL).forEach(([id], i) => cden.set(id, i + 1));
  }
  const sessions = await store.listSessions(q.namespace);
  const frame = await induceFrame(q.question, { history: await store.historyRange(q.namespace), knownPeople: [...new Set(sessions.flatMap((s) => s.participants))], ...(q.questionDate ? { questionDate: q.questionDate } : {}), locateEvent: async (phrase) => {
      const [best] = await contentRecall({ store, embedder }, phrase, { namespace: q.namespace, pool: 5 });
      if (!best) return null;
      const u = unitById.get(best.unitId)!; const ss = u.context.session;
      return { unitId: u.id, time: u.context.eventTime ?? { start: ss.start, end: ss.end > ss.start ? ss.end : new Date(Date.parse(ss.start) + 86_400_000).toISOString(), granularity: "day" } };
    } });
  const timeActive = frame.time !== null && frame.time.confidence >= 0.7;
  const ctxOkNoTime = new Set<string>();
  const ft = { ...frame, time: null };
  const ftActive = !!(ft.participants && ft.participants.confidence >= 0.7) || !!(ft.location && ft.location.confidence >= 0.7) || !!(ft.entities && ft.entities.confidence >= 0.7);
  if (ftActive) for (const u of unitsOf.get(q.namespace)!) if (matchContext(u.context, ft, { sessionContext: true }).ok) ctxOkNoTime.add(u.id);
  const lexN = frame.active ? new Map((await store.searchLexical(q.namespace, lexicalTerms(frame.need), POOL)).map((h) => [h.id, h.rank])) : lex;
  const denN = frame.active && frame.need !== q.question ? new Map((await store.searchDense(q.namespace, (await embedder.embed([frame.need]))[0]!, POOL)).map((h) => [h.id, h.rank])) : den;
  const ctxOk = new Set<string>();
  if (frame.active) for (const u of unitsOf.get(q.namespace)!) if (matchContext(u.context, frame, { sessionContext: true }).ok) ctxOk.add(u.id);
  const ctxOkYou = new Set(ctxOk);
  if (frame.active && frame.participants && frame.participants.confidence >= 0.7) {
    const names = frame.participants.names.map((n) => n.toLowerCase());
    const fy = { ...frame, participants: null };
    const otherActive = !!(fy.time && fy.time.confidence >= 0.7) || !!(fy.location && fy.location.confidence >= 0.7) || !!(fy.entities && fy.entities.confidence >= 0.7);
    for (const u of unitsOf.get(q.namespace)!) {
      if (ctxOk.has(u.id)) continue;
      const addressee = u.context.participants.length === 2 ? u.context.participants[1]!.toLowerCase() : "";
      if (names.includes(addressee) && /\byou(r|rs|rself)?\b/i.test(u.content) && (!otherActive || matchContext(u.context, fy, { sessionContext: true }).ok)) ctxOkYou.add(u.id);
    }
  }
  items.push({ names: new Set(frame.active && frame.participants && frame.participants.confidence >= 0.7 ? frame.participants.names.flatMap((n) => lexicalTerms(n)).map((t) => stemmer(t)) : []), ctxOkYou, timeActive, ctxOkNoTime, timeKind: timeActive ? (frame.time!.anchorUnitId ? 'event-' : 'date-') + frame.time!.relation : '', lexS, lexN, denN, id: q.id, cat: Number(q.category), ev, evS: ev.map((t) => sessionOfTurn.get(q.namespace + "|" + t)!), lex, den, cden, ctxOk });
}
const row = (it: Item, ids: string[]): QuestionRetrieval => ({
  questionId: it.id, category: it.cat, evidenceTurnIds: it.ev, evidenceSessionIds: it.evS,
  ranked: ids.slice(0, 30).map((id) => ({ unitId: id, sessionId: unitById.get(id)!.provenance.sessionId, turnIds: unitById.get(id)!.provenance.turnIds })),
});
type Fusion = { wl: number; wd: number; wc: number; k: number; need?: number };
function fuse(it: Item, f: Fusion): Array<[string, number]> {
  const s = new Map<string, number>();
  const add = (m: Map<string, number>, w: number) => { if (w > 0) for (const [id, r] of m) s.set(id, (s.get(id) ?? 0) + w / (f.k + r)); };
  add(f.need ? it.lexN : it.lex, f.wl); add(f.need === 2 ? it.denN : it.den, f.wd); add(it.cden, f.wc);
  return [...s].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, POOL);
}
function episode(ranked: Array<[string, number]>, m: number, D: number, cap: number): Array<[string, number]> {
  const by = new Map<string, Array<[string, number]>>();
  for (const x of ranked.slice(0, D)) { const s = unitById.get(x[0])!.provenance.sessionId; by.set(s, [...(by.get(s) ?? []), x]); }
  return ranked.map(([id, sc]) => {
    const others = (by.get(unitById.get(id)!.provenance.sessionId) ?? []).filter((o) => o[0] !== id).slice(0, m);
    const sup = others.reduce((a, o) => a + o[1], 0) / m;
    return [id, sc + Math.min(sup, cap * sc)] as [string, number];
  }).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}
const ctxFirst = (it: Item, r: Array<[string, number]>) => [...r.filter((x) => it.ctxOk.has(x[0])), ...r.filter((x) => !it.ctxOk.has(x[0]))].map((x) => x[0]);
const base: Fusion = { wl: 1, wd: 0.5, wc: 0, k: 10 };
const subset = confusableSubset(items.map((it) => row(it, fuse(it, base).map((x) => x[0]))), 20);
function report(name: string, f: (it: Item) => string[]) {
  const rows = items.map((it) => row(it, f(it)));
  const s = summarizeRetrieval(rows, [10, 20]);
  const d = distractionMetrics(rows, subset, 20);
  console.log(name.padEnd(44), "R@10", s.overall[10]!.recall.toFixed(3), "R@20", s.overall[20]!.recall.toFixed(3), "D@1", d.dAt1.toFixed(3), "gap", d.meanRankGap.toFixed(2));
}
const exps = (process.env.EXP ?? "base").split(",");
if (exps.includes("base")) {
  report("content", (it) => fuse(it, base).map((x) => x[0]));
  report("content+ctxfirst", (it) => ctxFirst(it, fuse(it, base)));
  report("episode m3 D100", (it) => ctxFirst(it, episode(fuse(it, base), 3, 100, 1e9)));
}
if (exps.includes("depth")) for (const D of [10, 20, 30, 50]) for (const cap of [0.5, 1, 1e9]) report(`episode D=${D} cap=${cap}`, (it) => ctxFirst(it, episode(fuse(it, base), 3, D, cap)));
if (exps.includes("cued")) for (const f of [{ wl: 1, wd: 0, wc: 0.5, k: 10 }, { wl: 1, wd: 0.25, wc: 0.5, k: 10 }, { wl: 1, wd: 0.5, wc: 0.5, k: 10 }, { wl: 1, wd: 0, wc: 0.75, k: 10 }, { wl: 1, wd: 0, wc: 1, k: 10 }, { wl: 0, wd: 0, wc: 1, k: 10 }, { wl: 0, wd: 1, wc: 0, k: 10 }]) {
  report(`content ${JSON.stringify(f)}`, (it) => fuse(it, f).map((x) => x[0]));
  report(`  +episode`, (it) => ctxFirst(it, episode(fuse(it, f), 3, 100, 1e9)));
}
if (exps.includes("show")) {
  const qs = new Map(questions.map((q) => [q.id, q]));
  let shown = 0;
  for (const it of items) {
    if (shown >= 14 || Math.random() > 0.08) continue;
    const top = ctxFirst(it, episode(fuse(it, base), 3, 100, 1e9)).slice(0, 10);
    const covered = new Set(top.flatMap((id) => unitById.get(id)!.provenance.turnIds));
    const miss = it.ev.filter((t) => !covered.has(t));
    if (!miss.length) continue;
    shown++;
    const q = qs.get(it.id)!;
    const ns = q.namespace;
    console.log(`\nQ[${it.cat}] ${q.question}  => ${q.answer}`);
    for (const t of miss) { const u = unitsOf.get(ns)!.find((x) => x.provenance.turnIds[0] === t); console.log(`  MISS ${t} lex#${u && it.lex.get(u.id)} den#${u && it.den.get(u.id)}: ${u?.content.slice(0, 160)}`); }
    for (const id of top.slice(0, 3)) console.log(`  got ${unitById.get(id)!.provenance.turnIds[0]}: ${unitById.get(id)!.content.slice(0, 120)}`);
  }
}

if (exps.includes("need")) for (const need of [1, 2]) {
  const f = { ...base, need };
  report(`need=${need} content`, (it) => fuse(it, f).map((x) => x[0]));
  report(`need=${need} +ctxfirst`, (it) => ctxFirst(it, fuse(it, f)));
  report(`need=${need} +episode`, (it) => ctxFirst(it, episode(fuse(it, f), 3, 100, 1e9)));
}

function episodeGated(it: Item, ranked: Array<[string, number]>, m: number, r: number): Array<[string, number]> {
  const by = new Map<string, Array<[string, number]>>();
  for (const x of ranked) if ((it.lexS.get(x[0]) ?? 0) >= r) { const s = unitById.get(x[0])!.provenance.sessionId; by.set(s, [...(by.get(s) ?? []), x]); }
  return ranked.map(([id, sc]) => {
    const others = (by.get(unitById.get(id)!.provenance.sessionId) ?? []).filter((o) => o[0] !== id).slice(0, m);
    return [id, sc + others.reduce((a, o) => a + o[1], 0) / m] as [string, number];
  }).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}
if (exps.includes("gated")) for (const r of [0.2, 0.35, 0.5, 0.65]) report(`gated r=${r}`, (it) => ctxFirst(it, episodeGated(it, fuse(it, base), 3, r)));

if (exps.includes("nocf")) {
  const gatedOnly = (it: Item) => episodeGated(it, fuse(it, base), 3, 0.5);
  report("gated, no ctx-first", (it) => gatedOnly(it).map((x) => x[0]));
  report("gated, ctx-first", (it) => ctxFirst(it, gatedOnly(it)));
  // soft: context-valid units get a bonus instead of a partition
  for (const b of [0.02, 0.05]) report(`gated, ctx bonus ${b}`, (it) => gatedOnly(it).map(([id, sc]) => [id, sc + (it.ctxOk.has(id) ? b : 0)] as [string, number]).sort((a, b2) => b2[1] - a[1]).map((x) => x[0]));
}

if (exps.includes("time")) {
  const kinds = new Map<string, number>(); for (const it of items) if (it.timeActive) kinds.set(it.timeKind, (kinds.get(it.timeKind) ?? 0) + 1);
  console.log("time-active frames:", Object.fromEntries(kinds));
  const gatedOnly = (it: Item) => episodeGated(it, fuse(it, base), 3, 0.5);
  report("gated, ctx-first (with time)", (it) => ctxFirst(it, gatedOnly(it)));
  report("gated, ctx-first (no time cond)", (it) => ctxFirst({ ...it, ctxOk: it.ctxOkNoTime }, gatedOnly(it)));
  for (const kind of kinds.keys()) report(`  drop only ${kind}`, (it) => ctxFirst(it.timeKind === kind ? { ...it, ctxOk: it.ctxOkNoTime } : it, gatedOnly(it)));
}

if (exps.includes("you")) {
  const gatedOnly = (it: Item) => episodeGated(it, fuse(it, base), 3, 0.5);
  report("gated, ctx-first", (it) => ctxFirst(it, gatedOnly(it)));
  report("gated, ctx-first + addressee", (it) => ctxFirst({ ...it, ctxOk: it.ctxOkYou }, gatedOnly(it)));
}
function neighbour(ranked: Array<[string, number]>, w: number): Array<[string, number]> {
  const score = new Map(ranked);
  const key = (id: string) => { const u = unitById.get(id)!; return [u.provenance.sessionId, num(u.provenance.turnIds[0]!)] as const; };
  const byPos = new Map(ranked.map(([id, sc]) => { const [s, n] = key(id); return [s + "|" + n, sc]; }));
  return ranked.map(([id, sc]) => { const [s, n] = key(id); return [id, sc + w * Math.max(byPos.get(s + "|" + (n - 1)) ?? 0, byPos.get(s + "|" + (n + 1)) ?? 0)] as [string, number]; }).sort((a, b) => b[1] - a[1]);
}
const num = (t: string) => Number(/(\d+)$/.exec(t)![1]);
if (exps.includes("nb")) for (const w of [0.1, 0.2, 0.3]) {
  report(`gated+nb ${w}`, (it) => ctxFirst(it, neighbour(episodeGated(it, fuse(it, base), 3, 0.5), w)));
}
if (exps.includes("fusion")) for (const f of [{ wl: 1, wd: 0.3, wc: 0, k: 10 }, { wl: 1, wd: 0.7, wc: 0, k: 10 }, { wl: 1, wd: 0.5, wc: 0, k: 20 }, { wl: 1, wd: 0.5, wc: 0, k: 5 }, { wl: 1, wd: 0.5, wc: 0, k: 60 }]) {
  report(`content ${JSON.stringify(f)}`, (it) => fuse(it, f).map((x) => x[0]));
  report(`  +gated ctx-first`, (it) => ctxFirst(it, episodeGated(it, fuse(it, f), 3, 0.5)));
}
if (exps.includes("m")) for (const m of [2, 4, 5]) for (const r of [0.4, 0.5]) report(`gated m=${m} r=${r}`, (it) => ctxFirst(it, episodeGated(it, fuse(it, base), m, r)));
import { stemmer } from "stemmer";
const stemsOf = new Map<string, Set<string>>();
const stems = (text: string) => new Set(lexicalTerms(text).map((t) => stemmer(t)));
for (const u of unitById.values()) stemsOf.set(u.id, stems(u.content + " " + u.cue));
const qStems = new Map(questions.map((q) => [q.id, stems(q.question)]));
function coverage(it: Item, ranked: Array<[string, number]>, w: number, D: number): Array<[string, number]> {
  const qs = qStems.get(it.id)!;
  const cov = new Map<string, Set<string>>();
  for (const [id] of ranked.slice(0, D)) { const s = unitById.get(id)!.provenance.sessionId; const set = cov.get(s) ?? new Set(); for (const t of stemsOf.get(id)!) if (qs.has(t)) set.add(t); cov.set(s, set); }
  return ranked.map(([id, sc]) => [id, sc + w * ((cov.get(unitById.get(id)!.provenance.sessionId)?.size ?? 0) / Math.max(1, qs.size))] as [string, number]).sort((a, b) => b[1] - a[1]);
}
if (exps.includes("cov")) for (const w of [0.15, 0.2, 0.3]) for (const D of [100]) {
  report(`gated + coverage w=${w} D=${D}`, (it) => ctxFirst(it, coverage(it, episodeGated(it, fuse(it, base), 3, 0.5), w, D)));
}
if (exps.includes("covonly")) for (const w of [0.1, 0.2]) report(`coverage only (no support) w=${w}`, (it) => ctxFirst(it, coverage(it, fuse(it, base), w, 100)));
function episodeSelf(it: Item, ranked: Array<[string, number]>, m: number, r: number, w: number, dropNames: boolean): Array<[string, number]> {
  const by = new Map<string, number[]>();
  for (const x of ranked) if ((it.lexS.get(x[0]) ?? 0) >= r) { const s = unitById.get(x[0])!.provenance.sessionId; by.set(s, [...(by.get(s) ?? []), x[1]]); }
  let qs = qStems.get(it.id)!;
  if (dropNames) qs = new Set([...qs].filter((t) => !it.names.has(t)));
  const cov = new Map<string, Set<string>>();
  for (const [id] of ranked) { const s = unitById.get(id)!.provenance.sessionId; const set = cov.get(s) ?? new Set(); for (const t of stemsOf.get(id)!) if (qs.has(t)) set.add(t); cov.set(s, set); }
  return ranked.map(([id, sc]) => { const s = unitById.get(id)!.provenance.sessionId; const sup = (by.get(s) ?? []).slice(0, m).reduce((a, b) => a + b, 0) / m; return [id, sc + sup + w * ((cov.get(s)?.size ?? 0) / Math.max(1, qs.size))] as [string, number]; }).sort((a, b) => b[1] - a[1]);
}
if (exps.includes("self")) for (const w of [0.05, 0.15, 0.2, 0.3]) for (const dn of [true]) for (const m of [2, 3]) {
  report(`self m=${m} w=${w} dropNames=${dn}`, (it) => ctxFirst(it, episodeSelf(it, fuse(it, base), m, 0.5, w, dn)));
}
if (exps.includes("others-dn")) report(`others + cov dropNames`, (it) => ctxFirst(it, coverageDn(it, episodeGated(it, fuse(it, base), 3, 0.5), 0.1)));
function coverageDn(it: Item, ranked: Array<[string, number]>, w: number): Array<[string, number]> {
  const qs = new Set([...qStems.get(it.id)!].filter((t) => !it.names.has(t)));
  const cov = new Map<string, Set<string>>();
  for (const [id] of ranked) { const s = unitById.get(id)!.provenance.sessionId; const set = cov.get(s) ?? new Set(); for (const t of stemsOf.get(id)!) if (qs.has(t)) set.add(t); cov.set(s, set); }
  return ranked.map(([id, sc]) => [id, sc + w * ((cov.get(unitById.get(id)!.provenance.sessionId)?.size ?? 0) / Math.max(1, qs.size))] as [string, number]).sort((a, b) => b[1] - a[1]);
}
if (exps.includes("final")) {
  const f = (it: Item) => episodeSelf(it, fuse(it, base), 3, 0.5, 0.1, true);
  report("final: ctx-first", (it) => ctxFirst(it, f(it)));
  report("final: no ctx-first", (it) => f(it).map((x) => x[0]));
  report("final: ctx-first time only", (it) => ctxFirst({ ...it, ctxOk: it.timeActive ? it.ctxOk : new Set() }, f(it)));
  report("final: ctx-first + addressee", (it) => ctxFirst({ ...it, ctxOk: it.ctxOkYou }, f(it)));
}
const sessionStems = new Map<string, Set<string>>();
for (const u of unitById.values()) { const k = u.namespace + "|" + u.provenance.sessionId; const s = sessionStems.get(k) ?? new Set(); for (const t of stemsOf.get(u.id)!) s.add(t); sessionStems.set(k, s); }
function episodeWhole(it: Item, ranked: Array<[string, number]>, w: number): Array<[string, number]> {
  const by = new Map<string, number[]>();
  for (const x of ranked) if ((it.lexS.get(x[0]) ?? 0) >= 0.5) { const s = unitById.get(x[0])!.provenance.sessionId; by.set(s, [...(by.get(s) ?? []), x[1]]); }
  const qs = new Set([...qStems.get(it.id)!].filter((t) => !it.names.has(t)));
  return ranked.map(([id, sc]) => { const u = unitById.get(id)!; const s = u.provenance.sessionId; const all = sessionStems.get(u.namespace + "|" + s)!; const cov = [...qs].filter((t) => all.has(t)).length; const sup = (by.get(s) ?? []).slice(0, 3).reduce((a, b) => a + b, 0) / 3; return [id, sc + sup + w * cov / Math.max(1, qs.size)] as [string, number]; }).sort((a, b) => b[1] - a[1]);
}
if (exps.includes("whole")) for (const w of [0.05, 0.1, 0.2]) report(`whole-session coverage w=${w}`, (it) => ctxFirst(it, episodeWhole(it, fuse(it, base), w)));
if (exps.includes("nextcue")) {
  const { default: Database } = await import("better-sqlite3");
  const db = new Database(":memory:");
  db.exec("CREATE VIRTUAL TABLE f USING fts5(content, cprev, cnext, ns UNINDEXED, uid UNINDEXED, tokenize = 'porter unicode61')");
  const ins = db.prepare("INSERT INTO f (content, cprev, cnext, ns, uid) VALUES (?, ?, ?, ?, ?)");
  for (const [ns, us] of unitsOf) {
    const bySess = new Map<string, MemoryUnit[]>();
    for (const u of us) bySess.set(u.provenance.sessionId, [...(bySess.get(u.provenance.sessionId) ?? []), u]);
    for (const list of bySess.values()) {
      list.sort((a, b) => num(a.provenance.turnIds[0]!) - num(b.provenance.turnIds[0]!));
      list.forEach((u, i) => { const nx = list[i + 1]; ins.run(u.content, u.cue, nx ? nx.content.split(/\s+/).slice(0, 40).join(" ") : "", ns, u.id); });
    }
  }
  const qs2 = new Map(questions.map((q) => [q.id, q]));
  for (const [wp, wn] of [[0.5, 0], [0.5, 0.25], [0.5, 0.5], [0.25, 0.25]] as const) {
    const st = db.prepare(`SELECT uid, bm25(f, 1.0, ${wp}, ${wn}, 0, 0) AS b FROM f WHERE f MATCH ? AND ns = ? ORDER BY b LIMIT 100`);
    const alt = items.map((it) => {
      const q = qs2.get(it.id)!;
      const terms = lexicalTerms(q.question).map((t) => `"${t.replaceAll('"', '""')}"`).join(" OR ");
      const rows = terms ? (st.all(terms, q.namespace) as Array<{ uid: string; b: number }>) : [];
      return { ...it, lex: new Map(rows.map((r, i) => [r.uid, i + 1])), lexS: new Map(rows.map((r) => [r.uid, r.b / (rows[0]?.b ?? 1)])) };
    });
    const rows = (f: (it: Item) => string[]) => alt.map((it) => row(it, f(it)));
    for (const [name, f] of [["content", (it: Item) => fuse(it, base).map((x) => x[0])], ["final", (it: Item) => ctxFirst(it, episodeSelf(it, fuse(it, base), 3, 0.5, 0.1, true))]] as const) {
      const r = rows(f); const s = summarizeRetrieval(r, [10, 20]); const d = distractionMetrics(r, subset, 20);
      console.log(`cue prev ${wp} next ${wn} ${name}`.padEnd(44), "R@10", s.overall[10]!.recall.toFixed(3), "R@20", s.overall[20]!.recall.toFixed(3), "D@1", d.dAt1.toFixed(3), "gap", d.meanRankGap.toFixed(2));
    }
  }
}
if (exps.includes("showd1")) {
  const qs = new Map(questions.map((q) => [q.id, q]));
  const sub = new Set(subset);
  let shown = 0;
  for (const it of items) {
    if (!sub.has(it.id) || shown >= 10) continue;
    const top = ctxFirst(it, episodeSelf(it, fuse(it, base), 3, 0.5, 0.1, true));
    const u = unitById.get(top[0]!)!;
    if (it.evS.includes(u.provenance.sessionId) || it.ev.some((t) => u.provenance.turnIds.includes(t))) continue;
    if ((shown++) % 1 !== 0) continue;
    const q = qs.get(it.id)!;
    console.log(`\nQ[${it.cat}] ${q.question} => ${q.answer}  (evidence ${it.ev.join(",")})`);
    console.log(`  #1 ${u.provenance.turnIds[0]}: ${u.content.slice(0, 150)}`);
    const firstGt = top.findIndex((id) => it.ev.some((t) => unitById.get(id)!.provenance.turnIds.includes(t)));
    if (firstGt >= 0) console.log(`  gt@${firstGt + 1} ${unitById.get(top[firstGt]!)!.provenance.turnIds[0]}: ${unitById.get(top[firstGt]!)!.content.slice(0, 150)}`);
  }
}
if (exps.includes("d1cat")) {
  const catOf = new Map(items.map((it) => [it.id, it.cat]));
  for (const [name, f] of [["content-only", (it: Item) => fuse(it, base).map((x) => x[0])], ["ramem (final)", (it: Item) => ctxFirst(it, episodeSelf(it, fuse(it, base), 3, 0.5, 0.1, true))]] as const) {
    const d = distractionMetrics(items.map((it) => row(it, f(it))), subset, 20);
    const out: string[] = [];
    for (const c of [1, 2, 3, 4]) { const pq = d.perQuestion.filter((p) => catOf.get(p.questionId) === c); out.push(`cat${c} n=${pq.length} D@1 ${(pq.filter((p) => p.rank1IsDistractor).length / pq.length).toFixed(3)} gap ${(pq.reduce((a, p) => a + p.rankGap, 0) / pq.length).toFixed(2)}`); }
    console.log(name.padEnd(16), out.join(" | "));
  }
}
function episodeSelfDense(it: Item, ranked: Array<[string, number]>, dr: number): Array<[string, number]> {
  const by = new Map<string, number[]>();
  for (const x of ranked) if ((it.lexS.get(x[0]) ?? 0) >= 0.5 || (it.den.get(x[0]) ?? 1e9) <= dr) { const s = unitById.get(x[0])!.provenance.sessionId; by.set(s, [...(by.get(s) ?? []), x[1]]); }
  const qs = new Set([...qStems.get(it.id)!].filter((t) => !it.names.has(t)));
  const cov = new Map<string, Set<string>>();
  for (const [id] of ranked) { const s = unitById.get(id)!.provenance.sessionId; const set = cov.get(s) ?? new Set(); for (const t of stemsOf.get(id)!) if (qs.has(t)) set.add(t); cov.set(s, set); }
  return ranked.map(([id, sc]) => { const s = unitById.get(id)!.provenance.sessionId; const sup = (by.get(s) ?? []).slice(0, 3).reduce((a, b) => a + b, 0) / 3; return [id, sc + sup + 0.1 * ((cov.get(s)?.size ?? 0) / Math.max(1, qs.size))] as [string, number]; }).sort((a, b) => b[1] - a[1]);
}
if (exps.includes("densesup")) for (const dr of [0, 3, 5, 10]) report(`support also from dense top ${dr}`, (it) => ctxFirst(it, episodeSelfDense(it, fuse(it, base), dr)));
