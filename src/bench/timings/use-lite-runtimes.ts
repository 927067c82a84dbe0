/**
 * USE-lite's two runtimes side by side, in one process, interleaved block by
 * block so both share the machine's load: texts per second on real turns
 * (one thread each, the embedder's own chunks), one query's latency, load
 * time, and the largest difference between their vectors. Not a test: a
 * timing.
 *
 *   node --import tsx src/bench/timings/use-lite-runtimes.ts [--locomo FILE] [--longmemeval FILE] [--texts 600] [--queries 300]
 *
 * Default: ../shared/datasets/locomo/locomo10.json and
 * ../shared/datasets/longmemeval/longmemeval_s_dev100.json if present.
 */
import { existsSync, readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { createUseLiteEmbedder } from "../../providers/use-lite/use-lite-embedder.js";
import type { UseLiteRuntime } from "../../providers/use-lite/use-lite-chunk-runner.js";

const { values } = parseArgs({
  options: {
    locomo: { type: "string", default: "../shared/datasets/locomo/locomo10.json" },
    longmemeval: { type: "string", default: "../shared/datasets/longmemeval/longmemeval_s_dev100.json" },
    texts: { type: "string", default: "600" },
    queries: { type: "string", default: "300" },
  },
});
const textCount = Number(values.texts);
const queryCount = Number(values.queries);
const load = () => loadavg()[0]!.toFixed(2);
const RUNTIMES: UseLiteRuntime[] = ["onnx", "tfjs"];

const loadMs: Record<string, number> = {};
const embedders = Object.fromEntries(
  await Promise.all(
    RUNTIMES.map(async (runtime) => {
      const t = performance.now();
      const embedder = await createUseLiteEmbedder({ runtime });
      loadMs[runtime] = performance.now() - t;
      return [runtime, embedder] as const;
    }),
  ),
);

const sets: Array<{ name: string; texts: string[]; queries: string[] }> = [];
if (existsSync(values.locomo)) {
  const data = JSON.parse(readFileSync(values.locomo, "utf8")) as Array<{ conversation: Record<string, unknown>; qa: Array<{ question: string }> }>;
  const texts = data.flatMap((c) => Object.values(c.conversation).flatMap((v) => (Array.isArray(v) ? (v as Array<{ text: string }>).map((t) => t.text) : [])));
  sets.push({ name: "LoCoMo turns", texts: texts.slice(0, textCount), queries: data.flatMap((c) => c.qa.map((q) => q.question)).slice(0, queryCount) });
}
if (existsSync(values.longmemeval)) {
  const data = JSON.parse(readFileSync(values.longmemeval, "utf8")) as Array<{ question: string; haystack_sessions: Array<Array<{ content: string }>> }>;
  const texts = data.flatMap((q) => q.haystack_sessions.flat().map((t) => t.content));
  sets.push({ name: "LongMemEval turns", texts: texts.slice(0, textCount), queries: data.map((q) => q.question).slice(0, queryCount) });
}
if (sets.length === 0) throw new Error("no data set found: pass --locomo and/or --longmemeval");

console.log(`load: onnx ${loadMs.onnx!.toFixed(0)} ms, tfjs ${loadMs.tfjs!.toFixed(0)} ms (load average ${load()})`);
console.log("| texts | runtime | texts/s | one query p50 | p95 | max |Δ| vs tfjs | load average |");
console.log("|---|---|---|---|---|---|---|");
const BLOCK = 32;
for (const set of sets) {
  const seconds: Record<string, number> = { onnx: 0, tfjs: 0 };
  let worst = 0;
  const before = load();
  await embedders.onnx!.embed(set.texts.slice(0, BLOCK));
  await embedders.tfjs!.embed(set.texts.slice(0, BLOCK));
  for (let off = 0; off < set.texts.length; off += BLOCK) {
    const block = set.texts.slice(off, off + BLOCK);
    const vectors: Record<string, Float32Array[]> = {};
    // Alternate which runtime goes first, so neither always runs on a warmer cache.
    for (const runtime of off / BLOCK % 2 === 0 ? RUNTIMES : [...RUNTIMES].reverse()) {
      const t = performance.now();
      vectors[runtime] = await embedders[runtime]!.embed(block);
      seconds[runtime]! += (performance.now() - t) / 1000;
    }
    for (let i = 0; i < block.length; i++) for (let d = 0; d < 512; d++) worst = Math.max(worst, Math.abs(vectors.onnx![i]![d]! - vectors.tfjs![i]![d]!));
  }
  const latency: Record<string, number[]> = { onnx: [], tfjs: [] };
  for (const query of set.queries) {
    for (const runtime of RUNTIMES) {
      const t = performance.now();
      await embedders[runtime]!.embed([query]);
      latency[runtime]!.push(performance.now() - t);
    }
  }
  const at = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.floor(q * (xs.length - 1))]!.toFixed(2);
  for (const runtime of RUNTIMES) {
    console.log(
      `| ${set.name} (${set.texts.length}, queries ${set.queries.length}) | ${runtime} | ${(set.texts.length / seconds[runtime]!).toFixed(1)} | ${at(latency[runtime]!, 0.5)} ms | ${at(latency[runtime]!, 0.95)} ms | ${runtime === "onnx" ? worst.toExponential(1) : "—"} | ${before}→${load()} |`,
    );
  }
}
