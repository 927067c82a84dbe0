import type { Embedder } from "../providers/embedder.js";
import type { MemoryStore } from "../store/contract.js";
import type { ChannelScore } from "../model/recall.js";
import { lexicalTerms } from "../language/text.js";
import type { FilterNode } from "../model/memory-filter.js";
import { checkArgs, checkFields } from "../model/check-args.js";

export interface ContentCandidate {
  unitId: string;
  /** Fused score, higher is better. */
  score: number;
  lexical?: ChannelScore;
  dense?: ChannelScore;
  /** Its rank in the lexical search for the kinds of what the query counts (`kinds`), when that found it, and what that is. */
  kinds?: ChannelScore & { of: string };
}

export interface FusionWeights {
  lexical: number;
  dense: number;
  /** The RRF constant: larger flattens the rank curve. */
  rrfK: number;
}

/**
 * Chosen by measurement on LoCoMo (research/tune-fusion.ts; README ›
 * Benchmarks): the offline dense model alone reaches Recall@10 0.49 against
 * BM25's 0.69, so an equal-weight fusion (0.67) pulls good lexical hits down;
 * half-weight dense with a small RRF constant (sharper rank curve) gives 0.72.
 */
export const DEFAULT_FUSION: FusionWeights = { lexical: 1, dense: 0.5, rrfK: 10 };

export interface ContentRecallOptions {
  namespace: string;
  /** How many candidates each channel contributes before fusion. */
  pool: number;
  fusion?: FusionWeights;
  /** The query's embedding, when the caller already has it (benchmarks embed all questions in one batch). */
  queryVector?: Float32Array;
  /** Only units this filter selects, in both channels (the store runs it inside each search). */
  where?: FilterNode;
  /**
   * The kinds of what the query counts (language/kinds-of.ts): one more
   * lexical search, of those words alone, fused with `weight` as a channel
   * of its own (a turn naming "lime" answers "how many citrus fruits" and
   * holds none of its words).
   */
  kinds?: { of: string; terms: readonly string[]; weight: number };
}

/**
 * Stage-3 fallback and the content ranking of every recall: BM25 and dense
 * kNN, fused with weighted reciprocal-rank fusion. Returns at most `pool`
 * candidates, best first.
 */
export async function contentRecall(
  deps: { store: MemoryStore; embedder: Embedder },
  query: string,
  options: ContentRecallOptions,
): Promise<ContentCandidate[]> {
  checkArgs("contentRecall", { deps: [deps, "object"], query: [query, "string"] });
  checkFields("contentRecall", "options", options, "object", { namespace: "string", pool: "number", fusion: "object?", where: "object?", kinds: "object?" });
  const fusion = options.fusion ?? DEFAULT_FUSION;
  const terms = lexicalTerms(query);
  const narrow = options.where ? { where: options.where } : {};
  const kinds = options.kinds && options.kinds.weight > 0 && options.kinds.terms.length > 0 ? options.kinds : null;
  const [lexical, dense, ofKinds] = await Promise.all([
    fusion.lexical > 0 ? deps.store.searchLexical(options.namespace, terms, options.pool, narrow) : Promise.resolve([]),
    fusion.dense > 0
      ? (options.queryVector ? Promise.resolve([options.queryVector]) : deps.embedder.embed([query])).then(([v]) =>
          deps.store.searchDense(options.namespace, v!, options.pool, narrow),
        )
      : Promise.resolve([]),
    kinds ? deps.store.searchLexical(options.namespace, [...kinds.terms], options.pool, narrow) : Promise.resolve([]),
  ]);
  const byId = new Map<string, ContentCandidate>();
  const entry = (id: string) => {
    let c = byId.get(id);
    if (!c) byId.set(id, (c = { unitId: id, score: 0 }));
    return c;
  };
  for (const hit of lexical) {
    const c = entry(hit.id);
    c.lexical = { rank: hit.rank, score: hit.score };
    c.score += fusion.lexical / (fusion.rrfK + hit.rank);
  }
  for (const hit of dense) {
    const c = entry(hit.id);
    c.dense = { rank: hit.rank, score: hit.score };
    c.score += fusion.dense / (fusion.rrfK + hit.rank);
  }
  for (const hit of ofKinds) {
    const c = entry(hit.id);
    c.kinds = { rank: hit.rank, score: hit.score, of: kinds!.of };
    c.score += kinds!.weight / (fusion.rrfK + hit.rank);
  }
  return [...byId.values()].sort((a, b) => b.score - a.score || a.unitId.localeCompare(b.unitId)).slice(0, options.pool);
}
