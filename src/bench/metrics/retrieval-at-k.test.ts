import { test } from "node:test";
import assert from "node:assert/strict";
import { retrievalAtK } from "./retrieval-at-k.js";
import type { QuestionRetrieval, RankedUnit } from "./types.js";

const unit = (unitId: string, sessionId: string, turnIds: string[]): RankedUnit => ({ unitId, sessionId, turnIds });

// Evidence D1:3, D2:5, D2:7 (3 turns).
// rank 1 u1 covers nothing, rank 2 u2 covers D2:5 AND D2:7, rank 3 u3 covers D2:5 again,
// rank 4 u4 covers D1:3.
const q: QuestionRetrieval = {
  questionId: "q1",
  category: 1,
  evidenceTurnIds: ["D1:3", "D2:5", "D2:7"],
  evidenceSessionIds: ["S1", "S2", "S2"],
  ranked: [
    unit("u1", "S3", ["D3:1"]),
    unit("u2", "S2", ["D2:5", "D2:6", "D2:7"]),
    unit("u3", "S2", ["D2:5"]),
    unit("u4", "S1", ["D1:3"]),
  ],
};

test("K cut: nothing covered in the top 1, but RR still sees rank 2", () => {
  const r = retrievalAtK(q, 1);
  // top-1 = u1 covers 0/3 → recall 0, hit 0; first covering unit u2 at rank 2 → RR 1/2; 2 > K=1 → RR@1 0.
  assert.equal(r.recall, 0);
  assert.equal(r.hit, 0);
  assert.equal(r.reciprocalRank, 0.5);
  assert.equal(r.reciprocalRankAtK, 0);
});

test("a unit covering two evidence turns counts both (partial coverage)", () => {
  const r = retrievalAtK(q, 2);
  // top-2 covers {D2:5, D2:7} → 2/3.
  assert.equal(r.coveredCount, 2);
  assert.equal(r.recall, 2 / 3);
  assert.equal(r.hit, 1);
  assert.equal(r.reciprocalRankAtK, 0.5);
});

test("a turn covered twice counts once", () => {
  // top-3 adds u3 (D2:5 again) → still {D2:5, D2:7} = 2/3.
  assert.equal(retrievalAtK(q, 3).recall, 2 / 3);
  // top-4 adds D1:3 → 3/3.
  assert.equal(retrievalAtK(q, 4).recall, 1);
  // K beyond the list length is just the whole list.
  assert.equal(retrievalAtK(q, 50).recall, 1);
});

test("duplicate evidence ids count once", () => {
  const dup = { ...q, evidenceTurnIds: ["D1:3", "D1:3", "D2:5", "D2:7"], evidenceSessionIds: ["S1", "S1", "S2", "S2"] };
  // distinct evidence = 3; top-2 covers 2 → 2/3 (not 2/4).
  const r = retrievalAtK(dup, 2);
  assert.equal(r.evidenceCount, 3);
  assert.equal(r.recall, 2 / 3);
});

test("no covering unit at all → RR 0", () => {
  const none = { ...q, ranked: [unit("u1", "S3", ["D3:1"])] };
  const r = retrievalAtK(none, 10);
  assert.deepEqual([r.recall, r.hit, r.reciprocalRank, r.reciprocalRankAtK], [0, 0, 0, 0]);
});

test("rejects a question without evidence and a bad K", () => {
  assert.throws(() => retrievalAtK({ ...q, evidenceTurnIds: [] }, 5), RangeError);
  assert.throws(() => retrievalAtK(q, 0), RangeError);
  assert.throws(() => retrievalAtK(q, 2.5), RangeError);
});
