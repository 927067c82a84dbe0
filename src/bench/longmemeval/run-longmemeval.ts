import type { Anchorer } from "../../anchoring/anchorer.js";
import type { Embedder } from "../../providers/embedder.js";
import { runRecall } from "../../retrieval/recall-pipeline.js";
import { summarizeLongMemEval, type LongMemEvalRow, type LongMemEvalSummary } from "../metrics/index.js";
import { resolveVariants } from "../variants.js";
import { prepareBench } from "../prepare-bench.js";

export interface LongMemEvalBenchOptions {
  dataPath: string;
  ks: number[];
  variants: string[];
  cacheDir: string;
  embedder: Embedder;
  anchorer: Anchorer;
  limit?: number;
  onProgress?: (done: number, total: number, label: string) => void;
  /** Store location instead of the SQLite cache file (e.g. a postgres:// URL); see prepareBench. */
  store?: string;
}

export interface LongMemEvalBenchResult {
  data: string;
  ks: number[];
  questions: number;
  variants: Array<{ name: string; session: LongMemEvalSummary; turn: LongMemEvalSummary }>;
  timing: { ingestSeconds: number; retrievalSeconds: number };
  cachePath: string;
}

/**
 * Each LongMemEval question has its own haystack, so each is its own
 * namespace. Units are ranked once; the session-level ranking is the order in
 * which sessions first appear among them, the turn-level one the order of
 * their provenance turns.
 */
export async function runLongMemEvalBench(options: LongMemEvalBenchOptions): Promise<LongMemEvalBenchResult> {
  const variants = resolveVariants(options.variants);
  const prepared = await prepareBench({
    dataPath: options.dataPath,
    format: "longmemeval",
    cacheDir: options.cacheDir,
    embedder: options.embedder,
    anchorer: options.anchorer,
    ...(options.limit !== undefined ? { limit: options.limit } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(options.store ? { store: options.store } : {}),
  });
  const depth = Math.max(...options.ks);
  const started = performance.now();
  const rows = new Map(variants.map((v) => [v.name, { session: [] as LongMemEvalRow[], turn: [] as LongMemEvalRow[] }]));
  const corpus = new Map(prepared.conversations.map((c) => [c.namespace, c]));
  for (const [i, q] of prepared.questions.entries()) {
    const haystack = corpus.get(q.namespace)!;
    for (const v of variants) {
      const { hits } = await runRecall(prepared.memory, {
        namespace: q.namespace,
        query: q.question,
        k: depth,
        switches: v.switches,
        queryVector: prepared.queryVectors.get(q.question)!,
        ...(q.questionDate ? { questionDate: q.questionDate } : {}),
      });
      const slot = rows.get(v.name)!;
      const type = String(q.category);
      slot.session.push({
        questionId: q.id,
        questionType: type,
        rankedIds: unique(hits.map((h) => h.unit.provenance.sessionId)),
        answerIds: q.answerSessionIds ?? [],
        corpusIds: haystack.sessions.map((s) => s.session.id),
      });
      slot.turn.push({
        questionId: q.id,
        questionType: type,
        rankedIds: unique(hits.flatMap((h) => h.unit.provenance.turnIds)),
        answerIds: q.evidence,
        corpusIds: haystack.sessions.flatMap((s) => s.turns.map((t) => t.id)),
      });
    }
    options.onProgress?.(i + 1, prepared.questions.length, "questions recalled");
  }
  await prepared.memory.close();
  return {
    data: options.dataPath,
    ks: options.ks,
    questions: prepared.questions.length,
    variants: variants.map((v) => ({
      name: v.name,
      session: summarizeLongMemEval(rows.get(v.name)!.session, options.ks),
      turn: summarizeLongMemEval(rows.get(v.name)!.turn, options.ks),
    })),
    timing: { ingestSeconds: prepared.ingestSeconds, retrievalSeconds: (performance.now() - started) / 1000 },
    cachePath: prepared.cachePath,
  };
}

function unique(ids: readonly string[]): string[] {
  return [...new Set(ids)];
}
