/**
 * One thread of the USE-lite pool (use-lite-pool.ts): loads the model once and
 * embeds whatever chunk of texts the pool hands it, with the in-process
 * embedder itself, so a vector from the pool is computed by exactly the code
 * that computes it without one.
 */
import { workerData } from "node:worker_threads";
import { createUseLiteEmbedder } from "./use-lite-embedder.js";
import type { UseLiteRuntime } from "./use-lite-chunk-runner.js";
import { servePoolTasks } from "../../util/serve-pool-tasks.js";

export interface EmbedTask {
  texts: string[];
}

export interface UseLitePoolWorkerData {
  runtime: UseLiteRuntime | undefined;
}

const { runtime } = workerData as UseLitePoolWorkerData;
// Loaded on the first task, not at start: the pool keeps an idle thread from
// holding the process open, so a process may end while a thread idles, and a
// thread ended inside onnxruntime's native model load aborts the process.
// During a task the pool holds the process open (thread-pool.ts).
let embedder: ReturnType<typeof createUseLiteEmbedder> | undefined;

servePoolTasks<EmbedTask, Float32Array[]>(
  async (task) => (await (embedder ??= createUseLiteEmbedder(runtime ? { runtime } : {}))).embed(task.texts),
  (vectors) => [...new Set(vectors.map((v) => v.buffer as ArrayBuffer))],
);
