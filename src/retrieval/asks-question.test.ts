import { test } from "node:test";
import assert from "node:assert/strict";
import { asksQuestion } from "./asks-question.js";

test("a turn that ends in a question asks one, attachments aside", () => {
  assert.equal(asksQuestion({ content: "Caroline: Thanks, Melanie! You play any instruments?" }), true);
  assert.equal(asksQuestion({ content: "Melanie: What a view? [shares an image: a photo of a lake]" }), true);
  assert.equal(asksQuestion({ content: "Melanie: Look! [shares an image: a lake?] [shares an image: a dog]" }), false);
});

test("a question in the middle of a statement does not make the turn a question", () => {
  assert.equal(asksQuestion({ content: "Melanie: Guess what? I play the clarinet." }), false);
  assert.equal(asksQuestion({ content: "Melanie: Yeah, I play clarinet! [shares an image: sheet music]" }), false);
  assert.equal(asksQuestion({ content: "" }), false);
});
