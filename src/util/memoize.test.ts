import { test } from "node:test";
import assert from "node:assert/strict";
import { memoize } from "./memoize.js";

test("memoize calls the function once per argument and returns what it returned, undefined and null included", () => {
  const calls: string[] = [];
  const f = memoize((s: string) => (calls.push(s), s === "none" ? undefined : s === "null" ? null : s.length));
  assert.equal(f("abc"), 3);
  assert.equal(f("abc"), 3);
  assert.equal(f("none"), undefined);
  assert.equal(f("none"), undefined);
  assert.equal(f("null"), null);
  assert.equal(f("null"), null);
  assert.deepEqual(calls, ["abc", "none", "null"]);
  // Another memoized copy remembers nothing of the first.
  memoize((s: string) => (calls.push(s), s))("abc");
  assert.deepEqual(calls, ["abc", "none", "null", "abc"]);
});
