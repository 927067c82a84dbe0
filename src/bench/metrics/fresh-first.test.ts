import { test } from "node:test";
import assert from "node:assert/strict";
import { freshFirst, freshFirstPerType, olderEvidenceMarked } from "./fresh-first.js";

test("fresh-first: the newest evidence session must rank above every older one", () => {
  const answers = [{ id: "old", date: "2023-01-01" }, { id: "new", date: "2023-06-01" }];
  assert.deepEqual(freshFirst([{ rankedSessions: ["x", "new", "old"], answerSessions: answers }]), { n: 1, freshFirst: 1 });
  assert.deepEqual(freshFirst([{ rankedSessions: ["old", "new"], answerSessions: answers }]), { n: 1, freshFirst: 0 });
  assert.deepEqual(freshFirst([{ rankedSessions: ["old"], answerSessions: answers }]), { n: 1, freshFirst: 0 }, "the newest missing ranks last");
  assert.deepEqual(freshFirst([{ rankedSessions: ["new"], answerSessions: answers }]), { n: 1, freshFirst: 1 });
  assert.deepEqual(freshFirst([{ rankedSessions: ["a"], answerSessions: [answers[0]!] }]), { n: 0, freshFirst: Number.NaN }, "one evidence session: not counted");
});

test("fresh-first per type: every type with a question of two or more answer sessions, scored apart", () => {
  const two = [{ id: "old", date: "2023-01-01" }, { id: "new", date: "2023-06-01" }];
  const rows = [
    { questionType: "knowledge-update", rankedSessions: ["new", "old"], answerSessions: two },
    { questionType: "knowledge-update", rankedSessions: ["old", "new"], answerSessions: two },
    { questionType: "multi-session", rankedSessions: ["new", "old"], answerSessions: two },
    { questionType: "single-session-user", rankedSessions: ["old"], answerSessions: [two[0]!] },
  ];
  assert.deepEqual(freshFirstPerType(rows), {
    "knowledge-update": { n: 2, freshFirst: 0.5 },
    "multi-session": { n: 1, freshFirst: 1 },
  });
  assert.deepEqual(freshFirstPerType(rows.filter((r) => r.questionType === "knowledge-update"))["knowledge-update"], freshFirst(rows.slice(0, 2)), "the knowledge-update entry is the headline figure");
});

test("older evidence marked earlier: per hit covering an older answer session's evidence turn, in the top 10", () => {
  const answerSessions = [{ id: "s1", date: "2023-01-01" }, { id: "s2", date: "2023-03-01" }, { id: "s3", date: "2023-06-01" }];
  const evidence = [{ turnId: "t1", sessionId: "s1" }, { turnId: "t2", sessionId: "s2" }, { turnId: "t3", sessionId: "s3" }];
  const valid = { validTo: null, supersededBy: null };
  const hits = [
    { sessionId: "s3", turnIds: ["t3"], validity: { validTo: "2023-07-01", supersededBy: "u9" } }, // newest session: not counted, however marked
    { sessionId: "s1", turnIds: ["t1"], validity: { validTo: "2023-03-01", supersededBy: "u2" } }, // older, marked
    { sessionId: "s2", turnIds: ["x", "t2"], validity: valid }, // older, still valid: not marked
    { sessionId: "s1", turnIds: ["t1b"], validity: { validTo: "2023-03-01", supersededBy: null } }, // older session, not an evidence turn: not counted
    { sessionId: "s2", turnIds: ["t2"] }, // older, no validity at all: not marked
    { sessionId: "s1", turnIds: ["t1"], validity: { validTo: null, supersededBy: "u3" } }, // older, superseded without an end: marked
  ];
  assert.deepEqual(olderEvidenceMarked([{ hits, answerSessions, evidence }]), { n: 4, markedEarlier: 0.5 });
  // Only the top 10 are read.
  const padded = [...Array.from({ length: 10 }, () => ({ sessionId: "s9", turnIds: ["z"] })), hits[2]!];
  assert.deepEqual(olderEvidenceMarked([{ hits: padded, answerSessions, evidence }]), { n: 0, markedEarlier: Number.NaN });
  assert.deepEqual(olderEvidenceMarked([{ hits: padded, answerSessions, evidence }], 11), { n: 1, markedEarlier: 0 });
  // One answer session: nothing older to mark.
  assert.deepEqual(olderEvidenceMarked([{ hits, answerSessions: [answerSessions[0]!], evidence }]), { n: 0, markedEarlier: Number.NaN });
  // A turn id shared by two sessions counts only in the session that holds the evidence.
  assert.deepEqual(olderEvidenceMarked([{ hits: [{ sessionId: "s3", turnIds: ["t1"], validity: valid }], answerSessions, evidence }]), { n: 0, markedEarlier: Number.NaN });
  // Counted over questions, per hit.
  const q2 = { hits: [{ sessionId: "a", turnIds: ["a1"], validity: { validTo: "2024-01-01", supersededBy: "b" } }], answerSessions: [{ id: "a", date: "2023-01-01" }, { id: "b", date: "2024-01-01" }], evidence: [{ turnId: "a1", sessionId: "a" }] };
  assert.deepEqual(olderEvidenceMarked([{ hits, answerSessions, evidence }, q2]), { n: 5, markedEarlier: 0.6 });
});
