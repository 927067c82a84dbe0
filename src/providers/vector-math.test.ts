import { test } from "node:test";
import assert from "node:assert/strict";
import { cosine } from "./vector-math.js";

test("cosine: the angle, whatever the lengths; 0 for a zero vector", () => {
  const v = (...xs: number[]) => Float32Array.from(xs);
  assert.ok(Math.abs(cosine(v(1, 0), v(3, 0)) - 1) < 1e-9);
  assert.ok(Math.abs(cosine(v(1, 0), v(0, 2))) < 1e-9);
  assert.ok(Math.abs(cosine(v(1, 1), v(2, 0)) - Math.SQRT1_2) < 1e-6);
  assert.ok(Math.abs(cosine(v(1, 0), v(-5, 0)) + 1) < 1e-9);
  assert.equal(cosine(v(0, 0), v(1, 0)), 0);
});
