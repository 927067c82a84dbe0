import { test } from "node:test";
import assert from "node:assert/strict";
import { abstentionScore, auroc, evidenceProbabilityOf, type AbstentionRow } from "./abstention.js";

const row = (abstains: boolean, likely: boolean, confidence: number, topScore: number, rightTop = !abstains): AbstentionRow => ({
  abstains,
  rightTop,
  judgment: { likely, confidence, why: "" },
  topScore,
});

test("auroc: 1 when every positive is above every negative, 0.5 for ties, NaN with an empty side", () => {
  assert.equal(auroc([0.9, 0.8], [0.1, 0.2]), 1);
  assert.equal(auroc([0.1], [0.9]), 0);
  assert.equal(auroc([0.5, 0.5], [0.5]), 0.5);
  assert.equal(auroc([0.9, 0.3], [0.5]), 0.5);
  assert.ok(Number.isNaN(auroc([], [0.5])));
});

test("the judgment is read as P(evidence): confidence when likely, its complement when not", () => {
  assert.equal(evidenceProbabilityOf({ likely: true, confidence: 0.8, why: "" }), 0.8);
  assert.ok(Math.abs(evidenceProbabilityOf({ likely: false, confidence: 0.8, why: "" }) - 0.2) < 1e-12);
});

test("abstentionScore: flagged shares at the default threshold, AUROC of the judgment and of the top score", () => {
  const score = abstentionScore([
    row(false, true, 0.9, 0.6),
    row(false, false, 0.6, 0.7), // a right top hit wrongly flagged
    row(false, true, 0.7, 0.2, false), // answerable, wrong top hit: not counted in wronglyFlagged
    row(true, false, 0.8, 0.65),
    row(true, true, 0.55, 0.1),
  ]);
  assert.equal(score.answerable, 3);
  assert.equal(score.abstention, 2);
  assert.equal(score.rightTop, 2);
  assert.equal(score.flaggedAbstention, 0.5);
  assert.equal(score.wronglyFlagged, 0.5);
  // P(evidence): answerable 0.9, 0.4, 0.7; abstention 0.2, 0.55 → wins 2 + 1 + 2 = 5 of 6.
  assert.ok(Math.abs(score.aurocJudgment - 5 / 6) < 1e-12);
  // Top scores: answerable 0.6, 0.7, 0.2; abstention 0.65, 0.1 → wins 1 + 2 + 1 = 4 of 6.
  assert.ok(Math.abs(score.aurocTopScore - 4 / 6) < 1e-12);
});
