import { test } from "node:test";
import assert from "node:assert/strict";
import { TimeInterval } from "../model/time.js";
import { groundTimeExpression, groundTimeExpressions } from "./time-grounding.js";

// Monday 8 May 2023, the reference used by most rows.
const MON = "2023-05-08T13:56:00.000Z";
// Saturday 13 May 2023: weekend arithmetic differs when the reference is inside a weekend.
const SAT = "2023-05-13T10:00:00.000Z";

type Row = [sentence: string, reference: string, start: string, end: string, granularity: string];

const rows: Row[] = [
  ["I went to the support group yesterday.", MON, "2023-05-07", "2023-05-08", "day"],
  ["I'm so tired today", MON, "2023-05-08", "2023-05-09", "day"],
  ["We're having pizza tonight!", MON, "2023-05-08", "2023-05-09", "day"],
  ["I couldn't sleep last night", MON, "2023-05-07", "2023-05-08", "day"],
  ["I went for a run this morning", MON, "2023-05-08", "2023-05-09", "day"],
  ["I painted a sunset last week", MON, "2023-05-01", "2023-05-08", "week"],
  ["We went camping last weekend", MON, "2023-05-06", "2023-05-08", "day"],
  ["We went camping last weekend", SAT, "2023-05-06", "2023-05-08", "day"],
  ["We are going hiking this weekend", MON, "2023-05-13", "2023-05-15", "day"],
  ["I have an interview next week", MON, "2023-05-15", "2023-05-22", "week"],
  ["I adopted a puppy two weeks ago", MON, "2023-04-21", "2023-04-28", "week"],
  ["I went to a concert a few days ago", MON, "2023-05-03", "2023-05-07", "day"],
  ["My sister visited a couple of days ago", MON, "2023-05-05", "2023-05-07", "day"],
  ["I started pottery last month", MON, "2023-04-01", "2023-05-01", "month"],
  ["I'm moving next month", MON, "2023-06-01", "2023-07-01", "month"],
  ["I graduated last year", MON, "2022-01-01", "2023-01-01", "year"],
  ["This year has been great", MON, "2023-01-01", "2024-01-01", "year"],
  ["We went to the beach last August", MON, "2022-08-01", "2022-09-01", "month"],
  // Past bias: August has not happened yet in May 2023, so it is August 2022.
  ["We went to the beach in August", MON, "2022-08-01", "2022-09-01", "month"],
  ["We went to the beach in May", MON, "2023-05-01", "2023-06-01", "month"],
  ["The trip was in August 2022", MON, "2022-08-01", "2022-09-01", "month"],
  ["I moved to Boston in 2019", MON, "2019-01-01", "2020-01-01", "year"],
  ["The race was on 8 May 2023", MON, "2023-05-08", "2023-05-09", "day"],
  ["My birthday party was May 8th", MON, "2023-05-08", "2023-05-09", "day"],
  // Past bias on an implied year: 20 June has not come yet on 8 May.
  ["My recital was on June 20th", MON, "2022-06-20", "2022-06-21", "day"],
  ["I saw her last Friday", MON, "2023-05-05", "2023-05-06", "day"],
  ["I saw her on Friday", MON, "2023-05-05", "2023-05-06", "day"],
  // Past bias on a bare weekday: said on Monday, "Wednesday" is the one just gone.
  ["The meeting was on Wednesday", MON, "2023-05-03", "2023-05-04", "day"],
  // What is set for a weekday, or moved to one, lies ahead: the coming one, even when the one just gone is nearer.
  ["My dentist appointment is on Tuesday at 3pm", MON, "2023-05-09", "2023-05-10", "day"],
  ["My dentist appointment got moved to Thursday at 10am", MON, "2023-05-11", "2023-05-12", "day"],
  ["The party is on Saturday!", MON, "2023-05-13", "2023-05-14", "day"],
  // A weekday with its date: the day of that date on which the weekday falls, ahead or behind (chrono alone read the weekday).
  ["They moved my appointment to Wednesday the 17th at 5:15pm.", MON, "2023-05-17", "2023-05-18", "day"],
  ["It was on Friday the 28th.", MON, "2023-04-28", "2023-04-29", "day"],
  ["I have a meeting on Friday", MON, "2023-05-12", "2023-05-13", "day"],
  // A timetable's present: what starts on a weekday starts ahead; what started on one is behind.
  ["My new job at the clinic starts Saturday.", MON, "2023-05-13", "2023-05-14", "day"],
  ["I started on Saturday.", MON, "2023-05-06", "2023-05-07", "day"],
  ["We took a road trip last summer", MON, "2022-06-01", "2022-09-01", "season"],
  ["I planted tulips last spring", MON, "2022-03-01", "2022-06-01", "season"],
  ["We went skiing last winter", MON, "2022-12-01", "2023-03-01", "season"],
  ["I started school last fall", MON, "2022-09-01", "2022-12-01", "season"],
  ["We'll go camping this summer", MON, "2023-06-01", "2023-09-01", "season"],
  ["We met in the summer of 2021", MON, "2021-06-01", "2021-09-01", "season"],
  ["Caroline went to the group the week before 9 June 2023", MON, "2023-06-02", "2023-06-09", "week"],
  ["I quit my job 3 years ago", MON, "2019-11-08", "2020-11-08", "year"],
  ["I got a new car a month ago", MON, "2023-03-24", "2023-04-24", "month"],
  ["We went to a show two weekends ago", MON, "2023-04-29", "2023-05-01", "day"],
  ["I have been reading a lot recently", MON, "2023-04-08", "2023-05-09", "month"],
  ["I will visit in August", MON, "2023-08-01", "2023-09-01", "month"],
];

for (const [sentence, reference, start, end, granularity] of rows) {
  test(`grounds "${sentence}" @ ${reference.slice(0, 10)}`, () => {
    const found = groundTimeExpressions(sentence, reference);
    assert.equal(found.length, 1, `expected one expression, got ${JSON.stringify(found)}`);
    const g = found[0]!;
    assert.deepEqual(
      { start: g.interval.start, end: g.interval.end, granularity: g.interval.granularity },
      { start: `${start}T00:00:00.000Z`, end: `${end}T00:00:00.000Z`, granularity },
    );
    assert.ok(TimeInterval.safeParse(g.interval).success, "interval must satisfy the model schema");
    assert.equal(sentence.slice(g.index, g.index + g.text.length), g.text, "index points at the expression");
  });
}

const notDates = [
  "I may go to the park later",
  "May I ask you something?",
  "We march on no matter what",
  "Let's meet at 5pm",
  "I've been painting for two weeks",
  "I worked there for 3 years",
  "It took 3 years to finish",
  "That was the second time I tried",
  "I sat down and cried",
  "The sun is out",
  "I'd rate that movie 5/10",
  "My shop is open 24/7",
  "I have 3 kids and 2 dogs",
  "Add 1/2 cup of sugar",
  "I always fall asleep during movies",
  "June said she loved the painting",
  "About 2019 people came to the march",
  "In the morning I like coffee",
  "I'm now a teacher",
  "I use the Pomodoro Technique - 25 minutes work, 5-minute break",
  "I had a great weekend",
  "After 3 years of trying I finally did it",
];

for (const sentence of notDates) {
  test(`no time in "${sentence}"`, () => {
    assert.deepEqual(groundTimeExpressions(sentence, MON), []);
  });
}

test("absolute vs relative kind and confidence", () => {
  const abs = groundTimeExpression("8 May 2023", MON);
  assert.equal(abs?.kind, "absolute");
  assert.equal(abs?.confidence, 1);
  assert.equal(groundTimeExpression("in 2019", MON)?.kind, "absolute");
  const rel = groundTimeExpression("yesterday", MON);
  assert.equal(rel?.kind, "relative");
  const vague = groundTimeExpression("a few days ago", MON);
  assert.ok(vague && rel && vague.confidence < rel.confidence, "vague expressions are less certain");
  const recently = groundTimeExpression("recently", MON);
  assert.ok(recently && recently.confidence <= 0.3);
});

test("expression text excludes trailing punctuation", () => {
  const [g] = groundTimeExpressions("I saw her last Friday, it was great", MON);
  assert.equal(g?.text, "last Friday");
});

test("a future cue in the sentence switches past bias off", () => {
  assert.equal(groundTimeExpression("We're going to Rome in August", MON)?.interval.start, "2023-08-01T00:00:00.000Z");
  assert.equal(groundTimeExpression("We went to Rome in August", MON)?.interval.start, "2022-08-01T00:00:00.000Z");
});

test("tense-aware: an arranged future grounds forward, a report or a past progressive back, an arrangement to the nearer reading", () => {
  const MARCH = "2023-03-10T12:00:00.000Z";
  const start = (text: string) => groundTimeExpression(text, MARCH)?.interval.start.slice(0, 10);
  assert.equal(start("I'm going back to Tokyo in May"), "2023-05-01");
  assert.equal(start("She's starting school in September"), "2023-09-01");
  assert.equal(start("I'm planning a road trip around Iceland in June"), "2023-06-01");
  assert.equal(start("I was going back to Tokyo in May"), "2022-05-01");
  assert.equal(start("I went back to Tokyo in May"), "2022-05-01");
  assert.equal(start("I booked a trip to Kyoto in May"), "2023-05-01");
  assert.equal(start("I booked the flights in January"), "2023-01-01");
  // 10 March 2023 is a Friday: Saturday is a day ahead or six back, Tuesday four ahead or three back.
  assert.equal(start("I booked a table on Saturday"), "2023-03-11");
  assert.equal(start("I booked a table on Tuesday"), "2023-03-07");
  assert.equal(start("We're visiting her parents in April"), "2023-04-01");
  // Any present progressive with a named time is arranged.
  assert.equal(start("Not yet. I'm doing one in Leipzig in May, I'm training four times a week"), "2023-05-01");
});

test("pastBias: false keeps chrono's forward reading of an implied year", () => {
  const g = groundTimeExpression("in August", MON, { pastBias: false });
  assert.equal(g?.interval.start, "2023-08-01T00:00:00.000Z");
});

test("several expressions in one turn, in text order", () => {
  const found = groundTimeExpressions("Yesterday I called Mom; last summer we went to Paris, and in 2019 to Rome.", MON);
  assert.deepEqual(
    found.map((g) => g.interval.granularity),
    ["day", "season", "year"],
  );
  assert.ok(found.every((g, i) => i === 0 || g.index > found[i - 1]!.index));
});

test("a bad reference yields nothing rather than a wrong date", () => {
  assert.deepEqual(groundTimeExpressions("yesterday", "not a date"), []);
  assert.equal(groundTimeExpression("hello there", MON), null);
});

test("intervals serialise as UTC ISO strings", () => {
  for (const g of groundTimeExpressions("last week, last summer, two weekends ago, 3 years ago", MON)) {
    assert.match(g.interval.start, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    assert.ok(Date.parse(g.interval.start) < Date.parse(g.interval.end));
  }
});

test("times outside the years 0000–9999 are not kept (their ISO form would not be a storable datetime)", () => {
  const grounded = groundTimeExpressions("The story starts on June 12, 5012 BC at noon and ends next week.", "2023-05-08T13:56:00.000Z");
  assert.ok(grounded.every((g) => /^\d{4}-/.test(g.interval.start) && /^\d{4}-/.test(g.interval.end)), JSON.stringify(grounded));
  assert.ok(grounded.some((g) => /next week/.test(g.text)), "the other times of the turn are kept");
});

test("a part of a period: early / mid / late, the beginning or end of, a half", () => {
  const REF = "2024-03-10T12:00:00.000Z";
  const span = (text: string) => {
    const g = groundTimeExpression(text, REF);
    return g && `${g.interval.start.slice(0, 10)}..${g.interval.end.slice(0, 10)} ${g.interval.granularity} "${g.text}"`;
  };
  assert.equal(span("Where did Rafael live in early 2022?"), `2022-01-01..2022-05-01 season "early 2022"`);
  assert.equal(span("in mid-2022"), `2022-05-01..2022-09-01 season "mid-2022"`);
  assert.equal(span("late 2021"), `2021-09-01..2022-01-01 season "late 2021"`);
  assert.equal(span("at the start of 2022"), `2022-01-01..2022-05-01 season "the start of 2022"`);
  assert.equal(span("the first half of 2022"), `2022-01-01..2022-07-01 season "the first half of 2022"`);
  assert.equal(span("the beginning of November"), `2023-11-01..2023-11-11 week "the beginning of November"`);
  assert.equal(span("we met in mid-August"), `2023-08-11..2023-08-21 week "mid-August"`);
  assert.equal(span("late January"), `2024-01-21..2024-02-01 week "late January"`);
  assert.equal(span("the end of next month"), `2024-04-21..2024-05-01 week "end of next month"`);
  // A whole period, and a part of a week, stay as they are.
  assert.equal(span("in May"), `2023-05-01..2023-06-01 month "May"`);
  assert.equal(span("late last week"), `2024-02-26..2024-03-04 week "last week"`);
});
