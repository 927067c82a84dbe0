import { test } from "node:test";
import assert from "node:assert/strict";
import { scoredHits, scoreReliability } from "./score-reliability.js";

test("a calibrated score has ECE 0: each band's evidence share equals its mean score", () => {
  const hits = [
    ...Array.from({ length: 10 }, () => ({ score: 0.05, evidence: false })), // 0 of 10, but mean 0.05
    ...Array.from({ length: 4 }, (_, i) => ({ score: 0.75, evidence: i < 3 })), // 3 of 4 = 0.75
  ];
  const r = scoreReliability(hits);
  assert.equal(r.hits, 14);
  assert.equal(r.bands.length, 2);
  assert.deepEqual(r.bands.map((b) => [b.from, b.hits]), [[0, 10], [0.7, 4]]);
  assert.equal(r.bands[1]!.evidenceShare, 0.75);
  // Only the low band is off, by 0.05 on 10 of 14 hits.
  assert.ok(Math.abs(r.ece - (10 * 0.05) / 14) < 1e-12);
  assert.ok(Math.abs(r.baseRate - 3 / 14) < 1e-12);
});

test("a score of 1 falls in the last band; an overconfident score shows as a large ECE", () => {
  const r = scoreReliability([{ score: 1, evidence: false }, { score: 0.95, evidence: false }]);
  assert.equal(r.bands.length, 1);
  assert.equal(r.bands[0]!.hits, 2);
  assert.ok(Math.abs(r.ece - 0.975) < 1e-12);
  assert.ok(Number.isNaN(scoreReliability([]).ece));
});

test("scoredHits: a question's top hits, evidence when one covers an evidence turn", () => {
  const hit = (score: number, turnIds: string[]) => ({ score, unit: { provenance: { turnIds } } });
  assert.deepEqual(scoredHits([hit(0.9, ["D1:2"]), hit(0.5, ["D1:3", "D1:4"]), hit(0.1, ["D1:4"])], ["D1:4"], 2), [
    { score: 0.9, evidence: false },
    { score: 0.5, evidence: true },
  ]);
});
