import type { ReinstatedCandidate } from "./reinstate.js";
import { checkArgs, checkFields } from "../model/check-args.js";

/**
 * The score a caller can threshold: an estimate, in [0, 1], that the hit is
 * evidence for the query, read from what the ranking knows about it (its
 * final rank, how strongly each channel found it, whether it met the
 * frame's context, how much of the query's key words it holds, how many
 * candidates there were). A logistic model fitted on LoCoMo and LongMemEval
 * (every question's top-20 hits, labelled by whether the hit covers an
 * evidence turn; see research/calibrate-score.ts and docs/api.md › Scores);
 * then each score is cut to the one above it, so scores never rise down the
 * list.
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
  /** The share of the query's key words the unit holds (retrieval/judge-evidence.ts › keyWordShare): absolute, unlike the channels' scores. */
  keyShare: number;
  /** How many content candidates the recall had (the model reads it up to the pool's depth of 100): fewer in a small store, or under a narrow filter. */
  poolSize: number;
}

/**
 * Fitted by research/calibrate-score.ts on both kinds of conversation, large
 * and small stores alike (LoCoMo conversations 1–5 and every second
 * LongMemEval dev question, each also over a store of a few sessions; each set
 * weighs the same). Held out, the expected calibration error of the top-20
 * hits is 0.007–0.019 on the four sets, and of the top hit alone 0.07–0.10
 * (docs/api.md › Scores). Context matches get a negative weight: they are
 * ranked first already, so at a given rank a context match is weaker on
 * content. A small pool (a store of fewer than 100 units) lifts every score a
 * little: fewer candidates, fewer that are wrong.
 */
export const SCORE_WEIGHTS = {
  bias: -1.17,
  logRank: -1.42,
  lexicalShare: 1.58,
  cosine: 1.69,
  context: -1.13,
  keyShare: 0.58,
  smallPool: 0.29,
} as const;

/**
 * The same model for a ranking in content order (the content-only baseline,
 * no frame): its hits never meet a context, so SCORE_WEIGHTS would read them
 * as strong content and run high. Fitted as SCORE_WEIGHTS are, on that
 * ranking (research/calibrate-score.ts --content-only).
 */
export const CONTENT_SCORE_WEIGHTS = {
  bias: -2.5,
  logRank: -1.21,
  lexicalShare: 1.2,
  cosine: 1.75,
  context: 0,
  keyShare: 0.62,
  smallPool: 0.31,
} as const;

export type ScoreWeights = { [K in keyof typeof SCORE_WEIGHTS]: number };

/** The content pool's depth (content-recall.ts): a large store fills it. */
const POOL_SIZE = 100;

export function scoreFeatures(ranked: readonly ReinstatedCandidate[], keyShareOf: (unitId: string) => number = () => 0, poolSize = POOL_SIZE): ScoreFeatures[] {
  const best = Math.max(0, ...ranked.map((c) => c.lexical?.score ?? 0));
  return ranked.map((c, i) => ({
    rank: i + 1,
    lexicalShare: best > 0 && c.lexical ? Math.max(0, c.lexical.score) / best : 0,
    cosine: c.dense ? Math.max(0, c.dense.score) : 0,
    context: c.contextReasons.length > 0,
    keyShare: keyShareOf(c.unitId),
    poolSize,
  }));
}

/** The model's inputs, one per weight. */
export function scoreFeatureVector(f: ScoreFeatures): Record<keyof ScoreWeights, number> {
  return {
    bias: 1,
    logRank: Math.log(f.rank),
    lexicalShare: f.lexicalShare,
    cosine: f.cosine,
    context: f.context ? 1 : 0,
    keyShare: f.keyShare,
    smallPool: 1 - Math.min(POOL_SIZE, f.poolSize) / POOL_SIZE,
  };
}

export function rawScore(f: ScoreFeatures, w: ScoreWeights = SCORE_WEIGHTS): number {
  const x = scoreFeatureVector(f);
  let z = 0;
  for (const k of Object.keys(x) as (keyof ScoreWeights)[]) z += w[k] * x[k];
  return 1 / (1 + Math.exp(-z));
}

/**
 * A statement ranked above one it superseded answers the same question, newer ("I moved to Porto" above "I live in
 * Lisbon" for "Where do I live now?"): it scores on the stronger content evidence of the two, as the successor lift
 * ranks it (successor-lift.ts). Without it, the answer the state rules put first scored on its own words — no
 * "live" in "moved to Porto" — and capped every hit below it: 0.17 for all three of a small store's.
 */
function withSupersededEvidence(ranked: readonly ReinstatedCandidate[], features: ScoreFeatures[], supersededByOf: (unitId: string) => string | null): ScoreFeatures[] {
  const at = new Map(ranked.map((c, i) => [c.unitId, i]));
  const lifted = features.map((f) => ({ ...f }));
  for (const [i, c] of ranked.entries()) {
    const successor = at.get(supersededByOf(c.unitId) ?? "");
    if (successor === undefined || successor > i) continue;
    const [to, from] = [lifted[successor]!, features[i]!];
    to.lexicalShare = Math.max(to.lexicalShare, from.lexicalShare);
    to.cosine = Math.max(to.cosine, from.cosine);
    to.keyShare = Math.max(to.keyShare, from.keyShare);
  }
  return lifted;
}

/** Final scores of a ranked list, in rank order: calibrated, then never above the score of the hit before. */
export function finalScores(
  ranked: readonly ReinstatedCandidate[],
  options: { weights?: ScoreWeights; keyShareOf?: (unitId: string) => number; poolSize?: number; supersededByOf?: (unitId: string) => string | null } = {},
): number[] {
  checkArgs("finalScores", { ranked: [ranked, "array"] });
  checkFields("finalScores", "options", options, "object?", { weights: "object?", keyShareOf: "function?", poolSize: "number?", supersededByOf: "function?" });
  const w = options.weights ?? SCORE_WEIGHTS;
  let ceiling = 1;
  const features = scoreFeatures(ranked, options.keyShareOf, options.poolSize);
  return (options.supersededByOf ? withSupersededEvidence(ranked, features, options.supersededByOf) : features).map((f) => {
    ceiling = Math.min(ceiling, rawScore(f, w));
    return Math.round(ceiling * 1e4) / 1e4;
  });
}
