import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { ECHO_MAX_CHARS, echoValue } from "./echo-value.js";
import { MAX_ERROR_TEXT_CHARS, RamemError } from "./errors.js";

describe("echoed values in error messages", () => {
  it("echoValue quotes short values whole and cuts long ones to 200 characters, saying how long they were", () => {
    assert.equal(echoValue('a "b"\nc'), '"a \\"b\\"\\nc"');
    const huge = "x".repeat(10_000_000);
    const echoed = echoValue(huge);
    assert.equal(echoed, `"${"x".repeat(ECHO_MAX_CHARS)}"… (10,000,000 characters)`);
  });

  it("RamemError cuts any message, where or hint that still grew past 2,000 characters", () => {
    const huge = "y".repeat(10_000_000);
    const err = new RamemError("X", `bad ${huge}`, { where: huge, hint: huge });
    for (const text of [err.message, err.where!, err.hint!]) {
      assert.ok(text.length < MAX_ERROR_TEXT_CHARS + 100, String(text.length));
      assert.match(text, /… \(9,998,00\d more characters cut\)$/);
    }
    assert.ok(err.describe().length < 3 * (MAX_ERROR_TEXT_CHARS + 100));
  });
});
