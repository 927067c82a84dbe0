import { test } from "node:test";
import assert from "node:assert/strict";
import type { MemoryUnit } from "../model/memory-unit.js";
import { makeSession, makeUnit } from "../store/testing/make-unit.js";
import { unitsStatingSlots } from "./units-stating-slots.js";

const session = makeSession();
const stating = (index: number, ...slots: string[]): MemoryUnit => {
  const unit = makeUnit(session, index);
  return { ...unit, context: { ...unit.context, states: slots.map((slot) => ({ subject: "Caroline", slot, value: "x", additive: false, ends: false, evidence: "x" })) } };
};

test("the units stating any asked slot, each once, in the state index's order", () => {
  const units = [stating(0, "home"), stating(1, "job"), stating(2, "home", "job"), stating(3, "pet"), stating(4, "job", "job")];
  const index = new Map(units.map((u) => [u.id, u]));
  const ids = (slots: string[]) => unitsStatingSlots(index, slots).map((u) => u.id.slice(-2));
  assert.deepEqual(ids(["job"]), ["u1", "u2", "u4"]);
  assert.deepEqual(ids(["job", "home"]), ["u0", "u1", "u2", "u4"]);
  assert.deepEqual(ids(["pet", "home"]), ["u0", "u2", "u3"]);
  assert.deepEqual(ids(["car"]), []);
});

test("a new state index (the namespace changed) is read afresh, not answered from the last one's slots", () => {
  const first = new Map([stating(0, "home")].map((u) => [u.id, u]));
  assert.equal(unitsStatingSlots(first, ["home"]).length, 1);
  const second = new Map([stating(0, "job"), stating(1, "home")].map((u) => [u.id, u]));
  assert.deepEqual(unitsStatingSlots(second, ["home"]).map((u) => u.id.slice(-2)), ["u1"]);
  assert.deepEqual(unitsStatingSlots(second, ["job"]).map((u) => u.id.slice(-2)), ["u0"]);
});
