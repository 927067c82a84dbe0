import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import type { Embedder } from "../embedder.js";
import { RamemError } from "../../model/errors.js";
import { USE_LITE_DIMENSIONS, USE_LITE_ID, USE_LITE_MAX_BATCH } from "./use-lite-embedder.js";
import { planChunks } from "./plan-chunks.js";
import type { EmbedReply, EmbedTask } from "./use-lite-pool-worker.js";

export interface UseLitePoolOptions {
  /** Threads, each with its own model (~30 MB); default: the machine's available cores. */
  size?: number;
}

export interface UseLitePool extends Embedder {
  readonly size: number;
  /** Stops the threads; embed() after close() is refused. */
  close(): Promise<void>;
}

interface Pending {
  task: EmbedTask;
  resolve(vectors: Float32Array[]): void;
  reject(error: Error): void;
}

interface Slot {
  worker: Worker;
  busy: Pending | null;
}

/**
 * USE-lite on every core. tfjs runs its WASM graph on one thread, so one model
 * embeds ~1 core's worth; the pool keeps a model per worker thread and hands
 * each of them one chunk at a time — the chunks the in-process embedder would
 * run (plan-chunks.ts), so the vectors are the ones it computes. Same id as the in-process embedder: it is the same model, and a
 * store written through the pool is read through either.
 *
 * Threads start on the first embed (a pool that is never used costs nothing)
 * and do not keep the process alive while idle.
 */
export function createUseLitePool(options: UseLitePoolOptions = {}): UseLitePool {
  const size = Math.max(1, Math.floor(options.size ?? availableParallelism()));
  const slots: Slot[] = [];
  const queue: Pending[] = [];
  let nextId = 0;
  let closed = false;

  function start(): void {
    for (let i = 0; i < size; i++) {
      const slot: Slot = { worker: startWorker(), busy: null };
      slot.worker.unref();
      slot.worker.on("message", (reply: EmbedReply) => finish(slot, reply));
      slot.worker.on("error", (err) => fail(slot, err));
      slot.worker.on("exit", (code) => {
        if (!closed) fail(slot, new Error(`a use-lite pool thread exited with code ${code}`));
      });
      slots.push(slot);
    }
  }

  function finish(slot: Slot, reply: EmbedReply): void {
    const job = slot.busy;
    slot.busy = null;
    slot.worker.unref();
    if (job) {
      if ("vectors" in reply) job.resolve(reply.vectors);
      else job.reject(new RamemError(reply.error.code ?? "EMBEDDER_POOL", reply.error.message, { ...(reply.error.where ? { where: reply.error.where } : {}), ...(reply.error.hint ? { hint: reply.error.hint } : {}) }));
    }
    dispatch();
  }

  // A dead thread fails its own chunk and every queued one: the model could not
  // run, and retrying in a fresh thread would most likely fail the same way.
  function fail(slot: Slot, err: Error): void {
    const error = new RamemError("EMBEDDER_POOL", `the use-lite pool failed: ${err.message}`, { hint: "run with one thread (--workers 1) to embed in this process", cause: err });
    slot.busy?.reject(error);
    slot.busy = null;
    for (const job of queue.splice(0)) job.reject(error);
    void close();
  }

  function dispatch(): void {
    for (const slot of slots) {
      if (queue.length === 0) return;
      if (slot.busy) continue;
      const job = queue.shift()!;
      slot.busy = job;
      slot.worker.ref();
      slot.worker.postMessage(job.task);
    }
  }

  function run(texts: string[]): Promise<Float32Array[]> {
    return new Promise((resolve, reject) => {
      queue.push({ task: { id: nextId++, texts }, resolve, reject });
      dispatch();
    });
  }

  async function close(): Promise<void> {
    closed = true;
    await Promise.all(slots.splice(0).map((s) => s.worker.terminate()));
  }

  return {
    specificationVersion: "v1",
    id: USE_LITE_ID,
    dimensions: USE_LITE_DIMENSIONS,
    maxBatchSize: USE_LITE_MAX_BATCH,
    size,
    async embed(texts: readonly string[]): Promise<Float32Array[]> {
      if (texts.length === 0) return [];
      if (closed) throw new RamemError("EMBEDDER_POOL", "the use-lite pool is closed", { hint: "open a new pool (or a new Memory) to embed again" });
      if (slots.length === 0) start();
      const out: Float32Array[] = new Array(texts.length);
      await Promise.all(
        planChunks(texts).map(async (chunk) => {
          // The thread's embedder plans this chunk again and keeps it whole: it was cut by the same rule.
          const vectors = await run(chunk.map((i) => texts[i]!));
          chunk.forEach((i, j) => (out[i] = vectors[j]!));
        }),
      );
      return out;
    },
    close,
  };
}

/**
 * The built package runs the .js worker. Under the sources (tsx), Node 20
 * does not apply the main thread's `--import tsx` hooks inside a worker, so
 * the worker first registers tsx itself, then imports the .ts file.
 */
function startWorker(): Worker {
  const here = import.meta.url;
  if (!here.endsWith(".ts")) return new Worker(new URL("./use-lite-pool-worker.js", here), { execArgv: loaderArgs(process.execArgv) });
  const workerUrl = new URL("./use-lite-pool-worker.ts", here).href;
  // Resolved from here, not from the process's working directory.
  const tsxApi = import.meta.resolve("tsx/esm/api");
  const boot = `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(workerUrl)}); });`;
  return new Worker(boot, { eval: true, execArgv: loaderArgs(process.execArgv) });
}

/**
 * The flags a thread needs to load the same code: the module loaders
 * (`--import tsx` under the sources). Anything else (`--test`, `--cpu-prof`…)
 * is the main thread's business, and some of it a Worker refuses.
 */
export function loaderArgs(execArgv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const a = execArgv[i]!;
    if (a === "--import" || a === "--loader" || a === "--experimental-loader" || a === "--require" || a === "-r") {
      if (execArgv[i + 1] !== undefined) out.push(a, execArgv[++i]!);
    } else if (/^--(import|loader|experimental-loader|require)=/.test(a)) out.push(a);
  }
  return out;
}
