// The answer lift's two ways of reading the unit after each question, on a PostgreSQL
// store: the store's nextUnits (one statement) against listing each question's session
// (the pipeline without it), interleaved per group of 8 questions, answers compared.
// Usage: node --import tsx research/compare-next-units.ts <schema>  (RAMEM_TEST_POSTGRES_URL or the test server's URL)
import { openPostgresStore } from "../src/store/postgres/postgres-store.js";
import { asksQuestion } from "../src/retrieval/asks-question.js";
const base = process.env.RAMEM_TEST_POSTGRES_URL ?? "postgres://ramem:ramem@127.0.0.1:54329/ramem_test";
if (!process.argv[2]) throw new Error("usage: compare-next-units.ts <schema>");
const store = await openPostgresStore(`${base}?schema=${process.argv[2]}`);
const [ns] = await store.listNamespaces();
const sample = (await store.listUnits(ns!, { limit: 3000, offset: 20000 })).filter(asksQuestion);
const groups: string[][] = [];
for (let i = 0; i + 8 <= sample.length && groups.length < 60; i += 8) groups.push(sample.slice(i, i + 8).map((u) => u.id));
const byId = new Map(sample.map((u) => [u.id, u]));
const tNext: number[] = [], tList: number[] = [];
let same = 0;
for (const g of groups) {
  let t = performance.now();
  const a = await store.nextUnits!(ns!, g);
  tNext.push(performance.now() - t);
  t = performance.now();
  const sessions = [...new Set(g.map((id) => byId.get(id)!.provenance.sessionId))];
  const listed = await Promise.all(sessions.map((sessionId) => store.listUnits(ns!, { sessionId })));
  const b = new Map<string, string>();
  for (const inOrder of listed) inOrder.forEach((u, i) => i + 1 < inOrder.length && b.set(u.id, inOrder[i + 1]!.id));
  tList.push(performance.now() - t);
  if (g.every((id) => a.get(id)?.id === b.get(id))) same++;
}
const p50 = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!.toFixed(2);
console.log(`groups ${groups.length} (8 questions each) · nextUnits p50 ${p50(tNext)} ms · listUnits per session p50 ${p50(tList)} ms · same answers ${same}/${groups.length}`);
await store.close();
