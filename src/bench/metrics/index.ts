export type { QuestionRetrieval, RankedUnit } from "./types.js";
export { retrievalAtK, type RetrievalAtK } from "./retrieval-at-k.js";
export { summarizeRetrieval, type RetrievalMeans, type RetrievalSummary } from "./summarize-retrieval.js";
export { confusableSubset, isContextConfusable } from "./confusable.js";
export {
  distractionMetrics,
  type DistractionMetrics,
  type DistractionPerQuestion,
} from "./distraction-metrics.js";
export { officialLocomoF1, simpleMemF1 } from "./qa-f1.js";
export { summarizeQa, type QaCategoryMeans, type QaScoreRow, type QaSummary } from "./summarize-qa.js";
export { countTokens } from "./tokens.js";
export { LONGMEMEVAL_KS, longMemEvalRetrieval, type LongMemEvalAtK } from "./longmemeval-metrics.js";
export {
  summarizeLongMemEval,
  type LongMemEvalMeans,
  type LongMemEvalRow,
  type LongMemEvalSummary,
} from "./summarize-longmemeval.js";
export {
  freshFirst,
  freshFirstPerType,
  olderEvidenceMarked,
  OLDER_EVIDENCE_DEPTH,
  type FreshFirstRow,
  type FreshFirstScore,
  type OlderEvidenceMarked,
  type OlderEvidenceRow,
  type ValidityHit,
} from "./fresh-first.js";
export { abstentionScore, auroc, evidenceProbabilityOf, type AbstentionRow, type AbstentionScore } from "./abstention.js";
export { scoreReliability, scoredHits, RELIABILITY_EDGES, type ReliabilityBand, type ScoredHit, type ScoreReliability } from "./score-reliability.js";
