import { createHash } from "node:crypto";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Anchorer } from "../anchoring/anchorer.js";
import type { Embedder } from "../providers/embedder.js";
import { Memory } from "../memory.js";
import { openSqliteStore } from "../store/sqlite/sqlite-store.js";
import { isPostgresUrl } from "../store/open-store.js";
import { openPostgresStore } from "../store/postgres/postgres-store.js";
import { parsePostgresUrl } from "../store/postgres/connection.js";
import type { MemoryStore } from "../store/contract.js";
import { readConversationFile, type BenchmarkQuestion, type ConversationInput, type EvidenceParseReport } from "../formats/conversation-file.js";
import { embedWithCache } from "./vector-cache.js";

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
}

export interface PrepareOptions {
  dataPath: string;
  format: "locomo" | "longmemeval";
  cacheDir: string;
  embedder: Embedder;
  anchorer: Anchorer;
  onProgress?: (done: number, total: number, label: string) => void;
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
  const memory = new Memory({ store, embedder: options.embedder, anchorer: options.anchorer });

  const started = performance.now();
  const totalTurns = conversations.reduce((n, c) => n + c.sessions.reduce((m, s) => m + s.turns.length, 0), 0);
  let turnsBefore = 0;
  for (const [i, c] of conversations.entries()) {
    await memory.ingest(c.sessions, {
      onProgress: (p) => options.onProgress?.(turnsBefore + p.turnsDone, totalTurns, `ingest ${i + 1}/${conversations.length} ${c.namespace}`),
    });
    turnsBefore += c.sessions.reduce((m, s) => m + s.turns.length, 0);
  }
  const ingestSeconds = (performance.now() - started) / 1000;

  const questions = conversations.flatMap((c) => c.questions ?? []);
  const queryVectors = await embedWithCache(options.embedder, join(options.cacheDir, `${key}.queries.json`), questions.map((q) => q.question));
  const sessionOfTurn = new Map<string, Map<string, string>>();
  for (const c of conversations) {
    const m = sessionOfTurn.get(c.namespace) ?? new Map<string, string>();
    for (const s of c.sessions) for (const t of s.turns) m.set(t.id, s.session.id);
    sessionOfTurn.set(c.namespace, m);
  }
  return { memory, conversations, questions, sessionOfTurn, queryVectors, evidence: report, cachePath: store.location, ingestSeconds };
}

/**
 * The bench store doubles as a cache, like the SQLite file: on PostgreSQL the
 * schema is named after the cache key, so a second run finds its sessions
 * unchanged and re-embeds nothing, and two data sets never share a schema.
 */
async function openBenchStore(location: string | undefined, cachePath: string, key: string): Promise<MemoryStore> {
  if (location === undefined) return openSqliteStore(cachePath);
  if (!isPostgresUrl(location)) return openSqliteStore(location);
  const schema = parsePostgresUrl(location).schema ?? `bench_${createHash("sha256").update(key).digest("hex").slice(0, 16)}`;
  return openPostgresStore(location, { schema });
}
