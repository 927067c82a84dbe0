import type { AbstentionScore } from "../metrics/index.js";

const f3 = (v: number) => (Number.isFinite(v) ? v.toFixed(3) : "–");

/**
 * Whether the store holds evidence at all: the abstain judgment and the top
 * score, each as AUROC of answerable against abstention questions, and at the
 * judgment's default threshold the two shares a caller lives with.
 */
export function abstentionTable(variants: ReadonlyArray<{ name: string; abstention: AbstentionScore }>, abstentionSet: string): string[] {
  const first = variants[0]?.abstention;
  if (!first || first.abstention === 0) return [];
  return [
    "",
    `abstention: does the store hold evidence? (${first.answerable} answerable against ${first.abstention} ${abstentionSet}; ${first.rightTop} answerable with a right top hit)`,
    "",
    "| variant | AUROC judgment | AUROC top score | abstention flagged | right top hit flagged |",
    "|---|---|---|---|---|",
    ...variants.map((v) => `| ${v.name} | ${f3(v.abstention.aurocJudgment)} | ${f3(v.abstention.aurocTopScore)} | ${f3(v.abstention.flaggedAbstention)} | ${f3(v.abstention.wronglyFlagged)} |`),
  ];
}
