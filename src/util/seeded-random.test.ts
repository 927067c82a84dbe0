import { test } from "node:test";
import assert from "node:assert/strict";
import { seededRandom } from "./seeded-random.js";

test("seededRandom repeats its sequence for a seed, differs across seeds, stays in [0, 1)", () => {
  const a = seededRandom(42);
  const b = seededRandom(42);
  const c = seededRandom(43);
  const xs = Array.from({ length: 1000 }, () => a());
  assert.deepEqual(Array.from({ length: 1000 }, () => b()), xs);
  assert.notDeepEqual(Array.from({ length: 1000 }, () => c()), xs);
  assert.ok(xs.every((x) => x >= 0 && x < 1));
  const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
  assert.ok(Math.abs(mean - 0.5) < 0.05, `mean ${mean} far from uniform`);
});
