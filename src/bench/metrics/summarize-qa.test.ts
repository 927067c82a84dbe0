import { test } from "node:test";
import assert from "node:assert/strict";
import { summarizeQa } from "./summarize-qa.js";

test("macro average over categories 1–4, category 5 apart", () => {
  const s = summarizeQa([
    { category: 1, official: 1, simplemem: 0.5 },
    { category: 1, official: 0, simplemem: 0.5 },
    { category: 2, official: 0.5, simplemem: 1 },
    { category: 4, official: 0.25, simplemem: 0 },
    { category: 4, official: 0.75, simplemem: 0 },
    { category: 4, official: 0.5, simplemem: 0 },
    { category: 5, official: 1, simplemem: 0.9 },
    { category: 5, official: 0, simplemem: 0.1 },
  ]);
  // Per category (official / simplemem): c1 0.5 / 0.5, c2 0.5 / 1, c4 0.5 / 0, c5 0.5 / 0.5.
  assert.deepEqual(s.perCategory[1], { n: 2, official: 0.5, simplemem: 0.5 });
  assert.deepEqual(s.perCategory[4], { n: 3, official: 0.5, simplemem: 0 });
  assert.deepEqual(s.perCategory[5], { n: 2, official: 0.5, simplemem: 0.5 });
  // Category 3 absent → average over the 3 present: official (0.5+0.5+0.5)/3 = 0.5;
  // SimpleMem (0.5+1+0)/3 = 0.5 — the question-weighted mean would be (0.5+0.5+1+0+0+0)/6 = 1/3.
  assert.equal(s.official.average, 0.5);
  assert.equal(s.official.category5, 0.5);
  assert.equal(s.simplemem.average, 0.5);
});

test("no rows → NaN", () => {
  const s = summarizeQa([]);
  assert.ok(Number.isNaN(s.official.average));
  assert.ok(Number.isNaN(s.official.category5));
  assert.ok(Number.isNaN(s.simplemem.average));
});
