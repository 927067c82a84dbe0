import { describe, it } from "node:test";
import assert from "node:assert/strict";
import type { MemoryUnit, StateStatement } from "../model/memory-unit.js";
import { EMPTY_FRAME, type RecallFrame } from "../model/recall-frame.js";
import { deriveValidity } from "../anchoring/derive-validity.js";
import { stateAnswers } from "./state-answers.js";
import { stateUnit } from "../anchoring/testing/state-unit.js";

const unit = (id: string, day: string, states: Array<Partial<StateStatement>>): MemoryUnit => stateUnit(id, day, states, {}, "Tom", "job");

const answers = (units: MemoryUnit[], frame: Partial<RecallFrame>) => {
  const validity = deriveValidity(units);
  return stateAnswers({ ...EMPTY_FRAME("q"), active: true, ...frame }, units, (id) => validity.get(id)).map((u) => u.id);
};
const jobs = { slots: ["job", "employer"], evidence: "job" };

describe("stateAnswers", () => {
  it("before a change the question names, the value that change replaced — not the change itself", () => {
    const units = [unit("barista", "2022-03-03", [{ value: "barista" }]), unit("nurse", "2022-11-07", [{ value: "practice nurse" }]), unit("lead", "2023-11-01", [{ value: "lead nurse" }])];
    // The anchor ("before he became a nurse") was found a few days after the change was dated.
    const before = (anchorUnitId?: string): Partial<RecallFrame> => ({
      stateSlot: jobs,
      time: { relation: "before", window: { start: "2022-11-10T10:00:00.000Z", end: "2022-11-11T10:00:00.000Z", granularity: "day" }, evidence: "before he became a nurse", confidence: 0.75, note: "", ...(anchorUnitId ? { anchorUnitId } : {}) },
    });
    assert.deepEqual(answers(units, before("nurse")), ["barista"]);
    // An anchor that states no job: the window alone decides, newest first.
    assert.deepEqual(answers(units, before()), ["nurse", "barista"]);
  });

  it("now, after the slot was ended and nothing followed: the ending statement answers", () => {
    const units = [unit("chef", "2022-01-16", [{ value: "head chef" }]), unit("quit", "2022-12-02", [{ ends: true }])];
    assert.deepEqual(answers(units, { stateSlot: jobs, currentState: { evidence: "now" } }), ["quit"]);
    // A new value after the end: that one holds.
    const again = [...units, unit("truck", "2023-03-01", [{ value: "food truck owner" }])];
    assert.deepEqual(answers(again, { stateSlot: jobs, currentState: { evidence: "now" } }), ["truck"]);
  });

  it("a count asked in other words is answered by the same thing counted ('beehives', 'hives'), not by kin ('children', 'grandchildren')", () => {
    const units = [
      unit("six", "2021-02-20", [{ slot: "number of beehives", value: "6" }]),
      unit("nine", "2023-01-21", [{ slot: "number of hives", value: "9" }]),
      unit("kids", "2023-01-21", [{ slot: "number of grandchildren", value: "5" }]),
    ];
    assert.deepEqual(answers(units, { stateSlot: { slots: ["number of beehives"], evidence: "how many beehives" }, currentState: { evidence: "now" } }), ["nine"]);
    assert.deepEqual(answers(units, { stateSlot: { slots: ["number of children"], evidence: "how many children" }, currentState: { evidence: "now" } }), []);
  });

  it("someone else's value never answers for the person asked, when none of the statements is theirs", () => {
    const units = [unit("own", "2023-01-10", [{ value: "radiographer" }])];
    const now = { stateSlot: jobs, currentState: { evidence: "now" } };
    assert.deepEqual(answers(units, { ...now, stateSubject: { relation: "brother", evidence: "my brother" } }), []);
    assert.deepEqual(answers(units, { ...now, stateSubject: { name: "Chidi", evidence: "Chidi" } }), []);
    // The speaker's own, asked of the speaker; and with no subject asked, any statement answers.
    assert.deepEqual(answers(units, { ...now, stateSubject: { self: true, evidence: "my" } }), ["own"]);
    // "Who is my partner?" asks the asker's partner slot.
    const partner = [unit("tom", "2023-01-10", [{ slot: "partner", value: "tom" }])];
    assert.deepEqual(answers(partner, { stateSlot: { slots: ["partner"], evidence: "partner" }, currentState: { evidence: "now" }, stateSubject: { relation: "partner", evidence: "my partner" } }), ["tom"]);
    assert.deepEqual(answers(units, now), ["own"]);
  });

  it("the person a question names as the owner of whom it asks ('Tom's sister', 'Tom's friend Aoife') does not answer for them", () => {
    const units = [unit("own", "2023-01-10", [{ value: "radiographer" }])];
    const aboutTom: Partial<RecallFrame> = { stateSlot: jobs, currentState: { evidence: "now" }, participants: { names: ["Tom"], evidence: "Tom's", confidence: 0.9, note: "" } };
    assert.deepEqual(answers(units, { ...aboutTom, stateSubject: { relation: "sister", of: "Tom", evidence: "Tom's sister" } }), []);
    assert.deepEqual(answers(units, { ...aboutTom, stateSubject: { name: "Aoife", evidence: "Tom's friend Aoife" } }), []);
    // The frame's person is the one asked, by a fuller name: their statements answer.
    const aboutTomBaker: Partial<RecallFrame> = { ...aboutTom, participants: { names: ["Tom Baker"], evidence: "Tom Baker", confidence: 0.9, note: "" } };
    assert.deepEqual(answers(units, { ...aboutTomBaker, stateSubject: { name: "Tom Baker", evidence: "Tom Baker" } }), ["own"]);
  });
});
