import { test } from "node:test";
import assert from "node:assert/strict";
import type { MemoryUnit } from "../model/memory-unit.js";
import { planNames, planOutcomes } from "./plan-outcome.js";

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

test("planOutcomes: a report that dates what it tells far from the planned time is another trip", () => {
  const april = { start: "2021-04-01T00:00:00.000Z", end: "2021-05-01T00:00:00.000Z", granularity: "month" as const };
  const plan = unit("p", "Ann", "2021-02-05", "I'm going home to Enugu in April", { planned: true, location: "Enugu", eventTime: april });
  const november = { start: "2021-11-29T00:00:00.000Z", end: "2021-12-06T00:00:00.000Z", granularity: "week" as const };
  const later = unit("n", "Ann", "2021-12-12", "I was home in Enugu again last week", { location: "Enugu", eventTime: november });
  assert.equal(planOutcomes([plan], [plan, later]).size, 0, "told of late November: not April's trip");
  const may = { start: "2021-05-01T00:00:00.000Z", end: "2021-05-02T00:00:00.000Z", granularity: "day" as const };
  const slipped = unit("s", "Ann", "2021-05-20", "Enugu was lovely, I went on the first of May", { location: "Enugu", eventTime: may });
  assert.equal(planOutcomes([plan], [plan, later, slipped]).get("p")?.toldAsDoneBy, "s", "a plan that slipped a little is still told");
  const undated = unit("u", "Ann", "2021-12-12", "Enugu was lovely", { location: "Enugu" });
  assert.equal(planOutcomes([plan], [plan, undated]).get("p")?.toldAsDoneBy, "u", "an undated report is not ruled out");
});

test("planOutcomes: the answer to the other speaker's question that names the plan tells of it", () => {
  const plan = unit("p", "Ann", "2021-02-05", "I'm going home to Enugu in April for my mum's birthday", { planned: true, location: "Enugu" });
  const asked = unit("q", "Bo", "2021-05-02", "Ann! How was Enugu?", { location: "Enugu", participants: ["Bo", "Ann"] });
  const answer = unit("a", "Ann", "2021-05-02", "So good. We cooked jollof for eighty guests.");
  assert.equal(planOutcomes([plan], [plan, answer], { namesOnly: true, answerTo: new Map([["a", asked]]) }).get("p")?.toldAsDoneBy, "a");
  assert.equal(planOutcomes([plan], [plan, answer], { namesOnly: true }).size, 0, "without the question the answer names nothing of the plan");
  const ownQuestion = unit("o", "Ann", "2021-05-02", "Did I tell you about Enugu?", { location: "Enugu" });
  assert.equal(planOutcomes([plan], [plan, answer], { namesOnly: true, answerTo: new Map([["a", ownQuestion]]) }).size, 0, "the planner's own question is no one asking");
});

test("planNames: a name the tagger keeps as a lower-case topic counts when the plan writes it capitalised inside a sentence", () => {
  const plan = unit("p", "Oskar", "2022-01-10", "I just signed up for my first trail race, a 20k in the Vosges in May.", { planned: true, entities: ["trail race", "vosges"] });
  assert.deepEqual([...planNames(plan)], ["vosges"]);
  const opening = unit("h", "Oskar", "2022-01-10", "Hiking next month in the hills.", { planned: true, entities: ["hiking", "hills"] });
  assert.deepEqual([...planNames(opening)], [], "a sentence's first word is capitalised anyway");
  const accented = unit("i", "Ingrid", "2022-01-10", "We sail to the Ísafjörður fjord next week.", { planned: true, entities: ["ísafjörður fjord"] });
  assert.deepEqual([...planNames(accented)], [], "every word capitalised: 'fjord' is not");
  const town = unit("t", "Ingrid", "2022-01-10", "We sail to Ísafjörður next week.", { planned: true, entities: ["ísafjörður"] });
  assert.deepEqual([...planNames(town)], ["ísafjörður"], "a name that opens with a letter outside ASCII");
});
