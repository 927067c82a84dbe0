import { test } from "node:test";
import assert from "node:assert/strict";
import { EMPTY_FRAME, type RecallFrame } from "../model/recall-frame.js";
import type { ContentCandidate } from "./content-recall.js";
import { keepContentBest } from "./content-best-kept.js";

const candidate = (id: string): ContentCandidate => ({ unitId: id, score: 1 });
const ids = (list: readonly ContentCandidate[]) => list.map((c) => c.unitId);

/** Content ranked c1, c2, c3 first; the steps after it put twelve others ahead of them. */
const contentRanking = ["c1", "c2", "c3", ...Array.from({ length: 12 }, (_, i) => `o${i + 1}`)].map(candidate);
const reordered = [...Array.from({ length: 12 }, (_, i) => `o${i + 1}`), "c3", "c2", "c1"].map(candidate);

const personFrame = (query: string): RecallFrame => ({
  ...EMPTY_FRAME(query),
  participants: { names: ["Tim"], evidence: "Tim", confidence: 0.9, note: "known speaker" },
  active: true,
});

test("content's first and second take the ninth and tenth places when the steps put them lower", () => {
  const reasonsOf = new Map<string, string[]>();
  const out = keepContentBest(reordered, contentRanking, personFrame("What language does Tim know besides German?"), reasonsOf);
  assert.deepEqual(ids(out).slice(0, 10), ["o1", "o2", "o3", "o4", "o5", "o6", "o7", "o8", "c1", "c2"]);
  // Nothing is lost: the list keeps its members, in their order otherwise.
  assert.deepEqual(ids(out).slice(10), ["o9", "o10", "o11", "o12", "c3"]);
  assert.deepEqual(reasonsOf.get("c1"), ["kept in the first 10 as content #1"]);
  assert.deepEqual(reasonsOf.get("c2"), ["kept in the first 10 as content #2"]);
  assert.equal(reasonsOf.has("c3"), false);
});

test("what already stands in its place or higher does not move", () => {
  const list = ["o1", "c2", "o2", "o3", "o4", "o5", "o6", "o7", "o8", "o9", "c1"].map(candidate);
  const reasonsOf = new Map<string, string[]>();
  const out = keepContentBest(list, contentRanking, null, reasonsOf);
  // c1 was eleventh: it takes the ninth place; c2, second, stays.
  assert.deepEqual(ids(out), ["o1", "c2", "o2", "o3", "o4", "o5", "o6", "o7", "c1", "o8", "o9"]);
  assert.deepEqual([...reasonsOf.keys()], ["c1"]);
});

test("an aggregating question keeps its spread: nothing moves", () => {
  const frame: RecallFrame = { ...personFrame("How many board games has Tim played?"), aggregates: { evidence: "how many" } };
  const reasonsOf = new Map<string, string[]>();
  assert.deepEqual(ids(keepContentBest(reordered, contentRanking, frame, reasonsOf)), ids(reordered));
  assert.equal(reasonsOf.size, 0);
});

test("a short list keeps its order when content's best are already in it", () => {
  const list = ["o1", "c1", "c2"].map(candidate);
  assert.deepEqual(ids(keepContentBest(list, contentRanking, null, new Map())), ["o1", "c1", "c2"]);
});

test("a frame grounded on the store's structure — a time, a chat role, one occurrence — is not second-guessed", () => {
  const grounded: RecallFrame[] = [
    {
      ...EMPTY_FRAME("What was Sofia's favourite band in 2022?"),
      time: { relation: "during", window: { start: "2022-01-01T00:00:00.000Z", end: "2023-01-01T00:00:00.000Z", granularity: "year" }, evidence: "in 2022", confidence: 0.9, note: "a year" },
      active: true,
    },
    { ...EMPTY_FRAME("Who is my employer these days?"), role: { role: "user", evidence: "my", confidence: 0.8, note: "" }, active: true },
    {
      ...EMPTY_FRAME("Where did we go on our most recent family camping trip?"),
      occurrence: { ordinal: -1, event: "family camping trip", occurrences: [{ episodeId: "s3", time: "2023-06-01T00:00:00.000Z" }], episodeId: "s3", evidence: "most recent", confidence: 0.9, note: "" },
      active: true,
    },
  ];
  for (const frame of grounded) {
    const reasonsOf = new Map<string, string[]>();
    assert.deepEqual(ids(keepContentBest(reordered, contentRanking, frame, reasonsOf)), ids(reordered), frame.need);
    assert.equal(reasonsOf.size, 0);
  }
  // The same time, grounded unsurely, is no reason: content's best are kept.
  const unsure: RecallFrame = { ...grounded[0]!, time: { ...grounded[0]!.time!, confidence: 0.3 }, active: false };
  assert.deepEqual(ids(keepContentBest(reordered, contentRanking, unsure, new Map())).slice(8, 10), ["c1", "c2"]);
});
