import { assertPositiveInteger, coversEvidence, evidenceSets, firstRank, isDistractor } from "./internal.js";
import type { QuestionRetrieval } from "./types.js";

/**
 * RAMEM.md: the content-only baseline ranks some distractor above its
 * best-ranked ground-truth unit, with a ground-truth unit inside its top `k`.
 * A ground-truth unit covers at least one evidence turn; a distractor covers
 * none and comes from a session holding no evidence turn.
 * No category filter here: the definition has none, so callers decide.
 */
export function isContextConfusable(question: QuestionRetrieval, k = 20): boolean {
  assertPositiveInteger("k", k);
  const { turns, sessions } = evidenceSets(question);
  const gtRank = firstRank(question.ranked, (u) => coversEvidence(u, turns), k);
  if (gtRank === undefined) return false;
  // Only ranks strictly above the best ground-truth unit can hold the distractor.
  return firstRank(question.ranked, (u) => isDistractor(u, turns, sessions), gtRank - 1) !== undefined;
}

/**
 * Ids of the baseline's confusable questions, in input order. Compute this
 * once from the baseline run and score every variant on the same ids.
 */
export function confusableSubset(baselineQuestions: readonly QuestionRetrieval[], k = 20): string[] {
  return baselineQuestions.filter((q) => isContextConfusable(q, k)).map((q) => q.questionId);
}
