import { test } from "node:test";
import assert from "node:assert/strict";
import { makeSession, makeUnit } from "../store/testing/make-unit.js";
import type { ContentCandidate } from "./content-recall.js";
import { liftUnits } from "./lift-units.js";

test("the candidates whose unit has a reason gain the bonus and the reason; the others and unknown units keep their score", () => {
  const session = makeSession();
  const units = [makeUnit(session, 1, { id: "yes", content: "Back from Elba!" }), makeUnit(session, 2, { id: "no", content: "Thanks." })];
  const candidates: ContentCandidate[] = [{ unitId: "yes", score: 0.5 }, { unitId: "no", score: 0.5 }, { unitId: "gone", score: 0.5 }];
  const reasons = new Map<string, string[]>();
  liftUnits(candidates, (id) => units.find((u) => u.id === id), 0.05, (id) => reasons.get(id) ?? (reasons.set(id, []), reasons.get(id)!), (u) => (u.content.includes("Elba") ? "names a place" : null));
  assert.deepEqual(candidates.map((c) => c.score), [0.55, 0.5, 0.5]);
  assert.deepEqual([...reasons], [["yes", ["names a place"]]]);
  // A cue switched off (bonus 0) lifts nothing and records nothing.
  const off = new Map<string, string[]>();
  liftUnits(candidates, (id) => units.find((u) => u.id === id), 0, (id) => off.get(id) ?? (off.set(id, []), off.get(id)!), () => "names a place");
  assert.deepEqual(candidates.map((c) => c.score), [0.55, 0.5, 0.5]);
  assert.equal(off.size, 0);
});
