// A LongMemEval recall's time by stage on the bench's cached store (built by `ramem bench longmemeval`
// first): every dev question through RaMem recall, twice, the mean per recall of the whole and of each
// stage (recall-pipeline.ts onStageTimes). For A/B, run it from two checkouts in turn.
// Usage: node --import tsx research/recall-stage-times.ts
import { prepareBench } from "../src/bench/prepare-bench.js";
import { createUseLiteEmbedder } from "../src/providers/use-lite/use-lite-embedder.js";
import { createRuleAnchorer } from "../src/anchoring/rule-anchorer.js";
import { runRecall } from "../src/retrieval/recall-pipeline.js";
const embedder = await createUseLiteEmbedder();
const prepared = await prepareBench({ dataPath: "../shared/datasets/longmemeval/longmemeval_s_dev100.json", format: "longmemeval", cacheDir: ".ramem-cache", embedder, anchorer: createRuleAnchorer() });
const stages = { content: 0, induction: 0, reinstatement: 0 };
const t0 = performance.now();
for (let round = 0; round < 2; round++)
  for (const q of prepared.questions) {
    await runRecall(prepared.memory, { namespace: q.namespace, query: q.question, k: 10, queryVector: prepared.queryVectors.get(q.question)!, ...(q.questionDate ? { questionDate: q.questionDate } : {}), onStageTimes: (t) => { stages.content += t.content; stages.induction += t.induction; stages.reinstatement += t.reinstatement; } });
  }
const n = prepared.questions.length * 2;
console.log(`ms per recall: total ${((performance.now() - t0) / n).toFixed(2)}, content ${(stages.content / n).toFixed(2)}, induction ${(stages.induction / n).toFixed(2)}, reinstatement ${(stages.reinstatement / n).toFixed(2)}`);
await prepared.memory.close();
