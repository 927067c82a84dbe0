/**
 * One thread of the USE-lite pool (use-lite-pool.ts): loads the model once and
 * embeds whatever chunk of texts the pool hands it, with the in-process
 * embedder itself, so a vector from the pool is computed by exactly the code
 * that computes it without one.
 */
import { parentPort } from "node:worker_threads";
import { createUseLiteEmbedder } from "./use-lite-embedder.js";

export interface EmbedTask {
  id: number;
  texts: string[];
}

export type EmbedReply =
  | { id: number; vectors: Float32Array[] }
  | { id: number; error: { message: string; code?: string; where?: string; hint?: string } };

const port = parentPort!;
const embedder = createUseLiteEmbedder();

port.on("message", (task: EmbedTask) => {
  embedder
    .then((e) => e.embed(task.texts))
    .then(
      (vectors) => port.postMessage({ id: task.id, vectors } satisfies EmbedReply, [...new Set(vectors.map((v) => v.buffer as ArrayBuffer))]),
      (err: unknown) => {
        const e = err as { message?: string; code?: string; where?: string; hint?: string };
        port.postMessage({ id: task.id, error: { message: e.message ?? String(err), ...(e.code ? { code: e.code } : {}), ...(e.where ? { where: e.where } : {}), ...(e.hint ? { hint: e.hint } : {}) } } satisfies EmbedReply);
      },
    );
});
