import { assertPositiveInteger, coversEvidence, firstRank } from "./internal.js";
import type { QuestionRetrieval } from "./types.js";

export interface RetrievalAtK {
  k: number;
  /** Distinct evidence turns (duplicates in the evidence list count once). */
  evidenceCount: number;
  coveredCount: number;
  /** coveredCount / evidenceCount over the top-K units. */
  recall: number;
  /** 1 if at least one evidence turn is covered in the top K, else 0. */
  hit: number;
  /** 1/rank of the first covering unit anywhere in the list, 0 if none. */
  reciprocalRank: number;
  /** Same, but 0 when that first covering unit lies below rank K. */
  reciprocalRankAtK: number;
}

/**
 * Per-question retrieval quality at K. Ranks are list positions as given: a
 * unit repeated by the retriever still occupies two slots of the budget.
 * Throws when the question has no evidence, because recall is undefined there
 * and a silent 0 or NaN would skew averages; filter such questions first.
 */
export function retrievalAtK(question: QuestionRetrieval, k: number): RetrievalAtK {
  assertPositiveInteger("k", k);
  const evidence = new Set(question.evidenceTurnIds);
  if (evidence.size === 0) {
    throw new RangeError(`question ${question.questionId} has no evidence turns`);
  }
  const covered = new Set<string>();
  for (const unit of question.ranked.slice(0, k)) {
    for (const t of unit.turnIds) if (evidence.has(t)) covered.add(t);
  }
  const rank = firstRank(question.ranked, (u) => coversEvidence(u, evidence));
  const reciprocalRank = rank === undefined ? 0 : 1 / rank;
  return {
    k,
    evidenceCount: evidence.size,
    coveredCount: covered.size,
    recall: covered.size / evidence.size,
    hit: covered.size > 0 ? 1 : 0,
    reciprocalRank,
    reciprocalRankAtK: rank !== undefined && rank <= k ? reciprocalRank : 0,
  };
}
