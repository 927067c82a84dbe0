/**
 * One thread of the USE-lite pool (use-lite-pool.ts): loads the model once and
 * embeds whatever chunk of texts the pool hands it, with the in-process
 * embedder itself, so a vector from the pool is computed by exactly the code
 * that computes it without one.
 */
import { createUseLiteEmbedder } from "./use-lite-embedder.js";
import { servePoolTasks } from "../../util/serve-pool-tasks.js";

export interface EmbedTask {
  texts: string[];
}

const embedder = createUseLiteEmbedder();

servePoolTasks<EmbedTask, Float32Array[]>(
  async (task) => (await embedder).embed(task.texts),
  (vectors) => [...new Set(vectors.map((v) => v.buffer as ArrayBuffer))],
);
