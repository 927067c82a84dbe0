import { describe, it } from "node:test";
import assert from "node:assert/strict";
import type { MemoryUnit, StateStatement } from "../model/memory-unit.js";
import { deriveValidity } from "../anchoring/derive-validity.js";
import { stateUnit } from "../anchoring/testing/state-unit.js";
import { slotStatements, slotStatementsOf } from "./slot-statements.js";

const unit = (id: string, day: string, speaker: string, states: Array<Partial<StateStatement>>): MemoryUnit => stateUnit(id, day, states, {}, speaker, "residence");

describe("slotStatements", () => {
  const units = [
    unit("lisbon", "2022-03-01", "Ines", [{ value: "Lisbon" }]),
    unit("porto", "2023-02-01", "Ines", [{ value: "Porto" }, { slot: "job", value: "designer" }]),
    unit("tom", "2023-03-01", "Tom", [{ value: "Braga" }]),
    unit("left", "2023-05-01", "Tom", [{ ends: true }]),
  ];
  const validity = deriveValidity(units);

  it("lays out the statements of the asked slots only: values and endings apart, each (subject, speaker) pair once", () => {
    const table = slotStatements(units, ["residence"], (id) => validity.get(id));
    assert.deepEqual([...table.values.unit], [0, 1, 2]);
    assert.deepEqual([...table.ends.unit], [3]);
    assert.equal(table.pairs.length, new Set(units.map((u) => `${u.context.states![0]!.subject}|${u.context.participants[0]}`)).size);
    assert.deepEqual([...table.values.pair, ...table.ends.pair].map((p) => table.pairs[p]!.speaker), ["Ines", "Ines", "Tom", "Tom"]);
  });

  it("carries each unit's validity as numbers: Lisbon ended when Porto began, Porto still holds", () => {
    const table = slotStatements(units, ["residence"], (id) => validity.get(id));
    assert.equal(table.current[0], 0);
    assert.equal(table.current[1], 1);
    assert.equal(table.to[0], Date.parse(validity.get("lisbon")!.validTo!));
    assert.equal(table.to[1], Number.POSITIVE_INFINITY);
    assert.equal(table.sessionStart[2], Date.parse(units[2]!.context.session.start));
  });

  it("is kept per validity map and slot list, and built anew for another", () => {
    let builds = 0;
    const read = () => (builds++, units);
    const a = slotStatementsOf(validity, ["residence"], read);
    assert.equal(slotStatementsOf(validity, ["residence"], read), a);
    assert.notEqual(slotStatementsOf(validity, ["job"], read), a);
    assert.notEqual(slotStatementsOf(new Map(validity), ["residence"], read), a);
    assert.equal(builds, 3);
  });
});
