import { test } from "node:test";
import assert from "node:assert/strict";
import { EMPTY_FRAME, type RecallFrame } from "../model/recall-frame.js";
import { makeSession, makeUnit } from "../store/testing/make-unit.js";
import type { MemoryUnit } from "../model/memory-unit.js";
import type { ContentCandidate } from "./content-recall.js";
import { DEFAULT_SIGNALS } from "./reinstate-signals.js";
import { contextValidUnits } from "./context-valid.js";

/** "…last Saturday?": a day's window. */
const saturday: RecallFrame = {
  ...EMPTY_FRAME("Who did I go with to the music event last Saturday?"),
  time: { relation: "during", window: { start: "2023-04-15T00:00:00.000Z", end: "2023-04-16T00:00:00.000Z", granularity: "day" }, evidence: "last Saturday", confidence: 0.9, note: "'last Saturday' grounded against the question date" },
  active: true,
};

// Three sessions: Saturday's, another on the same day, one a week before. The ranking has Saturday's festival
// turn within the depth, a week-old turn after it, and deep down Saturday's "saw them live" turn and the other
// Saturday session's small talk.
const sat = makeSession({ id: "sat", startTime: "2023-04-15T03:11:00Z" });
const satOther = makeSession({ id: "sat-other", startTime: "2023-04-15T18:00:00Z" });
const weekBefore = makeSession({ id: "week-before", startTime: "2023-04-08T05:15:00Z" });
const units = [
  makeUnit(sat, 9, { id: "festival" }),
  makeUnit(weekBefore, 1, { id: "concerts" }),
  makeUnit(sat, 0, { id: "saw-them-live" }),
  makeUnit(satOther, 3, { id: "small-talk" }),
];
const unitOf = (id: string): MemoryUnit | undefined => units.find((u) => u.id === id);
const ranking: ContentCandidate[] = ["festival", "concerts", "saw-them-live", "small-talk"].map((unitId, i) => ({ unitId, score: 1 - i / 10 }));
const depth2 = { ...DEFAULT_SIGNALS, contextDepth: 2 };
const reasons = () => new Map(ranking.map((c) => [c.unitId, [] as string[]]));

test("below the depth, a candidate joins C_ctx when its session met the frame above it, and no other one does", () => {
  const valid = contextValidUnits(ranking, saturday, unitOf, { sessionContext: true }, depth2, reasons());
  assert.deepEqual([...valid].sort(), ["festival", "saw-them-live"]);
});

test("without the rule, or without the session as a coordinate, the depth is where C_ctx ends", () => {
  const off = contextValidUnits(ranking, saturday, unitOf, { sessionContext: true }, { ...depth2, validEpisodeBeyondDepth: false }, reasons());
  assert.deepEqual([...off], ["festival"]);
  // The session span is then no time either: nothing meets the day.
  assert.deepEqual([...contextValidUnits(ranking, saturday, unitOf, { sessionContext: false }, depth2, reasons())], []);
});

test("a session that meets the frame only below the depth is not reinstated; one that met it above is", () => {
  const deepOnly = ["concerts", "small-talk", "saw-them-live", "festival"].map((unitId, i) => ({ unitId, score: 1 - i / 10 }));
  assert.deepEqual([...contextValidUnits(deepOnly, saturday, unitOf, { sessionContext: true }, depth2, reasons())], ["small-talk"]);
});
