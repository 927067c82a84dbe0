import { performance } from "node:perf_hooks";
import type { Embedder } from "../../providers/embedder.js";
import type { MemoryStore } from "../../store/contract.js";
import { lexicalTerms } from "../../language/text.js";
import { CONTENT_ONLY, DEFAULT_POOL, runRecall } from "../../retrieval/recall-pipeline.js";

export interface LatencyQuery {
  namespace: string;
  question: string;
  vector: Float32Array;
  questionDate?: string;
}

export interface LatencySummary {
  n: number;
  p50: number;
  p95: number;
  mean: number;
  max: number;
}

export interface RecallLatencyResult {
  dialect: string;
  location: string;
  queries: number;
  /** Candidates per channel, as a full recall asks for. */
  pool: number;
  k: number;
  /** Milliseconds per call. */
  lexical: LatencySummary;
  dense: LatencySummary;
  /** RaMem recall end to end (frame induction, both channels, fusion, reinstatement), the query vector given. */
  recall: LatencySummary;
  /**
   * The content-only recall of the same query, timed right after it: both
   * channels and fusion, no frame, no episodes, no states. recall − this is
   * what stages 2 and 3 add (frames, episode support, validity, occurrences).
   */
  contentOnly: LatencySummary;
}

export function summarize(ms: readonly number[]): LatencySummary {
  const s = [...ms].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))] ?? 0;
  return { n: s.length, p50: q(0.5), p95: q(0.95), mean: s.reduce((a, b) => a + b, 0) / Math.max(1, s.length), max: s.at(-1) ?? 0 };
}

/**
 * Times the store's two channels and a full recall per query, one call at a
 * time (latency, not throughput). Query vectors are given, so the embedder's
 * time is left out: what differs between dialects is the store. The first
 * `warmup` queries are run and not counted (connection pools, caches).
 */
export async function measureRecallLatency(
  deps: { store: MemoryStore; embedder: Embedder },
  queries: readonly LatencyQuery[],
  options: { k?: number; pool?: number; warmup?: number } = {},
): Promise<RecallLatencyResult> {
  const k = options.k ?? 10;
  const pool = options.pool ?? DEFAULT_POOL;
  const warmup = Math.min(options.warmup ?? 10, queries.length);
  const lexical: number[] = [];
  const dense: number[] = [];
  const recall: number[] = [];
  const contentOnly: number[] = [];
  for (const [i, q] of queries.entries()) {
    const counted = i >= warmup;
    let t = performance.now();
    await deps.store.searchLexical(q.namespace, lexicalTerms(q.question), pool);
    if (counted) lexical.push(performance.now() - t);
    t = performance.now();
    await deps.store.searchDense(q.namespace, q.vector, pool);
    if (counted) dense.push(performance.now() - t);
    t = performance.now();
    await runRecall(deps, {
      namespace: q.namespace,
      query: q.question,
      k,
      pool,
      queryVector: q.vector,
      ...(q.questionDate ? { questionDate: q.questionDate } : {}),
    });
    if (counted) recall.push(performance.now() - t);
    t = performance.now();
    await runRecall(deps, { namespace: q.namespace, query: q.question, k, pool, queryVector: q.vector, switches: CONTENT_ONLY });
    if (counted) contentOnly.push(performance.now() - t);
  }
  return {
    dialect: deps.store.dialect,
    location: deps.store.location,
    queries: lexical.length,
    pool,
    k,
    lexical: summarize(lexical),
    dense: summarize(dense),
    recall: summarize(recall),
    contentOnly: summarize(contentOnly),
  };
}
