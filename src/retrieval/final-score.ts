import type { ReinstatedCandidate } from "./reinstate.js";

/**
 * The score a caller can threshold: an estimate, in [0, 1], that the hit is
 * evidence for the query, read from what the ranking knows about it (its
 * final rank, how strongly each channel found it, whether it met the
 * frame's context). A logistic model fitted on LoCoMo (every question's
 * top-20 hits, labelled by whether the hit covers an evidence turn; see
 * research/calibrate-score.ts and README › Scores); then each score is cut to
 * the one above it, so scores never rise down the list.
 */
export interface ScoreFeatures {
  /** 1-based final rank. */
  rank: number;
  /** Lexical score relative to the best lexical score among the hits (0 when not found lexically). */
  lexicalShare: number;
  /** Dense cosine similarity (0 when not found densely). */
  cosine: number;
  /** Whether the hit met the recall frame's context (or got episode support). */
  context: boolean;
}

/**
 * Fitted by research/calibrate-score.ts on LoCoMo conversations 1–5 (rule
 * anchorer, USE-lite). On conversations 6–10 (held out): hits scoring ≥ 0.5
 * are evidence 60% of the time (305 of 15,520 top-20 hits; base rate 5.7%),
 * and each score band's share of evidence is close to its mean score
 * (README › Scores). Context matches get a negative weight: they are ranked
 * first already, so at a given rank a context match is weaker on content.
 */
export const SCORE_WEIGHTS = {
  bias: -1.04,
  logRank: -1.39,
  lexicalShare: 1.58,
  cosine: 0.87,
  context: -1.01,
} as const;

export type ScoreWeights = { [K in keyof typeof SCORE_WEIGHTS]: number };

export function scoreFeatures(ranked: readonly ReinstatedCandidate[]): ScoreFeatures[] {
  const best = Math.max(0, ...ranked.map((c) => c.lexical?.score ?? 0));
  return ranked.map((c, i) => ({
    rank: i + 1,
    lexicalShare: best > 0 && c.lexical ? Math.max(0, c.lexical.score) / best : 0,
    cosine: c.dense ? Math.max(0, c.dense.score) : 0,
    context: c.contextReasons.length > 0,
  }));
}

export function rawScore(f: ScoreFeatures, w: ScoreWeights = SCORE_WEIGHTS): number {
  const z = w.bias + w.logRank * Math.log(f.rank) + w.lexicalShare * f.lexicalShare + w.cosine * f.cosine + w.context * (f.context ? 1 : 0);
  return 1 / (1 + Math.exp(-z));
}

/** Final scores of a ranked list, in rank order: calibrated, then never above the score of the hit before. */
export function finalScores(ranked: readonly ReinstatedCandidate[], w: ScoreWeights = SCORE_WEIGHTS): number[] {
  let ceiling = 1;
  return scoreFeatures(ranked).map((f) => {
    ceiling = Math.min(ceiling, rawScore(f, w));
    return Math.round(ceiling * 1e4) / 1e4;
  });
}
