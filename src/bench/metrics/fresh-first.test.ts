import { test } from "node:test";
import assert from "node:assert/strict";
import { freshFirst } from "./fresh-first.js";

test("fresh-first: the newest evidence session must rank above every older one", () => {
  const answers = [{ id: "old", date: "2023-01-01" }, { id: "new", date: "2023-06-01" }];
  assert.deepEqual(freshFirst([{ rankedSessions: ["x", "new", "old"], answerSessions: answers }]), { n: 1, freshFirst: 1 });
  assert.deepEqual(freshFirst([{ rankedSessions: ["old", "new"], answerSessions: answers }]), { n: 1, freshFirst: 0 });
  assert.deepEqual(freshFirst([{ rankedSessions: ["old"], answerSessions: answers }]), { n: 1, freshFirst: 0 }, "the newest missing ranks last");
  assert.deepEqual(freshFirst([{ rankedSessions: ["new"], answerSessions: answers }]), { n: 1, freshFirst: 1 });
  assert.deepEqual(freshFirst([{ rankedSessions: ["a"], answerSessions: [answers[0]!] }]), { n: 0, freshFirst: Number.NaN }, "one evidence session: not counted");
});
