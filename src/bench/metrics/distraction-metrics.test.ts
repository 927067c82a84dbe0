import { test } from "node:test";
import assert from "node:assert/strict";
import { distractionMetrics } from "./distraction-metrics.js";
import type { QuestionRetrieval, RankedUnit } from "./types.js";

const GT: RankedUnit = { unitId: "gt", sessionId: "S2", turnIds: ["D2:4"] };
const NEAR: RankedUnit = { unitId: "near", sessionId: "S2", turnIds: ["D2:9"] };
const D = (i: number): RankedUnit => ({ unitId: `d${i}`, sessionId: "S7", turnIds: [`D7:${i}`] });
const question = (id: string, ranked: RankedUnit[]): QuestionRetrieval => ({
  questionId: id,
  category: 2,
  evidenceTurnIds: ["D2:4"],
  evidenceSessionIds: ["S2"],
  ranked,
});

test("D@1 and rank gap, including missing → K+1", () => {
  const questions = [
    question("a", [D(1), D(2), GT]), // rank1 distractor; GT 3, D 1 → gap 2
    question("b", [NEAR, GT, D(1)]), // rank1 neutral; GT 2, D 3 → gap −1
    question("c", [D(1), D(2), D(3), D(4), D(5), GT]), // K=5: GT missing → 6, D 1 → gap 5
    question("d", [GT, NEAR]), // no distractor → 6; GT 1 → gap 1 − 6 = −5
    question("not-in-subset", [D(1)]),
  ];
  const m = distractionMetrics(questions, ["a", "b", "c", "d"], 5);
  assert.equal(m.size, 4);
  // rank-1 distractors: a, c → 2/4.
  assert.equal(m.dAt1, 0.5);
  // gaps 2, −1, 5, −5 → sum 1 → mean 0.25.
  assert.deepEqual(m.perQuestion.map((p) => p.rankGap), [2, -1, 5, -5]);
  assert.deepEqual(m.perQuestion.map((p) => [p.bestGroundTruthRank, p.bestDistractorRank]), [[3, 1], [2, 3], [6, 1], [1, 6]]);
  assert.equal(m.meanRankGap, 0.25);
});

test("K defaults to 20 and only the top K is considered", () => {
  const ranked = [...Array.from({ length: 20 }, (_, i) => D(i)), GT];
  const m = distractionMetrics([question("x", ranked)], ["x"]);
  // GT at 21 is outside the top 20 → counts as 21 (= K+1 as well); D at 1 → gap 20.
  assert.equal(m.k, 20);
  assert.equal(m.perQuestion[0]!.rankGap, 20);
  // With K = 10 the GT counts as 11 → gap 10.
  assert.equal(distractionMetrics([question("x", ranked)], ["x"], 10).perQuestion[0]!.rankGap, 10);
});

test("empty ranked list: no distractor at rank 1, gap (K+1) − (K+1) = 0", () => {
  const m = distractionMetrics([question("e", [])], ["e"], 3);
  assert.equal(m.dAt1, 0);
  assert.equal(m.meanRankGap, 0);
});

test("subset ids missing from the scored run throw; duplicates count once; empty subset is NaN", () => {
  assert.throws(() => distractionMetrics([], ["ghost"]), /ghost/);
  assert.equal(distractionMetrics([question("a", [GT])], ["a", "a"]).size, 1);
  const empty = distractionMetrics([question("a", [GT])], []);
  assert.equal(empty.size, 0);
  assert.ok(Number.isNaN(empty.dAt1));
});
