import { test } from "node:test";
import assert from "node:assert/strict";
import type { MemoryUnit } from "../model/memory-unit.js";
import { groundOccurrence, OCCURRENCE_CONFIDENCE } from "./ground-occurrence.js";
import { findOccurrenceCue } from "./occurrence-cue.js";

const said = (id: string, sessionId: string, day: string, text: string): MemoryUnit => ({
  id,
  namespace: "t",
  content: `Ines says: ${text}`,
  cue: "",
  context: {
    eventTime: null,
    mentionedTimes: [],
    session: { sessionId, start: `${day}T10:00:00.000Z`, end: `${day}T11:00:00.000Z` },
    participants: ["Ines", "Tom"],
    location: null,
    entities: [],
    topic: null,
  },
  provenance: { sessionId, turnIds: [`${id}:1`] },
  source: [{ id: `${id}:1`, speaker: "Ines", text }],
  anchoredBy: "test",
});

// Best first, as the event phrase's recall would give them: the plans match as well as the reports.
const mentions = [
  said("plan1", "S1", "2022-03-03", "I'm going to Tokyo in May! My first time in Japan, two whole weeks."),
  said("report1", "S2", "2022-06-22", "We spent most of the trip in Japan in Tokyo and watched sumo."),
  said("plan2", "S4", "2023-02-18", "Yes! I booked a trip to Kyoto in May, this time with my sister."),
  said("report2", "S5", "2023-06-09", "Japan was different this time: a guesthouse near the Kamo river."),
  said("other", "S3", "2022-11-10", "I grilled sardines in Alfama with my neighbours."),
];

test("grounding an ordinal: the reports, oldest first, not the plans", () => {
  const second = groundOccurrence(findOccurrenceCue("Where did Ines stay on her second trip to Japan?")!, mentions, ["Ines", "Tom"]);
  assert.deepEqual(
    second.condition.occurrences.map((o) => o.episodeId),
    ["S2", "S5"],
  );
  assert.equal(second.condition.episodeId, "S5");
  assert.equal(second.condition.confidence, OCCURRENCE_CONFIDENCE);
  const first = groundOccurrence(findOccurrenceCue("What did Ines watch on her first trip to Japan?")!, mentions, ["Ines", "Tom"]);
  assert.equal(first.condition.episodeId, "S2");
  const last = groundOccurrence(findOccurrenceCue("Who came along on her most recent trip to Japan?")!, mentions, ["Ines", "Tom"]);
  assert.equal(last.condition.episodeId, "S5");
});

test("grounding an ordinal: too few occurrences leave it below activation, with a note", () => {
  const third = groundOccurrence(findOccurrenceCue("What did Ines do on her third trip to Japan?")!, mentions, ["Ines", "Tom"]);
  assert.equal(third.condition.episodeId, null);
  assert.ok(third.condition.confidence < OCCURRENCE_CONFIDENCE);
  assert.match(third.notes.join(" "), /2 occurrence\(s\)/);
  const alone = groundOccurrence(findOccurrenceCue("What did Ines do on her first trip to Japan?")!, mentions.slice(0, 2), ["Ines", "Tom"]);
  assert.equal(alone.condition.episodeId, null, "one occurrence is no sequence to pick from");
});

test("grounding an ordinal: a memory that states its own ordinal settles it", () => {
  const races = [
    said("r1", "S1", "2022-05-08", "I finished the 2 km swim at Sentosa!"),
    said("r2", "S3", "2022-08-20", "I did my second open-water race in August, a 5 km in Bintan."),
    said("r3", "S5", "2023-08-06", "I swam the Sentosa race again and came third."),
  ];
  // Counting the episodes that name a race would pick S5 (S1 says "swim"); the memory says which it is.
  const grounded = groundOccurrence(findOccurrenceCue("Where did Mei swim her second open-water race?")!, races, ["Mei"]);
  assert.equal(grounded.condition.episodeId, "S3");
  assert.match(grounded.condition.note, /says so itself/);
});

const saidBy = (speaker: string, id: string, sessionId: string, day: string, text: string): MemoryUnit => {
  const unit = said(id, sessionId, day, text);
  return { ...unit, content: `${speaker} says: ${text}`, context: { ...unit.context, participants: [speaker] }, source: [{ id: `${id}:1`, speaker, text }] };
};

const races = [
  saidBy("Lukas", "r1", "S1", "2021-06-06", "I ran my first ever race on Sunday, the 10k along the Spree."),
  saidBy("Priya", "q3", "S3", "2021-10-24", "How did the half marathon go?"),
  saidBy("Lukas", "r3", "S3", "2021-10-24", "Brutal. I got a cramp at kilometre 17 but finished in 2 hours 5 minutes."),
  saidBy("Lukas", "r6", "S6", "2023-01-15", "The Leipzig 10k in November went great, 52 minutes!"),
  saidBy("Priya", "x5", "S5", "2022-09-17", "Brave! Watch out for the cobblestones in the last kilometre."),
];

test("grounding: the subject's own turns tell of the event in other words; the other speaker's do not count", () => {
  const second = groundOccurrence(findOccurrenceCue("Where did Lukas run his second race?")!, races, ["Lukas", "Priya"], { subjects: ["Lukas"] });
  assert.deepEqual(second.condition.occurrences.map((o) => o.episodeId), ["S1", "S3", "S6"]);
  assert.equal(second.condition.episodeId, "S3");
  const noSubject = groundOccurrence(findOccurrenceCue("Where did Lukas run his second race?")!, races, ["Lukas", "Priya"]);
  assert.deepEqual(noSubject.condition.occurrences.map((o) => o.episodeId), ["S1"], "without a subject only memories that name a race count");
});

test("grounding 'next … after' and '… before the … one': counted from the anchor's occurrence", () => {
  const next = groundOccurrence(findOccurrenceCue("What was Lukas's time in his next race after the half marathon?")!, races.slice(0, 1), ["Lukas", "Priya"], {
    anchorMentions: [races[2]!, races[1]!],
    subjects: [],
  });
  // The anchor is an occurrence by the question's own word, though no memory of it says "race"; nothing after it is known here.
  assert.deepEqual(next.condition.occurrences.map((o) => o.episodeId), ["S1", "S3"]);
  assert.equal(next.condition.episodeId, null);
  assert.match(next.notes.join(" "), /no occurrence of 'race' after S3/);
  const withAnchor = groundOccurrence(findOccurrenceCue("What was Lukas's time in his next race after the half marathon?")!, [races[0]!, races[3]!], ["Lukas", "Priya"], {
    anchorMentions: [races[1]!],
    subjects: ["Lukas"],
  });
  assert.deepEqual(withAnchor.condition.occurrences.map((o) => o.episodeId), ["S1", "S3", "S6"]);
  assert.equal(withAnchor.condition.episodeId, "S6");
  assert.equal(withAnchor.condition.position, "after");
  assert.equal(withAnchor.condition.ordinal, 3, "once grounded, the place among the occurrences");
  const before = groundOccurrence(findOccurrenceCue("What was Lukas's time in the race before the Leipzig one?")!, [races[0]!, races[2]!], ["Lukas", "Priya"], {
    anchorMentions: [races[3]!],
    subjects: ["Lukas"],
  });
  assert.equal(before.condition.episodeId, "S3");
  const none = groundOccurrence(findOccurrenceCue("What was Lukas's time in the race before the Potsdam one?")!, races, ["Lukas", "Priya"], { anchorMentions: races, subjects: ["Lukas"] });
  assert.equal(none.condition.episodeId, null);
  assert.match(none.notes.join(" "), /no memory tells of 'the Potsdam one'/);
});

test("grounding 'again': the repeat when there are two occurrences, nothing when there are more", () => {
  const two = groundOccurrence(findOccurrenceCue("When did Ines go to Japan again?")!, mentions, ["Ines", "Tom"]);
  assert.equal(two.condition.episodeId, "S5");
  const three = groundOccurrence(findOccurrenceCue("When did Ines go to Japan again?")!, [...mentions, said("report3", "S7", "2024-04-01", "Back from Japan, the third time, Osaka.")], ["Ines", "Tom"]);
  assert.equal(three.condition.episodeId, null);
  assert.match(three.notes.join(" "), /only when there are two/);
});

test("grounding 'next' alone: the latest plan, unless something told as done follows it", () => {
  const upcoming = groundOccurrence(findOccurrenceCue("Where is Ines staying on her next trip to Japan?")!, mentions.slice(0, 3), ["Ines", "Tom"]);
  assert.equal(upcoming.condition.episodeId, "S4", "the plan to Kyoto is not yet told as done");
  assert.equal(upcoming.condition.occurrences.at(-1)?.planned, true);
  const done = groundOccurrence(findOccurrenceCue("Where is Ines staying on her next trip to Japan?")!, mentions, ["Ines", "Tom"]);
  assert.equal(done.condition.episodeId, null);
  assert.match(done.notes.join(" "), /told as done later/);
});

test("grounding: the turns beside a plan of the event are about the plan, not an occurrence", () => {
  const trail = [
    saidBy("Oskar", "p1", "S1", "2022-03-12", "I just signed up for my first trail race, a 20k in the Vosges in May."),
    saidBy("Nadia", "q1", "S1", "2022-03-12", "A trail race! Are you training?"),
    saidBy("Oskar", "t1", "S1", "2022-03-12", "Every weekend in the forest, I know every path around here."),
    saidBy("Oskar", "r2", "S2", "2022-06-02", "I survived the Vosges! The 20k took me 2 hours 41 minutes."),
    saidBy("Oskar", "r3", "S3", "2022-10-09", "I ran the Strasbourg half marathon in September, 1 hour 52."),
  ];
  const first = groundOccurrence(findOccurrenceCue("What happened during Oskar's first trail race?")!, trail, ["Oskar", "Nadia"], { subjects: ["Oskar"] });
  assert.deepEqual(first.condition.occurrences.map((o) => o.episodeId), ["S2", "S3"]);
  assert.equal(first.condition.episodeId, "S2");
});

test("grounding an ordinal: a plan of the event told as done later is an occurrence, in its report's episode", () => {
  const plan = { ...said("plan", "S1", "2022-01-10", "I just signed up for my first trail race, a 20k in the Vosges in May."), context: { ...said("plan", "S1", "2022-01-10", "").context, planned: true } };
  const report = said("report", "S2", "2022-06-02", "I survived the Vosges! The 20k took me 2 hours 41 minutes.");
  const half = said("half", "S3", "2022-10-09", "I ran the Strasbourg trail race in September, 1 hour 52.");
  const cue = findOccurrenceCue("What happened during Ines's first trail race?")!;
  const without = groundOccurrence(cue, [plan, half], ["Ines", "Tom"], { subjects: ["Ines"] });
  assert.deepEqual(without.condition.occurrences.map((o) => o.episodeId), ["S3"], "the plan alone is no occurrence");
  const grounded = groundOccurrence(cue, [plan, half], ["Ines", "Tom"], { subjects: ["Ines"], reportsOfPlans: new Map([["plan", report]]) });
  assert.deepEqual(grounded.condition.occurrences.map((o) => o.episodeId), ["S2", "S3"]);
  assert.equal(grounded.condition.episodeId, "S2");
  assert.match(grounded.condition.note, /says so itself/, "the plan's own 'first trail race' is its report's");
});

test("grounding: a report that ends on a wish is an occurrence; one called off, or an assistant's advice, is not", () => {
  const cue = findOccurrenceCue("Where did Oona go on her second kayak trip?")!;
  const assistant = (id: string, sessionId: string, day: string, text: string): MemoryUnit => {
    const unit = saidBy("Assistant", id, sessionId, day, text);
    return { ...unit, context: { ...unit.context, role: "assistant" } };
  };
  const trips = [
    saidBy("Oona", "k1", "S1", "2022-05-02", "Our first kayak trip went well, three days on the Dordogne. We want to go again soon."),
    saidBy("Oona", "k2", "S2", "2022-08-10", "The kayak trip to Corsica got cancelled, the outfitter went bust."),
    assistant("a3", "S3", "2022-10-01", "For a kayak trip in autumn, pack a dry bag and a thermal layer."),
    saidBy("Oona", "k4", "S4", "2023-06-20", "Back from the kayak trip on the Tarn, my arms are dead."),
  ];
  const grounded = groundOccurrence(cue, trips, ["Oona", "Assistant"]);
  assert.deepEqual(grounded.condition.occurrences.map((o) => o.episodeId), ["S1", "S4"]);
  assert.equal(grounded.condition.episodeId, "S4");
});

test("grounding: a verb of the event holds in its other forms ('won' is told as 'second win')", () => {
  const wins = [
    saidBy("Cal", "w1", "S1", "2022-02-01", "We won the pub quiz last night! First win ever."),
    saidBy("Cal", "w2", "S2", "2022-05-01", "Quiz night again, came fourth."),
    saidBy("Cal", "w3", "S3", "2022-09-01", "Second win for the team, the prize was a cheese board."),
  ];
  const grounded = groundOccurrence(findOccurrenceCue("What was the prize the second time we won the quiz?")!, wins, ["Cal"]);
  assert.equal(grounded.condition.episodeId, "S3");
  assert.match(grounded.condition.note, /says so itself/);
});

test("grounding: the present tense with a time ahead of when it was said is a plan, not an occurrence", () => {
  const ahead = (unit: MemoryUnit, start: string): MemoryUnit => ({ ...unit, context: { ...unit.context, eventTime: { start, end: start, granularity: "month" } } });
  const talks = [
    ahead(saidBy("Ife", "t1", "S1", "2023-04-02", "I'm presenting a poster at the conference in Leeds in June."), "2023-06-01T00:00:00.000Z"),
    saidBy("Ife", "t2", "S2", "2023-06-20", "The conference in Leeds went well, two people asked for my slides."),
    saidBy("Ife", "t3", "S3", "2023-11-20", "Back from the conference in York, my talk went fine."),
  ];
  const grounded = groundOccurrence(findOccurrenceCue("Where was the second conference Ife went to?")!, talks, ["Ife"]);
  assert.deepEqual(grounded.condition.occurrences.map((o) => o.episodeId), ["S2", "S3"]);
  assert.equal(grounded.condition.episodeId, "S3");
  // Without a time ahead, the same words tell of something going on: an occurrence.
  const now = groundOccurrence(findOccurrenceCue("Where was the second conference Ife went to?")!, [saidBy("Ife", "t1", "S1", "2023-04-02", "I'm presenting a poster at the conference in Leeds."), ...talks.slice(1)], ["Ife"]);
  assert.deepEqual(now.condition.occurrences.map((o) => o.episodeId), ["S1", "S2", "S3"]);
});
