import { test } from "node:test";
import assert from "node:assert/strict";
import { planChunks } from "./plan-chunks.js";

test("planChunks: every position exactly once, shortest texts first, at most maxTexts per chunk", () => {
  const texts = Array.from({ length: 40 }, (_, i) => "x".repeat((i * 37) % 23));
  const chunks = planChunks(texts, 16, 10_000);
  assert.deepEqual(chunks.flat().sort((a, b) => a - b), texts.map((_, i) => i));
  assert.ok(chunks.every((c) => c.length <= 16));
  const lengths = chunks.flat().map((i) => texts[i]!.length);
  assert.deepEqual(lengths, [...lengths].sort((a, b) => a - b));
  assert.deepEqual(chunks.map((c) => c.length), [16, 16, 8]);
});

test("planChunks: long texts go in small chunks (count × longest within the padded budget), a huge one alone", () => {
  const texts = ["a".repeat(1000), "b".repeat(10), "c".repeat(1000), "d".repeat(5000), "e".repeat(1000), "f".repeat(10)];
  const chunks = planChunks(texts, 16, 2500);
  // The short pair would be padded to 1000 with a third text (3 × 1000 > 2500), so it closes;
  // two texts of 1000 fit, a third does not; 5000 is over the budget alone and still gets a chunk.
  assert.deepEqual(chunks, [[1, 5], [0, 2], [4], [3]]);
});

test("planChunks: equal lengths keep input order; empty input, empty plan", () => {
  assert.deepEqual(planChunks(["aa", "bb", "cc"], 2, 100), [[0, 1], [2]]);
  assert.deepEqual(planChunks([]), []);
});
