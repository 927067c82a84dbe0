import { test } from "node:test";
import assert from "node:assert/strict";
import { CONTENT_SCORE_WEIGHTS, finalScores, rawScore, type ScoreFeatures } from "./final-score.js";
import { CONTENT_ONLY } from "./recall-pipeline.js";
import { openMemory } from "../open-memory.js";
import type { ReinstatedCandidate } from "./reinstate.js";

const candidate = (id: string, lexical: number | null, dense: number, contextReasons: string[] = []): ReinstatedCandidate =>
  ({ unitId: id, score: 0, ...(lexical === null ? {} : { lexical: { rank: 1, score: lexical } }), dense: { rank: 1, score: dense }, contextReasons }) as ReinstatedCandidate;

const base: ScoreFeatures = { rank: 1, lexicalShare: 1, cosine: 0.5, context: false, keyShare: 0.5, poolSize: 100 };

test("a memory holding more of the query's key words, and a smaller pool of candidates, each score higher", () => {
  assert.ok(rawScore({ ...base, keyShare: 1 }) > rawScore(base));
  assert.ok(rawScore({ ...base, poolSize: 10 }) > rawScore(base));
  // A pool at or above its depth of 100 reads as a large store, however large.
  assert.equal(rawScore({ ...base, poolSize: 100 }), rawScore({ ...base, poolSize: 5000 }));
  assert.ok(rawScore({ ...base, rank: 5 }) < rawScore(base));
});

test("finalScores never rise down the list and read each unit's key-word share and the pool size", () => {
  const ranked = [candidate("a", null, 0.3, ["states the residence valid now"]), candidate("b", 2, 0.6), candidate("c", 1, 0.2)];
  const shares: Record<string, number> = { a: 0.2, b: 1, c: 0.5 };
  const scores = finalScores(ranked, { keyShareOf: (id) => shares[id]!, poolSize: 12 });
  assert.equal(scores.length, 3);
  for (let i = 1; i < scores.length; i++) assert.ok(scores[i]! <= scores[i - 1]!, `${scores}`);
  // The second hit is the stronger one, but cut to the first's score: the list's order is the ranking's.
  assert.equal(scores[1], scores[0]);
  assert.ok(finalScores(ranked, { keyShareOf: (id) => shares[id]!, poolSize: 100 })[0]! < scores[0]!);
  for (const s of scores) assert.ok(s >= 0 && s <= 1);
});

test("a statement ranked above one it superseded scores on the stronger evidence of the two; below it, on its own", () => {
  // "I moved to Porto" (no word of "Where do I live now?") ranked first by the state rules, above "I live in Lisbon".
  const ranked = [candidate("porto", null, 0.2, ["said by the user, supersedes lisbon"]), candidate("lisbon", 3, 0.7, ["said by the user"]), candidate("ana", 2, 0.6, ["said by the user"])];
  const shares: Record<string, number> = { porto: 0, lisbon: 1, ana: 1 };
  const supersededByOf = (id: string) => (id === "lisbon" ? "porto" : null);
  const plain = finalScores(ranked, { keyShareOf: (id) => shares[id]!, poolSize: 9 });
  const lifted = finalScores(ranked, { keyShareOf: (id) => shares[id]!, poolSize: 9, supersededByOf });
  assert.equal(plain[1], plain[0], "without it the weak first hit caps the rest");
  assert.ok(lifted[0]! > plain[0]! && lifted[0]! > lifted[1]!, `${lifted} vs ${plain}`);
  assert.ok(lifted[1]! > plain[1]!, "the hits below are no longer capped by the weak first one");
  // Ranked below what it superseded (a question about then), the successor keeps its own evidence.
  const pastOrder = [ranked[1]!, ranked[2]!, ranked[0]!];
  assert.deepEqual(finalScores(pastOrder, { keyShareOf: (id) => shares[id]!, poolSize: 9, supersededByOf }), finalScores(pastOrder, { keyShareOf: (id) => shares[id]!, poolSize: 9 }));
});

test("a ranking in content order has its own fit: its context-free hits score lower than RaMem's model would put them", () => {
  const contentOnly = [candidate("a", 2, 0.6), candidate("b", 1, 0.4)];
  const own = finalScores(contentOnly, { weights: CONTENT_SCORE_WEIGHTS, keyShareOf: () => 1 });
  const borrowed = finalScores(contentOnly, { keyShareOf: () => 1 });
  assert.ok(own[0]! < borrowed[0]!, `${own} vs ${borrowed}`);
});

test("recall scores a content-only ranking with the content model, RaMem's with its own", async () => {
  const memory = await openMemory({ db: ":memory:", embedder: "hash", env: {} });
  try {
    await memory.add([{ role: "user", content: "My cat Luna keeps me company." }, { role: "user", content: "I work as a nurse." }]);
    const ramem = await memory.recall("What is my cat's name?");
    const content = await memory.recall("What is my cat's name?", { switches: CONTENT_ONLY });
    assert.equal(content.hits[0]!.unit.id, ramem.hits[0]!.unit.id);
    assert.notEqual(content.hits[0]!.score, ramem.hits[0]!.score, "two rankings, two fits");
  } finally {
    await memory.close();
  }
});
