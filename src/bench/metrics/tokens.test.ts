import { test } from "node:test";
import assert from "node:assert/strict";
import { countTokens } from "./tokens.js";

test("counts o200k_base tokens", () => {
  assert.equal(countTokens(""), 0);
  assert.equal(countTokens("hello world"), 2);
  // Pins the encoding: o200k_base gives 6 here, cl100k_base would give 8.
  assert.equal(countTokens("Привет, как дела?"), 6);
});

test("special-token text is counted, not rejected", () => {
  assert.ok(countTokens("a <|endoftext|> b") > 0);
});
