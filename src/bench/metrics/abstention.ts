import type { EvidenceJudgment } from "../../retrieval/judge-evidence.js";

export interface AbstentionRow {
  /** The answer was never said (LongMemEval's `_abs` questions, LoCoMo's category 5). */
  abstains: boolean;
  /** The top hit covers the question's evidence (an evidence turn, or for LongMemEval an answer session). */
  rightTop: boolean;
  judgment: EvidenceJudgment;
  /** The top hit's score; 0 with no hit. */
  topScore: number;
}

export interface AbstentionScore {
  answerable: number;
  abstention: number;
  /** Answerable questions whose top hit is right: the ones a false flag costs. */
  rightTop: number;
  /** AUROC of P(evidence) read off the judgment, answerable against abstention. */
  aurocJudgment: number;
  /** The same for the top hit's score: what a caller thresholding minScore gets. */
  aurocTopScore: number;
  /** At the default threshold (likely false): the share of abstention questions flagged. */
  flaggedAbstention: number;
  /** …and the share of answerable questions with a right top hit that are flagged all the same. */
  wronglyFlagged: number;
}

/** The judgment as one number: its P(the store holds evidence). */
export function evidenceProbabilityOf(judgment: EvidenceJudgment): number {
  return judgment.likely ? judgment.confidence : 1 - judgment.confidence;
}

/** The chance that a random positive scores above a random negative (ties count half); NaN when a side is empty. */
export function auroc(positives: readonly number[], negatives: readonly number[]): number {
  if (!positives.length || !negatives.length) return Number.NaN;
  let wins = 0;
  for (const p of positives) for (const n of negatives) wins += p > n ? 1 : p === n ? 0.5 : 0;
  return wins / (positives.length * negatives.length);
}

function share(rows: readonly AbstentionRow[], test: (r: AbstentionRow) => boolean): number {
  return rows.length ? rows.filter(test).length / rows.length : Number.NaN;
}

/** Does the abstain judgment tell questions the store can answer from ones it cannot (and does the top score)? */
export function abstentionScore(rows: readonly AbstentionRow[]): AbstentionScore {
  const answerable = rows.filter((r) => !r.abstains);
  const abstention = rows.filter((r) => r.abstains);
  const right = answerable.filter((r) => r.rightTop);
  const p = (r: AbstentionRow) => evidenceProbabilityOf(r.judgment);
  return {
    answerable: answerable.length,
    abstention: abstention.length,
    rightTop: right.length,
    aurocJudgment: auroc(answerable.map(p), abstention.map(p)),
    aurocTopScore: auroc(answerable.map((r) => r.topScore), abstention.map((r) => r.topScore)),
    flaggedAbstention: share(abstention, (r) => !r.judgment.likely),
    wronglyFlagged: share(right, (r) => !r.judgment.likely),
  };
}
