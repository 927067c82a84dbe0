// Where do content-only's missed evidence turns sit? (the first LoCoMo round;
// docs/experiments.md › RaMem targets)
//   node --import tsx research/analyze-misses.ts .ramem-cache/<store>.db ../shared/datasets/locomo/locomo10.json
import { openSqliteStore } from "../src/store/sqlite/sqlite-store.js";
import { createUseLiteEmbedder } from "../src/providers/use-lite/use-lite-embedder.js";
import { contentRecall } from "../src/retrieval/content-recall.js";
import { readConversationFile } from "../src/formats/conversation-file.js";
import { embedWithCache } from "../src/bench/vector-cache.js";

const [dbPath, dataPath] = process.argv.slice(2);
const store = await openSqliteStore(dbPath!, { readonly: true });
const embedder = await createUseLiteEmbedder();
const { conversations } = await readConversationFile(dataPath!, { format: "locomo" });
const questions = conversations.flatMap((c) => c.questions ?? []).filter((q) => Number(q.category) <= 4 && q.evidence.length);
const vectors = await embedWithCache(embedder, dbPath!.replace(/\.db$/, ".queries.json"), questions.map((q) => q.question));
const num = (t: string) => Number(/(\d+)$/.exec(t)![1]);
const sess = (t: string) => t.split(":")[0];
let missed = 0, adj1 = 0, adj2 = 0, sameSess = 0, inPool = 0, evTotal = 0;
const rankHist = new Map<string, number>();
for (const q of questions) {
  const ranked = await contentRecall({ store, embedder }, q.question, { namespace: q.namespace, pool: 100, queryVector: vectors.get(q.question)! });
  const units = await store.getUnits(q.namespace, ranked.map((c) => c.unitId));
  const byId = new Map(units.map((u) => [u.id, u]));
  const turns = ranked.map((c) => byId.get(c.unitId)!.provenance.turnIds[0]!);
  const top = turns.slice(0, 10);
  for (const e of new Set(q.evidence)) {
    evTotal++;
    if (top.includes(e)) continue;
    missed++;
    if (top.some((t) => sess(t) === sess(e) && Math.abs(num(t) - num(e)) <= 1)) adj1++;
    if (top.some((t) => sess(t) === sess(e) && Math.abs(num(t) - num(e)) <= 2)) adj2++;
    if (top.some((t) => sess(t) === sess(e))) sameSess++;
    const r = turns.indexOf(e);
    if (r >= 0) inPool++;
    const b = r < 0 ? "none" : r < 20 ? "11-20" : r < 50 ? "21-50" : "51-100";
    rankHist.set(b, (rankHist.get(b) ?? 0) + 1);
  }
}
console.log({ evTotal, missed, adj1, adj2, sameSess, inPool, rankHist: Object.fromEntries(rankHist) });
