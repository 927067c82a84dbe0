import { test } from "node:test";
import assert from "node:assert/strict";
import type { MemoryUnit } from "../model/memory-unit.js";
import { EMPTY_FRAME, type RecallFrame } from "../model/recall-frame.js";
import type { ContentCandidate } from "./content-recall.js";
import { newestRivalFirst } from "./newest-rival-first.js";

/** A turn of "Ann" said on `day`, with no state read from it. */
function said(id: string, day: string, content: string): MemoryUnit {
  const at = `${day}T10:00:00.000Z`;
  return {
    id,
    content,
    context: { participants: ["Ann"], session: { sessionId: id, start: at, end: at }, saidAt: at, eventTime: null, mentionedTimes: [], states: [] },
  } as unknown as MemoryUnit;
}

/** A candidate both channels rank: lexical `lex`, dense `dense`. */
function ranked(id: string, lex: number | null, dense: number | null, score: number): ContentCandidate {
  return { unitId: id, score, ...(lex ? { lexical: { rank: lex, score: 1 / lex } } : {}), ...(dense ? { dense: { rank: dense, score: 1 / dense } } : {}) };
}

const frameSaying = (cue: string): RecallFrame => ({ ...EMPTY_FRAME("What phone is Ann using now?"), currentState: { evidence: cue }, active: true });

const units = [
  said("old", "2023-01-10", "Ann: My Fairphone is dead by 3pm every day."),
  said("aside", "2023-06-01", "Ann: The weather was lovely at the coast."),
  said("asks", "2023-12-01", "Ann: Should I get a new phone case?"),
  said("new", "2023-09-10", "Ann: Four months in with the iPhone and I still miss the headphone jack."),
  said("mid", "2023-04-02", "Ann: The Fairphone's battery is fine again after the repair."),
];
const byId = new Map(units.map((u) => [u.id, u]));
const ordered = [ranked("old", 1, 2, 0.9), ranked("aside", 30, 6, 0.5), ranked("asks", 2, 1, 0.45), ranked("new", 4, 5, 0.4), ranked("mid", 5, 40, 0.3)];

test("a question saying now: the newest statement both channels rank alike takes the best one's place; the rest keep their order", () => {
  const reasons = new Map<string, string[]>();
  const out = newestRivalFirst(ordered, frameSaying("now"), (id) => byId.get(id), new Set(), 10, reasons);
  // "asks" is newer but a question; "aside" and "mid" are ranked by one channel only, neither among its first 3: none is a rival.
  assert.deepEqual(out.map((c) => c.unitId), ["new", "old", "aside", "asks", "mid"]);
  assert.match(reasons.get("new")![0]!, /the newest of 2 memories that match the question alike \(said 2023-09-10\)/);
  assert.equal(out.length, ordered.length, "a reordering: every candidate stays");
});

test("the subject's own statements are the rivals when any rival is context-valid", () => {
  const out = newestRivalFirst(ordered, frameSaying("now"), (id) => byId.get(id), new Set(["old"]), 10, new Map());
  assert.deepEqual(out.map((c) => c.unitId), ordered.map((c) => c.unitId), "one context-valid rival: nothing to choose between");
});

test("a count asked with 'now' ('how many records does she have at the moment?') is a value that changed: the newest first", () => {
  const count = { ...frameSaying("at the moment"), aggregates: { evidence: "How many" } } as RecallFrame;
  assert.deepEqual(newestRivalFirst(ordered, count, (id) => byId.get(id), new Set(), 10, new Map()).map((c) => c.unitId), ["new", "old", "aside", "asks", "mid"]);
});

test("no change without a 'now' cue (a count in the present tense included), at depth 0, or when the rivals lie outside the depth", () => {
  const unit = (id: string) => byId.get(id);
  const ids = ordered.map((c) => c.unitId);
  assert.deepEqual(newestRivalFirst(ordered, frameSaying("present tense"), unit, new Set(), 10, new Map()).map((c) => c.unitId), ids);
  assert.deepEqual(newestRivalFirst(ordered, { ...frameSaying("present tense"), aggregates: { evidence: "how many" } } as RecallFrame, unit, new Set(), 10, new Map()).map((c) => c.unitId), ids);
  assert.deepEqual(newestRivalFirst(ordered, frameSaying("now"), unit, new Set(), 0, new Map()).map((c) => c.unitId), ids);
  assert.deepEqual(newestRivalFirst(ordered, frameSaying("now"), unit, new Set(), 3, new Map()).map((c) => c.unitId), ids, "'new' ranks 4th and 5th: no rival at depth 3");
  assert.deepEqual(newestRivalFirst(ordered, null, unit, new Set(), 10, new Map()).map((c) => c.unitId), ids);
});

test("a turn that tells something before its question is a rival; one that only asks is not", () => {
  const told = [
    said("old", "2023-01-10", "Ann: My Fairphone is dead by 3pm every day."),
    said("toldThenAsked", "2023-06-24", "Ann: The Fairphone died for real, I dropped it in the sea. I've got a secondhand iPhone 13 now. How do I move my chats over?"),
    said("commaAsk", "2023-07-01", "Ann: I've had this iPhone for a week, is it worth a case?"),
    said("onlyAsks", "2023-12-01", "Ann: Hey! Should I get a new phone case?"),
  ];
  const byTold = new Map(told.map((u) => [u.id, u]));
  const list = [ranked("old", 1, 1, 0.9), ranked("onlyAsks", 2, 2, 0.8), ranked("toldThenAsked", 3, 3, 0.7)];
  assert.deepEqual(newestRivalFirst(list, frameSaying("now"), (id) => byTold.get(id), new Set(), 10, new Map()).map((c) => c.unitId), ["toldThenAsked", "old", "onlyAsks"]);
  const withComma = [ranked("old", 1, 1, 0.9), ranked("commaAsk", 2, 2, 0.8)];
  assert.deepEqual(newestRivalFirst(withComma, frameSaying("now"), (id) => byTold.get(id), new Set(), 10, new Map()).map((c) => c.unitId), ["commaAsk", "old"]);
});

test("a memory of the frame's subject that one channel ranks among its first three is a rival, though the other does not rank it", () => {
  const dose = [
    said("start", "2022-05-01", "Ann: My GP put me on lisinopril 10 mg."),
    said("doubled", "2022-10-01", "Ann: The GP doubled my dose of lisinopril to 20 mg."),
    said("back", "2024-03-20", "Ann: My GP dropped me back down to 10 mg in March."),
  ];
  const byDose = new Map(dose.map((u) => [u.id, u]));
  const ann = new Set(["doubled", "start", "back"]);
  const list = [ranked("doubled", 2, 6, 0.9), ranked("start", 1, 1, 0.8), ranked("back", null, 2, 0.5)];
  assert.deepEqual(newestRivalFirst(list, frameSaying("now"), (id) => byDose.get(id), ann, 10, new Map()).map((c) => c.unitId), ["back", "doubled", "start"]);
  // Not the subject's (in a small store one channel ranks nearly everything among its first three): no rival.
  assert.deepEqual(newestRivalFirst(list, frameSaying("now"), (id) => byDose.get(id), new Set(["doubled", "start"]), 10, new Map()).map((c) => c.unitId), ["doubled", "start", "back"]);
  // Dense 4th and no lexical rank: no rival; the newest of the other two is already first.
  const weaker = [ranked("doubled", 2, 6, 0.9), ranked("start", 1, 1, 0.8), ranked("back", null, 4, 0.5)];
  assert.deepEqual(newestRivalFirst(weaker, frameSaying("now"), (id) => byDose.get(id), ann, 10, new Map()).map((c) => c.unitId), ["doubled", "start", "back"]);
});
