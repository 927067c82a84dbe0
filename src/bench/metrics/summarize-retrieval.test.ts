import { test } from "node:test";
import assert from "node:assert/strict";
import { summarizeRetrieval } from "./summarize-retrieval.js";
import type { QuestionRetrieval } from "./types.js";

const q = (questionId: string, category: number, evidence: string[], rankedTurns: string[][]): QuestionRetrieval => ({
  questionId,
  category,
  evidenceTurnIds: evidence,
  evidenceSessionIds: evidence.map((e) => e.split(":")[0]!),
  ranked: rankedTurns.map((turnIds, i) => ({ unitId: `${questionId}-u${i}`, sessionId: "Sx", turnIds })),
});

test("micro means per K, per category, with skips counted", () => {
  const questions = [
    // cat 1: evidence {a,b}; rank1 covers a, rank2 covers b.
    q("q1", 1, ["a", "b"], [["a"], ["b"]]),
    // cat 1: evidence {c}; rank1 misses, rank2 covers.
    q("q2", 1, ["c"], [["x"], ["c"]]),
    // cat 2: evidence {d}; never covered.
    q("q3", 2, ["d"], [["x"], ["y"]]),
    q("q4", 5, ["a"], [["a"]]), // adversarial → skipped (category)
    q("q5", 3, [], [["a"]]), // no evidence → skipped
  ];
  const s = summarizeRetrieval(questions, [1, 2]);
  assert.equal(s.evaluated, 3);
  assert.deepEqual(s.skipped, { category: 1, noEvidence: 1 });
  // K=1: recall q1 1/2, q2 0, q3 0 → (0.5+0+0)/3 = 1/6; hit (1+0+0)/3 = 1/3.
  // RR: q1 1, q2 1/2, q3 0 → MRR 0.5; MRR@1: 1, 0, 0 → 1/3.
  assert.deepEqual(s.overall[1], { n: 3, recall: 0.5 / 3, hit: 1 / 3, mrr: 0.5, mrrAtK: 1 / 3 });
  // K=2: recall 1, 1, 0 → 2/3; hit 2/3; MRR@2: 1, 1/2, 0 → 0.5.
  assert.deepEqual(s.overall[2], { n: 3, recall: 2 / 3, hit: 2 / 3, mrr: 0.5, mrrAtK: 0.5 });
  // Category 1 at K=1: recall (0.5+0)/2 = 0.25, hit 0.5, MRR (1+0.5)/2 = 0.75, MRR@1 (1+0)/2 = 0.5.
  assert.deepEqual(s.perCategory[1]![1], { n: 2, recall: 0.25, hit: 0.5, mrr: 0.75, mrrAtK: 0.5 });
  assert.deepEqual(s.perCategory[2]![2], { n: 1, recall: 0, hit: 0, mrr: 0, mrrAtK: 0 });
  assert.equal(s.perCategory[5], undefined);
  assert.equal(s.perCategory[3], undefined);
});

test("nothing to evaluate → NaN means with n = 0", () => {
  const s = summarizeRetrieval([q("q4", 5, ["a"], [["a"]])], [10]);
  assert.equal(s.overall[10]!.n, 0);
  assert.ok(Number.isNaN(s.overall[10]!.recall));
});
