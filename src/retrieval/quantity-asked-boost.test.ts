import { test } from "node:test";
import assert from "node:assert/strict";
import { EMPTY_FRAME, type RecallFrame } from "../model/recall-frame.js";
import { makeSession, makeUnit } from "../store/testing/make-unit.js";
import { boostedScores } from "./testing/boosted-scores.js";
import { boostQuantifiedUnits } from "./quantity-asked-boost.js";

const session = makeSession();
const units = [
  makeUnit(session, 1, { id: "digits", content: "I've got 10 neon tetras in the big tank." }),
  makeUnit(session, 2, { id: "words", content: "Twelve guppies now, and the snails." }),
  makeUnit(session, 3, { id: "money", content: "The filter cost me $45." }),
  makeUnit(session, 4, { id: "none", content: "One of my friends keeps fish too, no one else does." }),
];
const asking = (asksFor: RecallFrame["asksFor"]): RecallFrame => ({ ...EMPTY_FRAME("How many fish do I have?"), asksFor });

const boosted = (frame: RecallFrame | null, bonus = 0.025) => boostedScores(boostQuantifiedUnits, units, frame, bonus);

test("a question that asks how many lifts the units that state a number (digits, words, an amount), with the reason", () => {
  const { scores, reasons } = boosted(asking("quantity"));
  assert.deepEqual(scores, { digits: 0.525, words: 0.525, money: 0.525, none: 0.5 });
  assert.deepEqual(reasons.get("words"), ["states a number, as the query asks how much"]);
  assert.equal(reasons.get("none"), undefined, '"one of my friends" states no number');
});

test("nothing moves for another kind of question, with no frame, or with the bonus off", () => {
  for (const [frame, bonus] of [[asking("time"), 0.025], [asking("place"), 0.025], [null, 0.025], [asking("quantity"), 0]] as const) {
    assert.deepEqual(Object.values(boosted(frame, bonus).scores), [0.5, 0.5, 0.5, 0.5]);
  }
});
