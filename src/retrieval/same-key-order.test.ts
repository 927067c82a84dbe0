import { test } from "node:test";
import assert from "node:assert/strict";
import type { MemoryUnit } from "../model/memory-unit.js";
import { EMPTY_FRAME, type RecallFrame } from "../model/recall-frame.js";
import { sameKeyNewestFirst } from "./same-key-order.js";

/** A unit of "Ann" said on `day` that states `slot` = `value` (open-world). */
function stating(id: string, day: string, slot: string, value: string): MemoryUnit {
  const at = `${day}T10:00:00.000Z`;
  return {
    id,
    content: `Ann: ${slot} ${value}`,
    context: { participants: ["Ann"], session: { sessionId: id, start: at, end: at }, saidAt: at, eventTime: null, mentionedTimes: [], states: [{ subject: "Ann", slot, value, additive: false, ends: false, evidence: value, open: true }] },
  } as unknown as MemoryUnit;
}

const now: RecallFrame = { ...EMPTY_FRAME("Which day is Ann's spanish group class now?"), currentState: { evidence: "now" }, active: true };

test("the newest value of the asked thing goes first; a statement of another thing the query also names is no value of it", () => {
  // "spanish group" (Mondays, then Wednesdays) and "group class" agree on one word only: two things, not one.
  const units = [stating("u1", "2023-01-10", "spanish group", "mondays"), stating("u2", "2023-03-10", "group class", "fridays"), stating("u3", "2023-02-10", "spanish group", "wednesdays")];
  const byId = new Map(units.map((u) => [u.id, u]));
  const ordered = units.map((u, i) => ({ unitId: u.id, score: 1 - i / 10 }));
  const reasons = new Map<string, string[]>();
  const out = sameKeyNewestFirst(ordered, now, (id) => byId.get(id), { query: now.need }, 0, reasons);
  assert.deepEqual(out.map((c) => c.unitId), ["u3", "u1", "u2"], "the newest spanish group value, not the newer group class one");
  assert.match(reasons.get("u3")![0]!, /states the spanish group last/);
  assert.ok(!reasons.get("u2")?.some((r) => /value of the spanish group/.test(r)), "the other thing is not marked as an earlier or later value");
});
