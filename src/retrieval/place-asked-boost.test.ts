import { test } from "node:test";
import assert from "node:assert/strict";
import { EMPTY_FRAME, type RecallFrame } from "../model/recall-frame.js";
import { makeSession, makeUnit } from "../store/testing/make-unit.js";
import type { MemoryUnit } from "../model/memory-unit.js";
import { boostedScores } from "./testing/boosted-scores.js";
import { boostPlacedUnits } from "./place-asked-boost.js";

const session = makeSession({ participants: ["Aurelio", "Assistant"] });
const units: MemoryUnit[] = [
  makeUnit(session, 1, { id: "question", content: "What should I pack for a freediving trip on a boat?" }),
  makeUnit(session, 2, { id: "place", content: "Back from Elba! Three days on the boat, clearest water I've ever seen." }),
  makeUnit(session, 3, { id: "speaker", content: "I said to Aurelio that in I think we go in March, from Monday." }),
  { ...makeUnit(session, 4, { id: "anchored", content: "We stayed by the lake." }), context: { ...makeUnit(session, 4).context, location: "Lake Garda" } },
];
const asking = (asksFor: RecallFrame["asksFor"]): RecallFrame => ({ ...EMPTY_FRAME("Where did I go on my most recent freediving trip?"), asksFor });

const boosted = (frame: RecallFrame | null, bonus = 0.05) => boostedScores(boostPlacedUnits, units, frame, bonus);

test("a question that asks where lifts the units that name a place, with the reason, and no other", () => {
  const { scores, reasons } = boosted(asking("place"));
  assert.deepEqual(scores, { question: 0.5, place: 0.55, speaker: 0.5, anchored: 0.55 });
  assert.deepEqual(reasons.get("place"), ["names a place, as the query asks where"]);
  // A speaker's name after "to" is no place, nor is "I" after "in", nor a month or a day.
  assert.equal(reasons.get("speaker"), undefined);
});

test("nothing moves for a question that asks for a time or nothing, with no frame, or with the bonus off", () => {
  for (const [frame, bonus] of [[asking("time"), 0.05], [asking(null), 0.05], [null, 0.05], [asking("place"), 0]] as const) {
    assert.deepEqual(Object.values(boosted(frame, bonus).scores), [0.5, 0.5, 0.5, 0.5]);
  }
});
