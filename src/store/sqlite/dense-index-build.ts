import { Worker } from "node:worker_threads";
import { createRequire } from "node:module";
import { existsSync, readFileSync, rmSync } from "node:fs";

/**
 * Builds the shards of one HNSW index on every core, synchronously like the
 * one-thread build it replaces (a search that needs the index waits for it
 * either way): one worker thread per shard adds its slice of the vectors
 * (read from one SharedArrayBuffer, never copied) and writes its graph to
 * `paths[i]`; this thread blocks on Atomics until all are done, reporting
 * progress from a shared counter. hnswlib's addPoint is single-threaded,
 * so shards are how the build uses more than one core.
 */
export function buildShardsInParallel(input: {
  vectors: Float32Array;
  labels: Float64Array;
  dimensions: number;
  /** Where each shard's graph goes; their count is the shard count. */
  paths: readonly string[];
  m: number;
  efConstruction: number;
  seed: number;
  onProgress?: (done: number, total: number) => void;
}): void {
  const total = input.labels.length;
  const shards = input.paths.length;
  // Slot i: shard i's state (0 running, 1 done, 2 failed); slot `shards`: vectors added so far, all shards.
  const flags = new Int32Array(new SharedArrayBuffer(4 * (shards + 1)));
  const hnswlib = createRequire(import.meta.url).resolve("hnswlib-node");
  const workers = input.paths.map((path, i) => {
    const start = Math.floor((i * total) / shards);
    const end = Math.floor(((i + 1) * total) / shards);
    const worker = new Worker(SHARD_WORKER, {
      eval: true,
      // No loaders: the code is plain CommonJS and needs only hnswlib.
      execArgv: [],
      workerData: { hnswlib, vectors: input.vectors, labels: input.labels, start, end, dims: input.dimensions, m: input.m, efConstruction: input.efConstruction, seed: input.seed + i, path, flags, slot: i, counter: shards },
    });
    worker.unref();
    return worker;
  });
  let reported = -1;
  for (;;) {
    const running = [...Array(shards).keys()].find((i) => Atomics.load(flags, i) === 0);
    const done = Atomics.load(flags, shards);
    if (input.onProgress && done !== reported) input.onProgress(Math.min(done, total), total);
    reported = done;
    if (running === undefined) break;
    Atomics.wait(flags, running, 0, 500);
  }
  const failed = input.paths.flatMap((path, i) => (Atomics.load(flags, i) === 2 ? [path] : []));
  for (const w of workers) void w.terminate();
  if (failed.length) {
    const why = existsSync(`${failed[0]}.error`) ? readFileSync(`${failed[0]}.error`, "utf8") : "unknown";
    for (const path of input.paths) rmSync(`${path}.error`, { force: true });
    throw new Error(`building the dense index failed in ${failed.length} of ${shards} threads: ${why}`);
  }
  input.onProgress?.(total, total);
}

/** One shard's build, as CommonJS evaluated in a worker (no module file to locate in the package). */
const SHARD_WORKER = `
const { workerData: d } = require("node:worker_threads");
const flags = d.flags;
try {
  const hnswlib = require(d.hnswlib);
  const index = new hnswlib.HierarchicalNSW("cosine", d.dims);
  index.initIndex({ maxElements: Math.max(1024, Math.ceil((d.end - d.start) * 1.25)), m: d.m, efConstruction: d.efConstruction, randomSeed: d.seed });
  for (let i = d.start; i < d.end; i++) {
    index.addPoint(Array.from(d.vectors.subarray(i * d.dims, (i + 1) * d.dims)), d.labels[i]);
    if ((i - d.start + 1) % 1000 === 0) Atomics.add(flags, d.counter, 1000);
  }
  Atomics.add(flags, d.counter, (d.end - d.start) % 1000);
  index.writeIndexSync(d.path);
  Atomics.store(flags, d.slot, 1);
} catch (err) {
  require("node:fs").writeFileSync(d.path + ".error", String((err && err.stack) || err));
  Atomics.store(flags, d.slot, 2);
}
Atomics.notify(flags, d.slot);
`;
