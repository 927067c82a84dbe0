import { createHash } from "node:crypto";
import type { BenchProgress } from "./bench-progress.js";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Anchorer } from "../anchoring/anchorer.js";
import type { Embedder } from "../providers/embedder.js";
import { Memory } from "../memory.js";
import type { AnchorerName, EmbedderName } from "../open-memory.js";
import { readConversationFile, type BenchmarkQuestion, type ConversationInput, type EvidenceParseReport } from "../formats/conversation-file.js";
import { embedWithCache } from "./vector-cache.js";
import { createCachingEmbedder, type CachingEmbedder } from "./embedding-cache.js";
import { ingestInParallel } from "./parallel-ingest.js";
import { openBenchStore } from "./open-bench-store.js";

export interface PreparedBench {
  memory: Memory;
  conversations: ConversationInput[];
  questions: BenchmarkQuestion[];
  /** namespace → turn id → session id, to know which session holds each evidence turn. */
  sessionOfTurn: Map<string, Map<string, string>>;
  queryVectors: Map<string, Float32Array>;
  evidence: EvidenceParseReport;
  cachePath: string;
  ingestSeconds: number;
  /** Texts embedded by the model and texts served by the embedding cache during ingest (0/0 when nothing changed). */
  embedding: { embedded: number; cached: number; workers: number };
}

export interface PrepareOptions {
  dataPath: string;
  format: "locomo" | "longmemeval";
  cacheDir: string;
  embedder: Embedder;
  anchorer: Anchorer;
  onProgress?: BenchProgress;
  /** Only these namespaces (e.g. for a quick look at one conversation). */
  only?: (namespace: string) => boolean;
  /** Only the first n conversations (LongMemEval: n questions). */
  limit?: number;
  /**
   * Where to ingest instead of the SQLite cache file: a postgres:// URL (its
   * own schema per data/anchorer/embedder key unless the URL names one with
   * ?schema=) or a SQLite file path.
   */
  store?: string;
  /**
   * Ingest in this many worker processes. Workers build their own embedder
   * and anchorer, so the names that made `embedder` and `anchorer` must be
   * given too; without them (or with 1) ingest runs in this process.
   */
  workers?: number;
  providerNames?: { embedder: EmbedderName; anchorer: AnchorerName };
  /** Keep every embedded text's vector in `<cacheDir>/embeddings.db`, so a changed anchorer re-embeds only changed texts. Default true. */
  embeddingCache?: boolean;
}

/** What every data-set bench's own options carry through to prepareBench. */
export type BenchSourceOptions = Pick<PrepareOptions, "dataPath" | "cacheDir" | "embedder" | "anchorer" | "onProgress" | "store" | "workers" | "providerNames">;

/** Those options as prepareBench takes them: the ones a caller left unset left out. */
export function sourceOptions(options: BenchSourceOptions): Omit<PrepareOptions, "format"> {
  return {
    dataPath: options.dataPath,
    cacheDir: options.cacheDir,
    embedder: options.embedder,
    anchorer: options.anchorer,
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(options.store ? { store: options.store } : {}),
    ...(options.workers ? { workers: options.workers } : {}),
    ...(options.providerNames ? { providerNames: options.providerNames } : {}),
  };
}

/**
 * Reads a benchmark file and ingests it into a store that doubles as the
 * cache: its file name carries the data hash, anchorer and embedder, and the
 * ingest skips unchanged sessions, so a second run re-embeds nothing.
 */
export async function prepareBench(options: PrepareOptions): Promise<PreparedBench> {
  const dataHash = createHash("sha256").update(readFileSync(options.dataPath)).digest("hex").slice(0, 12);
  const key = `${options.format}-${dataHash}-${options.anchorer.id}-${options.embedder.id}`.replace(/[^A-Za-z0-9._-]+/g, "_");
  const cachePath = join(options.cacheDir, `${key}.db`);
  mkdirSync(options.cacheDir, { recursive: true });
  const { conversations: all, report } = await readConversationFile(options.dataPath, { format: options.format });
  const conversations = (options.only ? all.filter((c) => options.only!(c.namespace)) : all).slice(0, options.limit ?? Infinity);
  const store = await openBenchStore(options.store, cachePath, key);
  const embeddingCachePath = options.embeddingCache === false ? null : join(options.cacheDir, "embeddings.db");
  const totalTurns = conversations.reduce((n, c) => n + c.sessions.reduce((m, s) => m + s.turns.length, 0), 0);
  const started = performance.now();
  const workers = options.providerNames ? Math.max(1, options.workers ?? 1) : 1;
  let embedding = { embedded: 0, cached: 0, workers };
  if (workers > 1) {
    // Bound before the workers start, so they never race to bind it.
    await store.bindEmbedder(options.embedder.id, options.embedder.dimensions);
    const parallel = await ingestInParallel({
      workers,
      embedder: options.providerNames!.embedder,
      anchorer: options.providerNames!.anchorer,
      embeddingCache: embeddingCachePath,
      store: { location: options.store, cachePath, key },
      conversations: conversations.map((c) => ({ namespace: c.namespace, sessions: c.sessions })),
      onTurns: (done) => options.onProgress?.(done, totalTurns, `by ${workers} workers`, "turns"),
    });
    embedding = { ...embedding, embedded: parallel.embedded, cached: parallel.cached };
  } else {
    const caching: CachingEmbedder | null = embeddingCachePath ? createCachingEmbedder(options.embedder, embeddingCachePath) : null;
    const ingestMemory = new Memory({ store, embedder: caching ?? options.embedder, anchorer: options.anchorer });
    let turnsBefore = 0;
    try {
      for (const [i, c] of conversations.entries()) {
        await ingestMemory.ingest(c.sessions, {
          onProgress: (p) => options.onProgress?.(turnsBefore + p.turnsDone, totalTurns, `${i + 1}/${conversations.length} ${c.namespace}`, "turns"),
        });
        turnsBefore += c.sessions.reduce((m, s) => m + s.turns.length, 0);
      }
    } finally {
      caching?.close();
    }
    if (caching) embedding = { ...embedding, ...caching.counts };
  }
  const memory = new Memory({ store, embedder: options.embedder, anchorer: options.anchorer });
  const ingestSeconds = (performance.now() - started) / 1000;

  const questions = conversations.flatMap((c) => c.questions ?? []);
  const queryVectors = await embedWithCache(options.embedder, join(options.cacheDir, `${key}.queries.json`), questions.map((q) => q.question));
  const sessionOfTurn = new Map<string, Map<string, string>>();
  for (const c of conversations) {
    const m = sessionOfTurn.get(c.namespace) ?? new Map<string, string>();
    for (const s of c.sessions) for (const t of s.turns) m.set(t.id, s.session.id);
    sessionOfTurn.set(c.namespace, m);
  }
  return { memory, conversations, questions, sessionOfTurn, queryVectors, evidence: report, cachePath: store.location, ingestSeconds, embedding };
}
