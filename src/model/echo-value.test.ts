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

describe("echoValue of a value that is no string (a JavaScript caller's)", () => {
  it("names its kind instead of throwing", () => {
    const cases: Array<[unknown, string]> = [
      [undefined, "undefined"],
      [null, "null"],
      [42, "the number 42"],
      [new Date(0), "a Date"],
      [{ toString: () => { throw new Error("boom"); } }, "an object"],
      [Object.create(null), "an object"],
      [[1, 2], "a list of 2"],
      [Symbol("s"), "a symbol"],
    ];
    for (const [value, expected] of cases) assert.equal(echoValue(value as string), expected);
  });
});
