import { test } from "node:test";
import assert from "node:assert/strict";
import { confusableSubset, isContextConfusable } from "./confusable.js";
import type { QuestionRetrieval, RankedUnit } from "./types.js";

// Evidence: turn D2:4 in session S2.
const GT: RankedUnit = { unitId: "gt", sessionId: "S2", turnIds: ["D2:4"] };
const NEAR: RankedUnit = { unitId: "near", sessionId: "S2", turnIds: ["D2:9"] }; // evidence session, wrong turn
const filler = (i: number, session = "S7"): RankedUnit => ({ unitId: `f${i}`, sessionId: session, turnIds: [`D7:${i}`] });

const question = (id: string, ranked: RankedUnit[]): QuestionRetrieval => ({
  questionId: id,
  category: 2,
  evidenceTurnIds: ["D2:4"],
  evidenceSessionIds: ["S2"],
  ranked,
});

test("a distractor from another session above the ground truth → confusable", () => {
  // rank 1 f1 (S7, no evidence) is a distractor; GT at rank 2 ≤ 20.
  assert.equal(isContextConfusable(question("pos", [filler(1), GT])), true);
});

test("a non-covering unit from an evidence session is not a distractor", () => {
  // rank 1 'near' is in S2 which holds D2:4 → neutral; nothing else above GT.
  assert.equal(isContextConfusable(question("neg-session", [NEAR, GT, filler(1)])), false);
});

test("distractor only below the ground truth → not confusable", () => {
  assert.equal(isContextConfusable(question("neg-order", [GT, filler(1)])), false);
});

test("ground truth outside the top 20 → not confusable", () => {
  // 20 distractors, GT at rank 21.
  const ranked = [...Array.from({ length: 20 }, (_, i) => filler(i)), GT];
  assert.equal(isContextConfusable(question("neg-deep", ranked)), false);
  // Rank 20 is still inside.
  assert.equal(isContextConfusable(question("pos-20", ranked.slice(1))), true);
  // The threshold is a parameter: with k = 25, rank 21 counts.
  assert.equal(isContextConfusable(question("pos-k25", ranked), 25), true);
});

test("no ground-truth unit at all → not confusable", () => {
  assert.equal(isContextConfusable(question("neg-none", [filler(1), filler(2)])), false);
});

test("a unit that mixes an evidence turn with others is ground truth, not a distractor", () => {
  const mixed: RankedUnit = { unitId: "mixed", sessionId: "S9", turnIds: ["D9:1", "D2:4"] };
  assert.equal(isContextConfusable(question("neg-mixed", [mixed, filler(1)])), false);
});

test("confusableSubset keeps input order and only confusable ids", () => {
  const ids = confusableSubset([
    question("a", [filler(1), GT]),
    question("b", [GT, filler(1)]),
    question("c", [NEAR, filler(2), GT]),
  ]);
  assert.deepEqual(ids, ["a", "c"]);
});
