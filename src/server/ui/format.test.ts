import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { countOf } from "./web/src/format.js";

describe("the inspector counts in words", () => {
  it("countOf is singular for exactly one, plural otherwise", () => {
    assert.equal(countOf(1, "unit"), "1 unit");
    assert.equal(countOf(0, "unit"), "0 units");
    assert.equal(countOf(2, "session"), "2 sessions");
    assert.equal(countOf(1, "memory", "memories"), "1 memory");
    assert.equal(countOf(3, "memory", "memories"), "3 memories");
  });
});
