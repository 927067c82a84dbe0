// Measures content-only Recall@10 on LoCoMo for several fusion weights, on the
// benchmark's cached store (run `ramem bench locomo` once first). This is how
// DEFAULT_FUSION was chosen; see docs/experiments.md › Benchmarks (LoCoMo).
//   node --import tsx research/tune-fusion.ts .ramem-cache/<store>.db ../shared/datasets/locomo/locomo10.json
import { openSqliteStore } from "../src/store/sqlite/sqlite-store.js";
import { createUseLiteEmbedder } from "../src/providers/use-lite/use-lite-embedder.js";
import type { FusionWeights } from "../src/retrieval/content-recall.js";
import { contentRecallSummary, loadScoredQuestions } from "./content-recall-on-locomo.js";

const [dbPath, dataPath] = process.argv.slice(2);
if (!dbPath || !dataPath) throw new Error("usage: tune-fusion.ts STORE.db LOCOMO.json");
const store = await openSqliteStore(dbPath, { readonly: true });
const embedder = await createUseLiteEmbedder();
const scored = await loadScoredQuestions(embedder, dataPath, dbPath.replace(/\.db$/, ".queries.json"));
const grid: FusionWeights[] = [
  { lexical: 1, dense: 0, rrfK: 60 },
  { lexical: 0, dense: 1, rrfK: 60 },
  { lexical: 1, dense: 1, rrfK: 60 },
  { lexical: 1, dense: 0.5, rrfK: 60 },
  { lexical: 1, dense: 0.3, rrfK: 60 },
  { lexical: 1, dense: 0.5, rrfK: 20 },
  { lexical: 1, dense: 0.7, rrfK: 20 },
  { lexical: 1, dense: 0.4, rrfK: 10 },
  { lexical: 1, dense: 0.5, rrfK: 10 },
  { lexical: 1, dense: 0.3, rrfK: 5 },
  { lexical: 1, dense: 0.5, rrfK: 5 },
];
for (const fusion of grid) {
  const s = await contentRecallSummary(store, embedder, scored, fusion);
  console.log(JSON.stringify(fusion), "R@10", s.overall[10]!.recall.toFixed(4), "R@20", s.overall[20]!.recall.toFixed(4));
}
