import { test } from "node:test";
import assert from "node:assert/strict";
import { findOccurrenceCue } from "./occurrence-cue.js";

test("occurrence cues: an ordinal in front of the event it counts", () => {
  assert.deepEqual(findOccurrenceCue("What did Ines watch on her first trip to Japan?"), { position: "ordinal", ordinal: 1, event: "trip to Japan", evidence: "her first trip to Japan" });
  assert.equal(findOccurrenceCue("Where did Lukas run his second race?")?.ordinal, 2);
  assert.equal(findOccurrenceCue("What was Lukas's time in his most recent race?")?.ordinal, -1);
  assert.equal(findOccurrenceCue("What happened at Dmitri's second job interview?")?.event, "job interview");
  assert.deepEqual(findOccurrenceCue("How did Mei place the last time she swam at Sentosa?"), { position: "ordinal", ordinal: -1, event: "she swam at Sentosa", evidence: "the last time she swam at Sentosa" });
  // The words that end the event phrase are the rest of the question.
  assert.equal(findOccurrenceCue("What is Joanna's third screenplay about?")?.event, "screenplay");
  // "Very" before the ordinal orders the same event.
  assert.deepEqual(findOccurrenceCue("Where did I sell spoons at my very first market?"), { position: "ordinal", ordinal: 1, event: "market", evidence: "my very first market" });
  assert.equal(findOccurrenceCue("What did she say the very last time she called?")?.ordinal, -1);
  // A half marathon is a race, not the half of a year.
  assert.deepEqual(findOccurrenceCue("What was my time in my second half marathon?"), { position: "ordinal", ordinal: 2, event: "half marathon", evidence: "my second half marathon" });
  assert.equal(findOccurrenceCue("What happened to Clara at the first concert she mentioned?")?.event, "concert");
});

test("occurrence cues: an ordinal that closes the question counts the question's own clause", () => {
  assert.deepEqual(findOccurrenceCue("Where did Ilka hear Blue Fjord play the second time?"), {
    position: "ordinal",
    ordinal: 2,
    event: "Blue Fjord play",
    evidence: "Where did Ilka hear Blue Fjord play the second time",
  });
  assert.equal(findOccurrenceCue("Who did Tomas go to Rock Werchter with the first time?")?.event, "Rock Werchter");
  assert.equal(findOccurrenceCue("What did she say the last time?"), null, "a light verb alone names no event");
  assert.equal(findOccurrenceCue("What did I do the last time?"), null);
});

test("occurrence cues: 'the time before' a name is counted from the occurrence it names", () => {
  assert.deepEqual(findOccurrenceCue("Where did they go sailing the time before Mallorca?"), {
    position: "before",
    ordinal: -1,
    event: "sailing",
    anchor: "Mallorca",
    evidence: "the time before Mallorca",
  });
});

test("occurrence cues: 'after her first' asks for the next one", () => {
  assert.equal(findOccurrenceCue("Did Hana go back to Jeju after her first trip, and what did she do there?")?.ordinal, 2);
});

test("occurrence cues: no cue where the ordinal orders no event", () => {
  for (const q of [
    "Which did I do first, the marathon or the triathlon?",
    "When did Caroline first go to the support group?",
    "Where was Calvin located in the last week of October 2023?",
    "How many pieces of jewelry did I acquire in the last two months?",
    "Can you remind me of what we said in our previous conversation about binaural beats?",
    "How long has Nate had his first two turtles?",
    "How many months lapsed between Sam's first and second doctor's appointment?",
    "What did John prepare for the first time in the cooking class?",
    "What did I read in the second half of 2023?",
    "Where did we go in the first half term?",
  ])
    assert.equal(findOccurrenceCue(q), null, q);
});

test("occurrence cues: next and previous counted from another occurrence", () => {
  assert.deepEqual(findOccurrenceCue("What was Lukas's time in his next race after the half marathon?"), {
    position: "after",
    ordinal: 1,
    event: "race",
    anchor: "the half marathon",
    evidence: "his next race after the half marathon",
  });
  assert.deepEqual(findOccurrenceCue("What went wrong on the Iceland trip before the Westfjords one?"), {
    position: "before",
    ordinal: -1,
    event: "Iceland trip",
    anchor: "the Westfjords one",
    evidence: "the Iceland trip before the Westfjords one",
  });
  assert.equal(findOccurrenceCue("What was his previous job before the bakery?")?.position, "before");
  // "next … before" says neither: no cue from it.
  assert.notEqual(findOccurrenceCue("What was her next race before the final?")?.position, "before");
});

test("occurrence cues: 'next' alone is the one still ahead, 'again' the repeat", () => {
  assert.deepEqual(findOccurrenceCue("Where is Mei's next open-water race?"), { position: "upcoming", ordinal: 0, event: "open-water race", evidence: "Mei's next open-water race" });
  assert.equal(findOccurrenceCue("When did John plan his next meeting with his siblings?")?.event, "meeting");
  assert.deepEqual(findOccurrenceCue("Who did Ingrid travel with when she went to Iceland again?"), { position: "repeat", ordinal: 2, event: "Iceland", evidence: "she went to Iceland again" });
  assert.equal(findOccurrenceCue("When did Ingrid go back to Iceland again?")?.event, "Iceland");
  for (const q of ["What did he do the next day?", "What is her next step?", "What did they plan for next week?", "Why did John decide to run for office again?", "What was her dog's name again?"])
    assert.equal(findOccurrenceCue(q), null, q);
});
