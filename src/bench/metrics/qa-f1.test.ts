import { test } from "node:test";
import assert from "node:assert/strict";
import { officialLocomoF1, simpleMemF1 } from "./qa-f1.js";

const close = (actual: number, expected: number) => assert.ok(Math.abs(actual - expected) < 1e-12, `${actual} ≠ ${expected}`);

test("official: stemming conflates 'running' and 'runs'", () => {
  // pred "He was running." → he, was, running → stems he, wa, run; gold runs → run.
  // common 1 → P 1/3, R 1 → F1 = 2·(1/3)·1 / (4/3) = 0.5.
  close(officialLocomoF1("He was running.", "runs", 4), 0.5);
  // SimpleMem does not stem: {he, was, running} ∩ {runs} = ∅ → 0.
  assert.equal(simpleMemF1("He was running.", "runs"), 0);
});

test("official drops a/an/the/and as whole words only; SimpleMem keeps them", () => {
  // "The cat and a dog" → "cat dog" = gold → 1.
  assert.equal(officialLocomoF1("The cat and a dog", "cat dog", 4), 1);
  // SimpleMem: {the, cat, and, a, dog} vs {cat, dog}: P 2/5, R 1 → 2·0.4/1.4 = 4/7.
  close(simpleMemF1("The cat and a dog", "cat dog"), 4 / 7);
  // "an" inside "another" must survive: "another" vs "other" share nothing → 0.
  assert.equal(officialLocomoF1("another", "other", 4), 0);
  // A combining mark is a word character (as in Python's regex), so "the\u0301" is not an article.
  assert.equal(officialLocomoF1("the\u0301", "the\u0301", 4), 1);
});

test("multiset (official) vs set (SimpleMem) overlap", () => {
  // official: pred [pari, pari], gold [pari] → common min(2,1) = 1 → P 1/2, R 1 → 2/3.
  close(officialLocomoF1("Paris Paris", "Paris", 4), 2 / 3);
  // SimpleMem: {paris} vs {paris} → 1.
  assert.equal(simpleMemF1("Paris Paris", "Paris"), 1);
  // official: [pari] vs [pari, pari, london] → P 1, R 1/3 → 0.5; SimpleMem: {paris} vs {paris, london} → P 1, R 1/2 → 2/3.
  close(officialLocomoF1("Paris", "Paris Paris London", 4), 0.5);
  close(simpleMemF1("Paris", "Paris Paris London"), 2 / 3);
});

test("official category 1 splits gold and prediction on commas", () => {
  const gold = "painting, hiking, swimming";
  // No comma in the prediction → one part: she, like, hike, paint (4 tokens, "and" dropped).
  // gold parts: paint → P 1/4, R 1 → 0.4; hike → 0.4; swim → 0. Mean = 0.8/3.
  close(officialLocomoF1("She likes hiking and painting", gold, 1), 0.8 / 3);
  // Comma-separated prediction → parts "hiking", "painting": max per gold part 1, 1, 0 → 2/3.
  close(officialLocomoF1("hiking, painting", gold, 1), 2 / 3);
  // The same pair as a single-hop question is one bag: [hike, paint] vs [paint, hike, swim] → P 1, R 2/3 → 0.8.
  close(officialLocomoF1("hiking, painting", gold, 4), 0.8);
});

test("official removes commas without a space; SimpleMem turns them into spaces", () => {
  // "1,000" → "1000" = gold → 1.
  assert.equal(officialLocomoF1("1,000", "1000", 4), 1);
  // SimpleMem: {1, 000} vs {1000} → 0.
  assert.equal(simpleMemF1("1,000", "1000"), 0);
});

test("official category 3 cuts the gold at the first ';'", () => {
  const gold = "Likely yes; she mentioned her love of nature";
  // Cut gold "Likely yes" → [like, ye]; pred "yes" → [ye] → P 1, R 1/2 → 2/3.
  close(officialLocomoF1("yes", gold, 3), 2 / 3);
  // Uncut (category 4): gold has 8 tokens → P 1, R 1/8 → 2·(1/8)/(9/8) = 2/9.
  close(officialLocomoF1("yes", gold, 4), 2 / 9);
});

test("official category 5 looks only for the abstention phrases", () => {
  assert.equal(officialLocomoF1("Not mentioned in the conversation.", "anything", 5), 1);
  assert.equal(officialLocomoF1("NO INFORMATION AVAILABLE", "", 5), 1);
  assert.equal(officialLocomoF1("The information is not available.", "x", 5), 0);
  assert.equal(officialLocomoF1("", "x", 5), 0);
});

test("empty predictions and golds score 0; numeric gold is stringified", () => {
  assert.equal(officialLocomoF1("", "Paris", 4), 0);
  assert.equal(officialLocomoF1("", "a, b", 1), 0);
  assert.equal(officialLocomoF1("Paris", "", 2), 0);
  assert.equal(officialLocomoF1("the", "a", 4), 0); // both normalise to nothing
  assert.equal(simpleMemF1("", "Paris"), 0);
  assert.equal(simpleMemF1("Paris", ""), 0);
  assert.equal(simpleMemF1("", ""), 0);
  assert.equal(simpleMemF1(" . , ! ? ", "x"), 0);
  // "In 2022." → [in, 2022] vs [2022] → P 1/2, R 1 → 2/3, for both variants.
  close(officialLocomoF1("In 2022.", 2022, 2), 2 / 3);
  close(simpleMemF1("In 2022.", 2022), 2 / 3);
});

test("SimpleMem strips only . , ! ? — other punctuation stays on the token", () => {
  // {"paris"} vs {"paris"}: '!' and '.' become spaces → 1.
  assert.equal(simpleMemF1("Paris!", "paris."), 1);
  // ':' is not stripped: {"paris:"} vs {"paris"} → 0; official strips it → 1.
  assert.equal(simpleMemF1("Paris:", "Paris"), 0);
  assert.equal(officialLocomoF1("Paris:", "Paris", 4), 1);
});

test("official rejects unknown categories", () => {
  assert.throws(() => officialLocomoF1("x", "x", 6), RangeError);
});
