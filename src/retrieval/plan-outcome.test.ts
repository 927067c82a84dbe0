import { test } from "node:test";
import assert from "node:assert/strict";
import type { MemoryUnit } from "../model/memory-unit.js";
import { planOutcomes } from "./plan-outcome.js";

const unit = (id: string, speaker: string, day: string, text: string, extra: Partial<MemoryUnit["context"]> = {}): MemoryUnit => ({
  id,
  namespace: "ns",
  content: `${speaker}: ${text}`,
  cue: "",
  context: {
    eventTime: null,
    mentionedTimes: [],
    session: { sessionId: day, start: `${day}T10:00:00.000Z`, end: `${day}T10:00:00.000Z` },
    participants: [speaker, "Bo"],
    location: null,
    entities: [],
    topic: null,
    ...extra,
  },
  provenance: { sessionId: day, turnIds: [id] },
  anchoredBy: "test",
  source: [{ id, speaker, text }],
});

test("planOutcomes: a plan is told as done by the earliest later turn of its speaker that names its place or shares its words", () => {
  const plan = unit("p", "Ann", "2023-03-01", "I'm going back to Tokyo in May", { planned: true, location: "Tokyo", entities: ["Tokyo"] });
  const sameDay = unit("x", "Ann", "2023-03-01", "Tokyo again, can't wait", { location: "Tokyo" });
  const other = unit("o", "Bo", "2023-06-01", "Tokyo sounds great", { location: "Tokyo" });
  const laterPlan = unit("l", "Ann", "2023-04-01", "I'm flying to Tokyo next week", { planned: true, location: "Tokyo" });
  const report = unit("r", "Ann", "2023-06-02", "Tokyo was rainy but we loved it", { location: "Tokyo" });
  const laterReport = unit("z", "Ann", "2023-07-01", "Back from Tokyo once more", { location: "Tokyo" });
  const found = planOutcomes([plan], [plan, sameDay, other, laterPlan, laterReport, report]);
  assert.deepEqual(found.get("p"), { toldAsDoneBy: "r", on: "2023-06-02T10:00:00.000Z" });

  const pottery = unit("q", "Ann", "2023-03-01", "I signed up for the pottery class at the studio", { planned: true });
  const words = unit("w", "Ann", "2023-04-10", "The pottery class was messy fun, the studio smelled of clay");
  const oneWord = unit("v", "Ann", "2023-04-09", "I bought a pottery book");
  assert.equal(planOutcomes([pottery], [pottery, oneWord, words]).get("q")?.toldAsDoneBy, "w");
  assert.equal(planOutcomes([pottery], [pottery, oneWord]).size, 0, "one shared word is not enough");
  assert.equal(planOutcomes([report], [report, plan]).size, 0, "a report is no plan");
});
