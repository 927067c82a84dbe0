import { test } from "node:test";
import assert from "node:assert/strict";
import { checkOps } from "./check-ops.js";
import type { FinalState, FoundUnit, OpRecord, ValidityView } from "./op-log.js";

let seq = 0;
/** An acknowledged call of worker `worker` that ran from `start` to `end` (ms). */
function op(worker: number, op: OpRecord["op"], start: number, end: number, fields: Partial<OpRecord> = {}): OpRecord {
  return { worker, seq: ++seq, op, namespace: "ns", sessionId: "s1", unitIds: [], start, end, ok: true, ...fields };
}
const append = (worker: number, start: number, id: string, text: string, sessionId = "s1") =>
  op(worker, "append", start, start + 10, { sessionId, unitIds: [id], turnIds: [`${sessionId}:${id}`], texts: [text] });
const unit = (id: string, text: string, sessionId = "s1"): FoundUnit => ({ id, namespace: "ns", sessionId, turnIds: [`${sessionId}:${id}`], text });
const valid = (validTo: string | null, supersededBy: string | null = null, origin: ValidityView["origin"] = "rule"): ValidityView => ({
  states: ["residence = porto"],
  validFrom: "2026-01-01T00:00:00.000Z",
  validTo,
  supersededBy,
  origin,
});

test("a log the store kept: every acked unit found with its last text, forgotten ones gone, no failure", () => {
  const ops = [
    append(0, 0, "u1", "Note (w0-1)"),
    append(1, 5, "u2", "I moved to Porto. (w1-1)"),
    op(0, "update", 20, 30, { unitIds: ["u1"], texts: ["Corrected (w0-2)"] }),
    op(1, "forgetUnit", 40, 50, { unitIds: ["u2"], result: true }),
    // Refused: promises nothing, counted with its code.
    op(1, "update", 60, 70, { unitIds: ["u2"], texts: ["x (w1-2)"], ok: false, error: "UNIT_FORGOTTEN" }),
  ];
  const final: FinalState = { units: [unit("u1", "Corrected (w0-2)")], validity: { ns: {} } };
  const check = checkOps(ops, final, [{ worker: 0, validity: { ns: {} } }]);
  assert.equal(check.failures, 0, JSON.stringify(check.examples));
  assert.deepEqual([check.acked.append, check.acked.update, check.acked.forgetUnit, check.refused.update], [2, 1, 1, 1]);
  assert.deepEqual(check.errors, { UNIT_FORGOTTEN: 1 });
  assert.deepEqual([check.expected, check.found, check.forgotten], [1, 1, 1]);
});

test("the checker counts an undone forget, a reused id, a lost append, a stale text, a duplicate, a lost supersession and a stale validity", () => {
  const ops = [
    // Undone forget: u1 forgotten by worker 1, yet found.
    append(0, 0, "u1", "Note (w0-1)"),
    op(1, "forgetUnit", 20, 30, { unitIds: ["u1"], result: true }),
    // Undone session forget: u6 appended, then its whole session forgotten, yet found.
    append(0, 35, "u6", "Note (w0-6)", "s3"),
    op(1, "forgetSession", 50, 55, { sessionId: "s3", result: 1 }),
    // Id reuse: u2 forgotten, then acked again as the unit of another turn.
    append(0, 40, "u2", "Note (w0-2)"),
    op(1, "forgetUnit", 60, 70, { unitIds: ["u2"], result: true }),
    append(1, 80, "u2", "Other words (w1-5)"),
    // Lost append: u3 acked, never forgotten, missing.
    append(0, 100, "u3", "Note (w0-3)"),
    // Stale text: u4's update acked, the old text found.
    append(0, 120, "u4", "Note (w0-4)"),
    op(1, "update", 140, 150, { unitIds: ["u4"], texts: ["Corrected (w1-6)"] }),
    // Ambiguous, not lost: u5's session forgotten while u5 was appended.
    append(0, 200, "u5", "Note (w0-7)", "s2"),
    op(1, "forgetSession", 205, 215, { sessionId: "s2", result: 1 }),
    // Undone, then forgotten again: u10's forget returned, and a later forget still found it to delete.
    append(0, 360, "u10", "Note (w0-10)"),
    op(1, "forgetUnit", 380, 390, { unitIds: ["u10"], result: true }),
    op(0, "forgetUnit", 400, 410, { unitIds: ["u10"], result: true }),
    // Supersession lost: u8 superseded by u9, both kept, the fresh view names no successor.
    append(0, 300, "u8", "I live in Lisbon. (w0-8)"),
    append(0, 320, "u9", "I live in Oslo. (w0-9)"),
    op(1, "supersede", 340, 350, { unitIds: ["u8", "u9"] }),
  ];
  const final: FinalState = {
    units: [
      unit("u1", "Note (w0-1)"),
      unit("u6", "Note (w0-6)", "s3"),
      unit("u2", "Other words (w1-5)"),
      unit("u4", "Note (w0-4)"),
      // A second copy of u4's turn under another id: a duplicate, and a unit no acked append created.
      unit("u4b", "Note (w0-4)"),
      unit("u8", "I live in Lisbon. (w0-8)"),
      unit("u9", "I live in Oslo. (w0-9)"),
    ],
    validity: { ns: { u8: valid("2026-02-01T00:00:00.000Z", null), u9: valid(null) } },
  };
  // Worker 0 still sees u9 as superseded: its view is stale.
  const views = [
    { worker: 0, validity: { ns: { u8: valid("2026-02-01T00:00:00.000Z", null), u9: valid("2026-03-01T00:00:00.000Z", "u1") } } },
    { worker: 1, validity: final.validity },
  ];
  const check = checkOps(ops, final, views);
  assert.equal(check.undoneForgets, 3, JSON.stringify(check.examples));
  assert.match(check.examples.undoneForgets![2]!, /^u10 .* then there for forgetUnit w0#/);
  assert.equal(check.idReuses, 1);
  assert.match(check.examples.idReuses![0]!, /u2 acked as created by append w0#\d+ .* and by append w1#\d+/);
  assert.equal(check.lost, 1);
  assert.match(check.examples.lost![0]!, /^u3 /);
  assert.equal(check.staleText, 1);
  assert.match(check.examples.staleText![0]!, /u4 says "Note \(w0-4\)", acked last: "Corrected \(w1-6\)"/);
  assert.equal(check.ambiguous, 1);
  assert.equal(check.duplicates, 1);
  assert.equal(check.unacked, 1);
  assert.equal(check.supersessionsLost, 1);
  assert.equal(check.validityDifferences, 1);
  assert.match(check.examples.validityDifferences![0]!, /^worker 0: ns u9:/);
  assert.equal(check.failures, 3 + 1 + 1 + 1 + 1 + 1 + 1);
  // expected: u2 (latest incarnation), u3, u4, u8, u9; found all but u3. Forgotten: u1, u6, u2's first incarnation, u10.
  assert.deepEqual([check.expected, check.found, check.forgotten], [5, 4, 4]);
});

test("concurrent updates: either overlapping text is accepted, an earlier one is not", () => {
  const ops = [
    append(0, 0, "u1", "Note (w0-1)"),
    op(0, "update", 20, 40, { unitIds: ["u1"], texts: ["A (w0-2)"] }),
    op(1, "update", 25, 45, { unitIds: ["u1"], texts: ["B (w1-1)"] }),
  ];
  for (const text of ["A (w0-2)", "B (w1-1)"]) assert.equal(checkOps(ops, { units: [unit("u1", text)], validity: {} }, []).staleText, 0, text);
  assert.equal(checkOps(ops, { units: [unit("u1", "Note (w0-1)")], validity: {} }, []).staleText, 1);
});
