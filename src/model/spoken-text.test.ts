import { test } from "node:test";
import assert from "node:assert/strict";
import { spokenText } from "./spoken-text.js";

test("spokenText: the source turns' words joined, else the content", () => {
  const turn = (text: string) => ({ id: "t", speaker: "Ann", text });
  assert.equal(spokenText({ content: "Ann: I went (7 May 2023).", source: [turn("I went."), turn("It was fun.")] }), "I went. It was fun.");
  assert.equal(spokenText({ content: "Ann: I went." }), "Ann: I went.");
  assert.equal(spokenText({ content: "Ann: I went.", source: [] }), "Ann: I went.");
});
