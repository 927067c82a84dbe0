import { assertPositiveInteger, coversEvidence, evidenceSets, firstRank, isDistractor, mean } from "./internal.js";
import type { QuestionRetrieval } from "./types.js";

export interface DistractionPerQuestion {
  questionId: string;
  rank1IsDistractor: boolean;
  /** Rank of the best ground-truth unit within the top K, or K+1 when none is there. */
  bestGroundTruthRank: number;
  /** Rank of the best distractor within the top K, or K+1 when none is there. */
  bestDistractorRank: number;
  /** bestGroundTruthRank − bestDistractorRank; lower is better. */
  rankGap: number;
}

export interface DistractionMetrics {
  k: number;
  size: number;
  /** Share of subset questions whose rank-1 unit is a distractor (NaN for an empty subset). */
  dAt1: number;
  /** Mean rank gap over the subset (NaN for an empty subset). */
  meanRankGap: number;
  perQuestion: DistractionPerQuestion[];
}

/**
 * D@1 and rank gap of one variant on a fixed subset (see confusableSubset).
 * Throws if a subset id is absent from `questions`: a variant that skipped a
 * subset question would otherwise be scored on an easier subset unnoticed.
 */
export function distractionMetrics(
  questions: readonly QuestionRetrieval[],
  subsetIds: readonly string[],
  k = 20,
): DistractionMetrics {
  assertPositiveInteger("k", k);
  const byId = new Map(questions.map((q) => [q.questionId, q]));
  const perQuestion: DistractionPerQuestion[] = [];
  for (const id of new Set(subsetIds)) {
    const q = byId.get(id);
    if (q === undefined) throw new Error(`subset question ${id} is missing from the scored run`);
    const { turns, sessions } = evidenceSets(q);
    const distractor = (u: QuestionRetrieval["ranked"][number]) => isDistractor(u, turns, sessions);
    const first = q.ranked[0];
    const bestGroundTruthRank = firstRank(q.ranked, (u) => coversEvidence(u, turns), k) ?? k + 1;
    const bestDistractorRank = firstRank(q.ranked, distractor, k) ?? k + 1;
    perQuestion.push({
      questionId: id,
      rank1IsDistractor: first !== undefined && distractor(first),
      bestGroundTruthRank,
      bestDistractorRank,
      rankGap: bestGroundTruthRank - bestDistractorRank,
    });
  }
  return {
    k,
    size: perQuestion.length,
    dAt1: mean(perQuestion.map((p) => (p.rank1IsDistractor ? 1 : 0))),
    meanRankGap: mean(perQuestion.map((p) => p.rankGap)),
    perQuestion,
  };
}
