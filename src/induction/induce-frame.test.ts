import { test } from "node:test";
import assert from "node:assert/strict";
import { RecallFrame, type TimeRelation } from "../model/recall-frame.js";
import type { TimeInterval } from "../model/time.js";
import { induceFrame, type InductionContext } from "./induce-frame.js";

const TWO_YEARS = { start: "2022-01-05T10:00:00.000Z", end: "2023-12-01T18:00:00.000Z" };
const ONE_AUGUST = { start: "2023-01-10T10:00:00.000Z", end: "2023-10-03T18:00:00.000Z" };
const FIVE_YEARS = { start: "2019-02-01T10:00:00.000Z", end: "2023-11-20T18:00:00.000Z" };
const PEOPLE = ["Caroline", "Melanie"];

const ADOPTION: TimeInterval = { start: "2023-07-14T00:00:00.000Z", end: "2023-07-15T00:00:00.000Z", granularity: "day" };
const locateAdoption: InductionContext["locateEvent"] = async (phrase) =>
  /adoption meeting/i.test(phrase) ? { unitId: "unit-42", time: ADOPTION } : null;

interface Expect {
  time?: { relation: TimeRelation; start: string; end: string; minConfidence?: number; maxConfidence?: number; anchorUnitId?: string; outsideHistory?: true } | null;
  participants?: string[] | null;
  location?: string[] | null;
  active: boolean;
  need?: string;
  /** A note must contain this text. */
  note?: RegExp;
}

interface Case {
  name: string;
  query: string;
  ctx: InductionContext;
  expect: Expect;
}

const day = (d: string) => `${d}T00:00:00.000Z`;

const CASES: Case[] = [
  {
    name: "absolute year",
    query: "What did Caroline do in 2022?",
    ctx: { history: TWO_YEARS, knownPeople: PEOPLE },
    expect: { time: { relation: "during", start: day("2022-01-01"), end: day("2023-01-01"), minConfidence: 1 }, participants: ["Caroline"], active: true, need: "What did Caroline do?" },
  },
  {
    name: "month name, question date given",
    query: "What did we decide last August?",
    ctx: { history: TWO_YEARS, questionDate: "2023-10-10T12:00:00.000Z", knownPeople: PEOPLE },
    expect: { time: { relation: "during", start: day("2023-08-01"), end: day("2023-09-01"), minConfidence: 0.8 }, active: true, need: "What did we decide?" },
  },
  {
    name: "month name, no question date, two Augusts in the history",
    query: "What did we decide last August?",
    ctx: { history: TWO_YEARS, knownPeople: PEOPLE },
    expect: { time: { relation: "during", start: day("2023-08-01"), end: day("2023-09-01"), maxConfidence: 0.69 }, active: false, need: "What did we decide last August?", note: /ambiguous/ },
  },
  {
    name: "month name, no question date, one August in the history",
    query: "What did we decide last August?",
    ctx: { history: ONE_AUGUST, knownPeople: PEOPLE },
    expect: { time: { relation: "during", start: day("2023-08-01"), end: day("2023-09-01"), minConfidence: 0.7 }, active: true, need: "What did we decide?" },
  },
  {
    name: "bare month, no question date, one May in the history",
    query: "What did we do in May?",
    ctx: { history: ONE_AUGUST, knownPeople: PEOPLE },
    expect: { time: { relation: "during", start: day("2023-05-01"), end: day("2023-06-01"), minConfidence: 0.7 }, active: true, need: "What did we do?" },
  },
  {
    name: "the week before a date",
    query: "What happened the week before 9 June 2023?",
    ctx: { history: TWO_YEARS, knownPeople: PEOPLE },
    expect: { time: { relation: "during", start: day("2023-06-02"), end: day("2023-06-09"), minConfidence: 1 }, active: true, need: "What happened?" },
  },
  {
    name: "before a month",
    query: "What did Caroline do before May 2023?",
    ctx: { history: TWO_YEARS, knownPeople: PEOPLE },
    expect: { time: { relation: "before", start: day("2023-05-01"), end: day("2023-06-01"), minConfidence: 1 }, participants: ["Caroline"], active: true, need: "What did Caroline do?" },
  },
  {
    name: "since a year",
    query: "What has Melanie painted since 2022?",
    ctx: { history: TWO_YEARS, knownPeople: PEOPLE },
    expect: { time: { relation: "after", start: day("2022-01-01"), end: day("2023-01-01"), minConfidence: 1 }, participants: ["Melanie"], active: true },
  },
  {
    name: "around a date",
    query: "What did we discuss around 8 May 2023?",
    ctx: { history: TWO_YEARS, knownPeople: PEOPLE },
    expect: { time: { relation: "around", start: day("2023-05-08"), end: day("2023-05-09"), minConfidence: 1 }, active: true, need: "What did we discuss?" },
  },
  {
    name: "season with year",
    query: "What did Caroline read during the summer of 2022?",
    ctx: { history: TWO_YEARS, knownPeople: PEOPLE },
    expect: { time: { relation: "during", start: day("2022-06-01"), end: day("2022-09-01"), minConfidence: 1 }, active: true, need: "What did Caroline read?" },
  },
  {
    name: "after an event found in memory",
    query: "What did Caroline do after the adoption meeting?",
    ctx: { history: TWO_YEARS, knownPeople: PEOPLE, locateEvent: locateAdoption },
    expect: { time: { relation: "after", start: ADOPTION.start, end: ADOPTION.end, minConfidence: 0.75, maxConfidence: 0.75, anchorUnitId: "unit-42" }, participants: ["Caroline"], active: true },
  },
  {
    name: "after an event not found in memory",
    query: "What did Caroline do after the adoption meeting?",
    ctx: { history: TWO_YEARS, knownPeople: PEOPLE, locateEvent: async () => null },
    expect: { time: null, participants: ["Caroline"], active: true, note: /no memory of 'the adoption meeting'/ },
  },
  {
    name: "offset before an event: chrono's reference-relative reading is not used",
    query: "What did Melanie buy two weeks before the adoption meeting?",
    ctx: { history: TWO_YEARS, knownPeople: PEOPLE, locateEvent: locateAdoption },
    expect: { time: { relation: "before", start: ADOPTION.start, end: ADOPTION.end, anchorUnitId: "unit-42" }, participants: ["Melanie"], active: true },
  },
  {
    name: "a question that asks for a time has no time condition",
    query: "When did Melanie paint a sunrise?",
    ctx: { history: TWO_YEARS, knownPeople: PEOPLE },
    expect: { time: null, participants: ["Melanie"], active: true, need: "When did Melanie paint a sunrise?" },
  },
  {
    name: "how long ago",
    query: "How long ago was Caroline's 18th birthday?",
    ctx: { history: TWO_YEARS, knownPeople: PEOPLE },
    expect: { time: null, participants: ["Caroline"], active: true },
  },
  {
    name: "possessive participant",
    query: "What did Caroline's mom say?",
    ctx: { history: TWO_YEARS, knownPeople: PEOPLE },
    expect: { time: null, participants: ["Caroline"], location: null, active: true },
  },
  {
    name: "first-name alias of a full known name, case-insensitive",
    query: "what did caroline say about the parade?",
    ctx: { history: TWO_YEARS, knownPeople: ["Caroline Smith", "Melanie"] },
    expect: { participants: ["Caroline Smith"], active: true },
  },
  {
    name: "pronouns only",
    query: "What did she say about the painting?",
    ctx: { history: TWO_YEARS, knownPeople: PEOPLE },
    expect: { time: null, participants: null, active: false, note: /pronoun/ },
  },
  {
    name: "location from 'in <Place>'",
    query: "When I was in Paris, what did I eat?",
    ctx: { history: TWO_YEARS, knownPeople: PEOPLE },
    expect: { time: null, participants: null, location: ["Paris"], active: true, need: "When I was in Paris, what did I eat?" },
  },
  {
    name: "'last year' over a 5-year history without question date",
    query: "What did I do last year?",
    ctx: { history: FIVE_YEARS, knownPeople: PEOPLE },
    expect: { time: { relation: "during", start: day("2022-01-01"), end: day("2023-01-01"), maxConfidence: 0.69 }, active: false, need: "What did I do last year?", note: /5 years/ },
  },
  {
    name: "'last year' with a question date",
    query: "What did I do last year?",
    ctx: { history: FIVE_YEARS, questionDate: "2023-11-25T09:00:00.000Z", knownPeople: PEOPLE },
    expect: { time: { relation: "during", start: day("2022-01-01"), end: day("2023-01-01"), minConfidence: 0.8 }, active: true, need: "What did I do?" },
  },
  {
    name: "'two weeks ago' without question date over a long history",
    query: "What did we talk about two weeks ago?",
    ctx: { history: TWO_YEARS, knownPeople: PEOPLE },
    expect: { active: false, note: /ambiguous/ },
  },
  {
    name: "a window outside the history is kept but not trusted",
    query: "What did Caroline do in 2015?",
    ctx: { history: TWO_YEARS, knownPeople: [] },
    expect: { time: { relation: "during", start: day("2015-01-01"), end: day("2016-01-01"), maxConfidence: 0.69, outsideHistory: true }, active: false, note: /no part of the history/ },
  },
  {
    name: "relative time with neither question date nor history",
    query: "What did we decide last month?",
    ctx: { history: null, knownPeople: [] },
    expect: { time: null, active: false, note: /reference date/ },
  },
  {
    name: "no cues at all",
    query: "what is the best way to learn guitar",
    ctx: { history: TWO_YEARS, knownPeople: PEOPLE },
    expect: { time: null, participants: null, location: null, active: false, need: "what is the best way to learn guitar" },
  },
];

for (const c of CASES) {
  test(`induceFrame: ${c.name}`, async () => {
    const frame = await induceFrame(c.query, c.ctx);
    // The frame must always satisfy its own schema: it is printed with --json and stored.
    RecallFrame.parse(frame);
    const e = c.expect;
    const why = JSON.stringify(frame, null, 1);
    if (e.time === null) assert.equal(frame.time, null, why);
    if (e.time) {
      assert.ok(frame.time, why);
      assert.equal(frame.time.relation, e.time.relation, why);
      assert.equal(frame.time.window.start, e.time.start, why);
      assert.equal(frame.time.window.end, e.time.end, why);
      if (e.time.minConfidence !== undefined) assert.ok(frame.time.confidence >= e.time.minConfidence, why);
      if (e.time.maxConfidence !== undefined) assert.ok(frame.time.confidence <= e.time.maxConfidence, why);
      assert.equal(frame.time.anchorUnitId, e.time.anchorUnitId, why);
      // Only a surely grounded time that the history does not reach says so (an ambiguous one capped below activation does not).
      assert.equal(frame.time.outsideHistory, e.time.outsideHistory, why);
    }
    if (e.participants === null) assert.equal(frame.participants, null, why);
    if (e.participants) assert.deepEqual(frame.participants?.names, e.participants, why);
    if (e.location === null) assert.equal(frame.location, null, why);
    if (e.location) assert.deepEqual(frame.location?.names, e.location, why);
    assert.equal(frame.active, e.active, why);
    if (e.need !== undefined) assert.equal(frame.need, e.need, why);
    if (e.note) assert.ok(frame.notes.some((n) => e.note?.test(n)), why);
  });
}

test("induceFrame: entities are reported below activation", async () => {
  const frame = await induceFrame("What did Jon say about Google?", { history: TWO_YEARS, knownPeople: PEOPLE });
  assert.ok(frame.entities, JSON.stringify(frame));
  assert.ok(frame.entities.names.includes("Google"));
  assert.ok(frame.entities.confidence < 0.7);
  assert.equal(frame.active, false);
});

test("induceFrame: a month that is also a known name is read as a date inside a date", async () => {
  const frame = await induceFrame("What did Caroline do in May 2023?", { history: TWO_YEARS, knownPeople: ["Caroline", "May"] });
  assert.deepEqual(frame.participants?.names, ["Caroline"]);
});

test("induceFrame: the need is never empty", async () => {
  const frame = await induceFrame("in 2022?", { history: TWO_YEARS, knownPeople: [] });
  assert.equal(frame.need, "in 2022?");
});

test("induceFrame: a mid-sentence short form of one known first name is that participant", async () => {
  const frame = await induceFrame("What did Mel and her kids paint?", { history: TWO_YEARS, knownPeople: PEOPLE });
  assert.deepEqual(frame.participants?.names, ["Melanie"]);
  assert.equal(frame.entities, null);
});

test("induceFrame: 'from' before a date is a verb's, not a relation", async () => {
  const frame = await induceFrame("Where did Caroline move from 4 years ago?", { history: TWO_YEARS, questionDate: "2023-06-01T00:00:00.000Z", knownPeople: PEOPLE });
  assert.equal(frame.time?.relation, "during");
});

test("induceFrame: 'after how many weeks' is no anchor event", async () => {
  let called = false;
  const frame = await induceFrame("After how many weeks did Tim reconnect with his friend?", {
    history: TWO_YEARS,
    knownPeople: PEOPLE,
    locateEvent: async () => {
      called = true;
      return null;
    },
  });
  assert.equal(called, false);
  assert.equal(frame.time, null);
});

test("induceFrame: a question that asks for a time says so, without a condition or activation", async () => {
  for (const q of [
    "When did Melanie paint a sunrise?",
    "How long has Nate had his turtles?",
    "What year did Jon open his studio?",
    // Which of two came first: the answer compares when each happened.
    "Which event happened first, the road trip to the coast or the new lens?",
    "Who adopted a dog first, Tom or Alex?",
    "Did I join the choir before or after the move?",
    "How many days passed between the two markets?",
  ]) {
    const frame = await induceFrame(q, { history: TWO_YEARS, knownPeople: [] });
    assert.equal(frame.asksFor, "time", q);
    assert.equal(frame.time, null, q);
    assert.equal(frame.active, false, q);
  }
  for (const q of ["What did Caroline do when she was in Paris?", "Which café do you like, the bakery or the roastery?", "What was the first book I read?"]) {
    assert.equal((await induceFrame(q, { history: TWO_YEARS, knownPeople: [] })).asksFor, null, q);
  }
});

test("induceFrame: a question that asks where (how much) says so; no condition, no activation", async () => {
  for (const q of ["Where did I go on my most recent freediving trip?", "Where has Melanie camped?", "In which city did Jon open his studio?", "What restaurant did we try in May?"]) {
    const frame = await induceFrame(q, { history: TWO_YEARS, knownPeople: [] });
    assert.equal(frame.asksFor, "place", q);
    assert.equal(frame.location, null, q);
  }
  assert.equal((await induceFrame("Where did I go on my most recent freediving trip?", { history: TWO_YEARS, knownPeople: [] })).active, false);
  // When, and what else: a time asked wins; "What did Jon do in Paris?" asks for no place.
  for (const [q, kind] of [["When did I go to Lisbon?", "time"], ["What did Jon do in Paris?", null], ["Which book did I read in Rome?", null], ["How much did I spend on the bike?", "quantity"], ["How many fish are in my tanks?", "quantity"], ["How many days passed between the races?", "time"], ["How many days a week does Jon train?", "quantity"], ["How many weeks per year do I travel?", "quantity"]] as const) {
    // How often is no when: "How many days a week…" asks for a quantity.
    assert.equal((await induceFrame(q, { history: TWO_YEARS, knownPeople: [] })).asksFor, kind, q);
  }
});

test("a time at the moment of asking or later in a request is no recall window; in a question about the past it is", async () => {
  const ctx = { history: { start: "2023-01-01T00:00:00.000Z", end: "2023-05-30T20:00:00.000Z" }, questionDate: "2023-05-30T21:00:00.000Z", knownPeople: [] };
  const request = await induceFrame("Can you recommend a show or movie for me to watch tonight?", ctx);
  assert.equal(request.time, null);
  assert.ok(request.notes.some((n) => /'tonight' is the time of asking or later/.test(n)), request.notes.join("\n"));
  const recall = await induceFrame("What did I watch tonight?", ctx);
  assert.equal(recall.time?.evidence, "tonight");
  const plan = await induceFrame("What should I pack for next week?", ctx);
  assert.equal(plan.time, null);
});

test("a weekday named without 'last' or 'this' is a guess; 'last Saturday' is not", async () => {
  const ctx = { history: { start: "2023-01-01T00:00:00.000Z", end: "2023-05-30T20:00:00.000Z" }, questionDate: "2023-05-30T21:00:00.000Z", knownPeople: [] };
  const bare = await induceFrame("What time did I reach the clinic on Monday?", ctx);
  assert.ok(bare.time && bare.time.confidence < 0.7, JSON.stringify(bare.time));
  assert.equal(bare.active, false);
  const last = await induceFrame("Who did I go with to the music event last Saturday?", ctx);
  assert.ok(last.time && last.time.confidence >= 0.7);
});

test("occurrences: grounded through findMentions and active; a question that aggregates keeps it below activation", async () => {
  const told = (id: string, sessionId: string, day: string, text: string) => ({
    id,
    namespace: "t",
    content: text,
    cue: "",
    context: { eventTime: null, mentionedTimes: [], session: { sessionId, start: `${day}T10:00:00.000Z`, end: `${day}T11:00:00.000Z` }, participants: ["Melanie"], location: null, entities: [], topic: null },
    provenance: { sessionId, turnIds: [`${id}:1`] },
    anchoredBy: "test",
  });
  const ctx: InductionContext = {
    history: TWO_YEARS,
    knownPeople: PEOPLE,
    findMentions: async () => [told("a", "S1", "2023-01-10", "Melanie ran a charity race."), told("b", "S2", "2023-05-10", "Melanie ran another charity race, in the rain.")],
  };
  const second = await induceFrame("What did Melanie wear in her second charity race?", ctx);
  assert.equal(second.occurrence?.episodeId, "S2");
  assert.equal(second.active, true);
  const counting = await induceFrame("How many days passed between her first charity race and the bake sale?", ctx);
  assert.equal(counting.occurrence?.episodeId, "S1", "still grounded and reported");
  assert.ok(counting.occurrence!.confidence < 0.7, "but it restricts nothing");
  assert.match(counting.notes.join(" "), /gathers several episodes/);
});
