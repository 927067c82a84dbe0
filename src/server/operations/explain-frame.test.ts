import { test } from "node:test";
import assert from "node:assert/strict";
import { EMPTY_FRAME, type RecallFrame } from "../../model/recall-frame.js";
import { explainFrame } from "./explain-frame.js";

const withOccurrence = (occurrence: NonNullable<RecallFrame["occurrence"]>): RecallFrame => ({ ...EMPTY_FRAME("q"), occurrence, active: true });
const occurrences = [
  { episodeId: "s1", time: "2021-06-06T00:00:00.000Z" },
  { episodeId: "s3", time: "2021-10-24T00:00:00.000Z" },
  { episodeId: "s6", time: "2022-11-01T00:00:00.000Z" },
];

test("explainFrame: an occurrence says which one it picked and how the query placed it", () => {
  const counted = explainFrame(withOccurrence({ ordinal: 2, event: "race", occurrences, episodeId: "s3", evidence: "his second race", confidence: 0.8, note: "" })).conditions[0]!;
  assert.equal(counted.value, "episode s3 of 3 that tell of 'race'");
  assert.equal(counted.active, true);
  const after = explainFrame(withOccurrence({ ordinal: 3, position: "after", anchor: "the half marathon", event: "race", occurrences, episodeId: "s6", evidence: "his next race after the half marathon", confidence: 0.8, note: "" })).conditions[0]!;
  assert.equal(after.value, "episode s6 (the one after 'the half marathon') of 3 that tell of 'race'");
  const upcoming = explainFrame(withOccurrence({ ordinal: 0, position: "upcoming", event: "race", occurrences: [], episodeId: null, evidence: "his next race", confidence: 0.4, note: "" })).conditions[0]!;
  assert.equal(upcoming.value, "none picked (the next one, still a plan) of 0 that tell of 'race'");
  assert.equal(upcoming.active, false);
});
