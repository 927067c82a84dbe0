import { prepareBench } from "../src/bench/prepare-bench.js";
import { createUseLiteEmbedder } from "../src/providers/use-lite/use-lite-embedder.js";
import { createRuleAnchorer } from "../src/anchoring/rule-anchorer.js";
import { runRecall } from "../src/retrieval/recall-pipeline.js";
const embedder = await createUseLiteEmbedder();
const prepared = await prepareBench({ dataPath: process.argv[2]!, format: "locomo", cacheDir: ".ramem-cache", embedder, anchorer: createRuleAnchorer() });
for (const q of prepared.questions) {
  if (!process.argv.slice(3).some((w) => q.question.includes(w))) continue;
  const out = await runRecall(prepared.memory, { namespace: q.namespace, query: q.question, k: 6, queryVector: prepared.queryVectors.get(q.question)! });
  console.log("\n#", q.question, "| time:", JSON.stringify(out.frame?.time)?.slice(0, 200), "| current:", JSON.stringify(out.frame?.currentState));
  for (const h of out.hits) console.log("  ", q.evidence.some((e) => h.unit.provenance.turnIds.includes(e)) ? "V" : " ", h.unit.provenance.turnIds.join(","), (h.unit.context.saidAt ?? h.unit.context.session.start).slice(0, 10), h.unit.content.slice(0, 50), "|", (h as any).reasons?.join("; ").slice(0, 160));
}
await prepared.memory.close();
