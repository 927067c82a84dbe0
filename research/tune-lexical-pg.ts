// Measures content-only Recall@10 on LoCoMo for several ts_rank_cd settings of
// the postgres dialect's lexical channel, lexical alone and fused as recall
// does, on the schema `ramem bench locomo --store URL` filled. This is how the
// default normalisation was chosen; see src/store/postgres/README.md.
//   node --import tsx research/tune-lexical-pg.ts 'postgres://...?schema=bench_...' ../shared/datasets/locomo/locomo10.json .ramem-cache/<key>.queries.json
import { openPostgresStore } from "../src/store/postgres/postgres-store.js";
import { createTsRankLexical } from "../src/store/postgres/lexical/ts-rank-lexical.js";
import { createBm25Lexical } from "../src/store/postgres/lexical/bm25-lexical.js";
import type { LexicalChannel } from "../src/store/postgres/lexical/lexical-channel.js";
import { createUseLiteEmbedder } from "../src/providers/use-lite/use-lite-embedder.js";
import { DEFAULT_FUSION, type FusionWeights } from "../src/retrieval/content-recall.js";
import { contentRecallSummary, loadScoredQuestions } from "./content-recall-on-locomo.js";

const [url, dataPath, queriesPath] = process.argv.slice(2);
if (!url || !dataPath || !queriesPath) throw new Error("usage: tune-lexical-pg.ts URL?schema=... LOCOMO.json QUERIES.json");
const embedder = await createUseLiteEmbedder();
const scored = await loadScoredQuestions(embedder, dataPath, queriesPath);
const LEXICAL_ONLY: FusionWeights = { lexical: 1, dense: 0, rrfK: 60 };
const only = process.env.CHANNELS?.split(",");
const channels: LexicalChannel[] = [
  createBm25Lexical(),
  createBm25Lexical({ cueWeight: 0.25 }),
  ...[0, 1, 2, 4, 8, 16, 32, 1 | 32, 2 | 32].map((normalization) => createTsRankLexical({ normalization })),
].filter((c) => !only || only.some((o) => c.id.startsWith(o)));
for (const lexical of channels) {
  const store = await openPostgresStore(url, { lexical });
  try {
    for (const fusion of [LEXICAL_ONLY, DEFAULT_FUSION]) {
      const s = await contentRecallSummary(store, embedder, scored, fusion);
      console.log(lexical.id, fusion === LEXICAL_ONLY ? "lexical only" : "fused (default)", "R@10", s.overall[10]!.recall.toFixed(4), "R@20", s.overall[20]!.recall.toFixed(4));
    }
  } finally {
    await store.close();
  }
}
