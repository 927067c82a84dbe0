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
