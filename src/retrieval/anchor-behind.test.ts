import { test } from "node:test";
import assert from "node:assert/strict";
import { EMPTY_FRAME, type RecallFrame } from "../model/recall-frame.js";
import type { ContentCandidate } from "./content-recall.js";
import { anchorBehindNextValid } from "./anchor-behind.js";

const candidate = (id: string): ContentCandidate => ({ unitId: id, score: 1 });
const ordered = ["clutch", "other", "saved", "older"].map(candidate);

/** "How much had he saved before his clutch died?": the clutch memory is the anchor of the time asked. */
function frameCounting(relation: "before" | "after" | "during", confidence: number, anchorUnitId?: string): RecallFrame {
  return {
    ...EMPTY_FRAME("How much had Cal saved before his clutch died?"),
    time: { relation, window: { start: "2023-03-02T00:00:00.000Z", end: "2023-03-03T00:00:00.000Z", granularity: "day" }, ...(anchorUnitId ? { anchorUnitId } : {}), evidence: "before his clutch died", confidence },
    active: true,
  } as RecallFrame;
}

test("the memory a 'before/after' time is counted from goes behind the next context-valid candidate, and says why", () => {
  const reasons = new Map([["clutch", [] as string[]]]);
  const out = anchorBehindNextValid(ordered, frameCounting("before", 0.75, "clutch"), new Set(["clutch", "saved", "older"]), reasons);
  assert.deepEqual(out.map((c) => c.unitId), ["other", "saved", "clutch", "older"]);
  assert.match(reasons.get("clutch")![0]!, /counts before from/);
  assert.equal(out.length, ordered.length);
});

test("no change without an anchor memory, for another relation, below activation, or with no valid candidate after it", () => {
  const ids = ordered.map((c) => c.unitId);
  const valid = new Set(["clutch", "saved"]);
  assert.deepEqual(anchorBehindNextValid(ordered, frameCounting("before", 0.75), valid, new Map()).map((c) => c.unitId), ids);
  assert.deepEqual(anchorBehindNextValid(ordered, frameCounting("during", 0.75, "clutch"), valid, new Map()).map((c) => c.unitId), ids);
  assert.deepEqual(anchorBehindNextValid(ordered, frameCounting("before", 0.2, "clutch"), valid, new Map()).map((c) => c.unitId), ids);
  assert.deepEqual(anchorBehindNextValid(ordered, frameCounting("after", 0.75, "clutch"), new Set(["clutch"]), new Map()).map((c) => c.unitId), ids);
  assert.deepEqual(anchorBehindNextValid(ordered, null, valid, new Map()).map((c) => c.unitId), ids);
});
