import { test } from "node:test";
import assert from "node:assert/strict";
import { countWords, lexicalTerms, sentencesOf } from "./text.js";

test("question scaffolding and stopwords are removed", () => {
  assert.deepEqual(lexicalTerms("When did Caroline go to the LGBTQ support group?"), ["caroline", "go", "lgbtq", "support", "group"]);
  assert.deepEqual(lexicalTerms("What does Melanie do? Who is she?"), ["melanie"]);
});

test("punctuation stripped, lowercased, deduplicated in first-seen order", () => {
  assert.deepEqual(lexicalTerms("Pottery!! pottery, POTTERY... and painting."), ["pottery", "painting"]);
});

test("numbers are kept, possessives reduced, inner hyphens kept", () => {
  assert.deepEqual(lexicalTerms("Caroline's 3 kids ran a 5-k in 2019"), ["caroline", "3", "kids", "ran", "5-k", "2019"]);
});

test("no stemming: the store's porter tokenizer does that", () => {
  assert.deepEqual(lexicalTerms("running painted"), ["running", "painted"]);
});

test("non-English letters survive", () => {
  assert.deepEqual(lexicalTerms("Café in Zürich"), ["café", "zürich"]);
});

test("countWords counts word tokens, not punctuation", () => {
  assert.equal(countWords("Hey Mel! I went -- to Boston."), 6);
  assert.equal(countWords("   "), 0);
  assert.equal(countWords("don't stop"), 2);
});

test("a turn's sentences end at . ! or ? and at line breaks", () => {
  assert.deepEqual(sentencesOf("We went! It rained. Fun?\n- a tent\n- a stove"), ["We went!", "It rained.", "Fun?", "- a tent", "- a stove"]);
  assert.deepEqual(sentencesOf("3.5 km, no break"), ["3.5 km, no break"]);
});
