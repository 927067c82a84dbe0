import { availableParallelism } from "node:os";
import type { Embedder } from "../embedder.js";
import { USE_LITE_DIMENSIONS, USE_LITE_ID, USE_LITE_MAX_BATCH, useLiteRuntimeOf } from "./use-lite-embedder.js";
import type { UseLiteRuntime } from "./use-lite-chunk-runner.js";
import { planChunks } from "./plan-chunks.js";
import type { EmbedTask, UseLitePoolWorkerData } from "./use-lite-pool-worker.js";
import { createThreadPool } from "../../util/thread-pool.js";

export interface UseLitePoolOptions {
  /** Threads, each with its own model (~120 MB of RSS each on onnxruntime, ~160 MB on tfjs); default: the machine's available cores. */
  size?: number;
  /** The runtime every thread embeds with; default as for createUseLiteEmbedder (onnx, falling back to tfjs per thread). */
  runtime?: UseLiteRuntime;
}

export interface UseLitePool extends Embedder {
  readonly size: number;
  /** The runtime asked for; undefined: the default, decided in each thread. */
  readonly runtime: UseLiteRuntime | undefined;
  /** Lets the running chunks finish, then stops the threads; queued chunks and embed() after close() are refused. */
  close(): Promise<void>;
}

/**
 * USE-lite on every core. Either runtime runs its graph on the calling thread
 * (onnxruntime-node's binding runs a session synchronously; tfjs' WASM has no
 * threads in Node), and the tokenizer is JavaScript, so one model embeds ~1
 * core's worth; the pool keeps a model per worker thread and hands
 * each of them one chunk at a time — the chunks the in-process embedder would
 * run (plan-chunks.ts), so the vectors are the ones it computes. Same id as the in-process embedder: it is the same model, and a
 * store written through the pool is read through either.
 *
 * Threads start on the first embed (a pool that is never used costs nothing)
 * and do not keep the process alive while idle.
 */
export function createUseLitePool(options: UseLitePoolOptions = {}): UseLitePool {
  const runtime = useLiteRuntimeOf(options.runtime);
  const threads = createThreadPool<EmbedTask, Float32Array[]>({
    size: options.size ?? availableParallelism(),
    worker: new URL("./use-lite-pool-worker", import.meta.url),
    workerData: { runtime } satisfies UseLitePoolWorkerData,
    name: "the use-lite pool",
    code: "EMBEDDER_POOL",
    hint: "run with one thread (--threads 1) to embed in this process",
    closedHint: "open a new pool (or a new Memory) to embed again",
  });

  return {
    specificationVersion: "v1",
    id: USE_LITE_ID,
    dimensions: USE_LITE_DIMENSIONS,
    maxBatchSize: USE_LITE_MAX_BATCH,
    size: threads.size,
    runtime,
    async embed(texts: readonly string[]): Promise<Float32Array[]> {
      if (texts.length === 0) return [];
      const out: Float32Array[] = new Array(texts.length);
      await Promise.all(
        planChunks(texts).map(async (chunk) => {
          // The thread's embedder plans this chunk again and keeps it whole: it was cut by the same rule.
          const vectors = await threads.run({ texts: chunk.map((i) => texts[i]!) });
          chunk.forEach((i, j) => (out[i] = vectors[j]!));
        }),
      );
      return out;
    },
    close: () => threads.close(),
  };
}
