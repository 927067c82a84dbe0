import { test } from "node:test";
import assert from "node:assert/strict";
import { EMPTY_FRAME, type RecallFrame } from "../model/recall-frame.js";
import { makeSession, makeUnit } from "../store/testing/make-unit.js";
import type { MemoryUnit } from "../model/memory-unit.js";
import { boostedScores } from "./testing/boosted-scores.js";
import { boostTimedUnits } from "./time-asked-boost.js";

const session = makeSession();
const timed: MemoryUnit = { ...makeUnit(session, 1, { id: "timed", content: "We moved in May." }), context: { ...makeUnit(session, 1).context, eventTime: { start: "2023-05-01T00:00:00.000Z", end: "2023-06-01T00:00:00.000Z", granularity: "month" } } };
const units = [
  timed,
  makeUnit(session, 2, { id: "minutes", content: "It's 25 minutes on the number 4 tram now." }),
  makeUnit(session, 3, { id: "words", content: "An hour and a half, door to door, a couple of weeks ago it was worse." }),
  makeUnit(session, 4, { id: "none", content: "The tram is always full." }),
];
const frameOf = (need: string, asksFor: RecallFrame["asksFor"] = "time"): RecallFrame => ({ ...EMPTY_FRAME(need), asksFor });

const boosted = (frame: RecallFrame | null, bonus = 0.05) => boostedScores(boostTimedUnits, units, frame, bonus);

test("a question that asks when lifts the units that carry a time, and only them", () => {
  const { scores, reasons } = boosted(frameOf("When did we move?"));
  assert.deepEqual(scores, { timed: 0.55, minutes: 0.5, words: 0.5, none: 0.5 });
  assert.deepEqual(reasons.get("timed"), ["carries a time, as the query asks when"]);
});

test("'how long' lifts the units that state a length of time too, in digits or words; so does 'how many days'", () => {
  const { scores, reasons } = boosted(frameOf("How long is my tram ride to work?"));
  assert.deepEqual(scores, { timed: 0.55, minutes: 0.55, words: 0.55, none: 0.5 });
  assert.deepEqual(reasons.get("minutes"), ["states a duration, as the query asks how long"]);
  assert.deepEqual(boosted(frameOf("How many days did the move take?")).scores, { timed: 0.55, minutes: 0.55, words: 0.55, none: 0.5 });
  assert.deepEqual(boosted(frameOf("When did we move?")).scores, { timed: 0.55, minutes: 0.5, words: 0.5, none: 0.5 }, "'when' asks for a time, not a length");
});

test("nothing moves for another kind of question, with no frame, or with the bonus off", () => {
  for (const [frame, bonus] of [[frameOf("How long is my tram ride?", "quantity"), 0.05], [null, 0.05], [frameOf("How long is my tram ride?"), 0]] as const) {
    assert.deepEqual(Object.values(boosted(frame, bonus).scores), [0.5, 0.5, 0.5, 0.5]);
  }
});
