import { test } from "node:test";
import assert from "node:assert/strict";
import { longMemEvalRetrieval } from "./longmemeval-metrics.js";

const close = (actual: number, expected: number) => assert.ok(Math.abs(actual - expected) < 1e-12, `${actual} ≠ ${expected}`);

test("recall_any / recall_all / ndcg_any on a small ranking", () => {
  // ranked x a y b, answers {a, b}.
  const m = longMemEvalRetrieval(["x", "a", "y", "b"], ["a", "b"], [1, 3, 4, 5]);
  // k=1: top {x} → any 0, all 0; DCG 0 → nDCG 0.
  assert.deepEqual(m[1], { recallAny: 0, recallAll: 0, ndcgAny: 0 });
  // k=3: top {x,a,y} → any 1, all 0. DCG (repo formula: rank 1 → rel, rank r≥2 → rel/log2 r)
  // = 0 + 1/log2 2 + 0 = 1; IDCG over [1,1] = 1 + 1/log2 2 = 2 → 0.5.
  assert.deepEqual(m[3], { recallAny: 1, recallAll: 0, ndcgAny: 0.5 });
  // k=4: DCG = 1 + 1/log2 4 = 1.5; IDCG 2 → 0.75. (Textbook 1/log2(r+1) would give ≈0.651.)
  assert.deepEqual(m[4], { recallAny: 1, recallAll: 1, ndcgAny: 0.75 });
  // k beyond the list: same as k=4.
  assert.deepEqual(m[5], m[4]);
});

test("ndcg with a relevant item at rank 3", () => {
  // ranked a x b: DCG = 1 + 0 + 1/log2 3; IDCG = 2.
  close(longMemEvalRetrieval(["a", "x", "b"], ["a", "b"], [3])[3]!.ndcgAny, (1 + 1 / Math.log2(3)) / 2);
});

test("ideal DCG from the corpus when given, else from the answer count", () => {
  const ranked = ["x", "a", "y", "b"];
  const answers = ["a", "b", "z"]; // z is not in the corpus
  // With the corpus: 2 relevant items → IDCG@4 = 2 → 1.5/2.
  const withCorpus = longMemEvalRetrieval(ranked, answers, [4], ["x", "a", "y", "b", "w"]);
  assert.equal(withCorpus[4]!.ndcgAny, 0.75);
  assert.equal(withCorpus[4]!.recallAll, 0); // z never retrieved
  // Without: 3 answers → IDCG@4 = 1 + 1 + 1/log2 3.
  close(longMemEvalRetrieval(ranked, answers, [4])[4]!.ndcgAny, 1.5 / (2 + 1 / Math.log2(3)));
});

test("default ks and the empty-answer convention of Python's any()/all()", () => {
  const m = longMemEvalRetrieval(["x"], []);
  assert.deepEqual(Object.keys(m).map(Number), [1, 3, 5, 10, 30, 50]);
  assert.deepEqual(m[10], { recallAny: 0, recallAll: 1, ndcgAny: 0 });
});
