import { test } from "node:test";
import assert from "node:assert/strict";
import { summarizeLongMemEval } from "./summarize-longmemeval.js";

test("means per type and overall, abstention ids skipped", () => {
  const s = summarizeLongMemEval(
    [
      { questionId: "q1", questionType: "temporal-reasoning", rankedIds: ["s1", "s2"], answerIds: ["s1"] },
      { questionId: "q2", questionType: "temporal-reasoning", rankedIds: ["s2", "s1"], answerIds: ["s1"] },
      { questionId: "q3", questionType: "multi-session", rankedIds: ["s3", "s4"], answerIds: ["s4", "s9"] },
      { questionId: "q4_abs", questionType: "multi-session", rankedIds: ["s1"], answerIds: [] },
    ],
    [1, 2],
  );
  assert.equal(s.evaluated, 3);
  assert.equal(s.skippedAbstention, 1);
  // k=1 recall_any: q1 1, q2 0, q3 0 → 1/3; nDCG: q1 1, q2 0, q3 0 → 1/3.
  assert.deepEqual(s.overall[1], { n: 3, recallAny: 1 / 3, recallAll: 1 / 3, ndcgAny: 1 / 3 });
  // k=2: q1 nDCG 1; q2 DCG = 0 + 1/log2 2 = 1, IDCG 1 → 1; q3 DCG 1, IDCG(2 answers) = 2 → 0.5.
  // recall_all: q1 1, q2 1, q3 0 (s9 missing).
  assert.deepEqual(s.overall[2], { n: 3, recallAny: 1, recallAll: 2 / 3, ndcgAny: 2.5 / 3 });
  assert.deepEqual(s.perType["temporal-reasoning"]![1], { n: 2, recallAny: 0.5, recallAll: 0.5, ndcgAny: 0.5 });
  assert.deepEqual(s.perType["multi-session"]![2], { n: 1, recallAny: 1, recallAll: 0, ndcgAny: 0.5 });
});
