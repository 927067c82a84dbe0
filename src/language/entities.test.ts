import { test } from "node:test";
import assert from "node:assert/strict";
import { extractEntities, topicOf } from "./entities.js";

test("people, places and organisations from a casual line, punctuation trimmed", () => {
  const e = extractEntities("Hey Mel! I went to the LGBTQ support group yesterday in Boston.");
  assert.deepEqual(e.people, ["Mel"]);
  assert.deepEqual(e.places, ["Boston"]);
  assert.deepEqual(e.organizations, ["LGBTQ"]);
  assert.ok(e.topics.includes("lgbtq support group"), JSON.stringify(e.topics));
});

test("several names keep their capitalisation and are not repeated as topics", () => {
  const e = extractEntities("Caroline and Melanie talked about adoption agencies at Google in New York City.");
  assert.deepEqual(e.people, ["Caroline", "Melanie"]);
  assert.deepEqual(e.places, ["New York City"]);
  assert.deepEqual(e.organizations, ["Google"]);
  assert.deepEqual(e.topics, ["adoption agencies"]);
});

test("names are deduplicated case-insensitively", () => {
  const e = extractEntities("Jon called. Then Jon called again! JON never stops.");
  assert.equal(e.people.filter((p) => p.toLowerCase() === "jon").length, 1);
});

test("topics are lowercased noun phrases without pronouns, determiners or time words", () => {
  const e = extractEntities("Gina lost her job at Door Dash last week, so she started an online clothing store.");
  assert.ok(e.topics.includes("online clothing store"), JSON.stringify(e.topics));
  for (const t of e.topics) {
    assert.equal(t, t.toLowerCase());
    assert.doesNotMatch(t, /\b(her|she|an|the|last|week)\b/);
  }
});

test("filler turns have no entities", () => {
  assert.deepEqual(extractEntities("lol yeah, thanks!"), { people: [], places: [], organizations: [], topics: [] });
  assert.deepEqual(extractEntities("   "), { people: [], places: [], organizations: [], topics: [] });
  assert.equal(topicOf("Thanks!"), null);
});

test("topicOf picks the most specific noun phrase", () => {
  assert.equal(topicOf("Wow, that's awesome, Jon! How's the dance studio going?"), "dance studio");
  assert.equal(topicOf("My friend's new painting of a sunset is amazing"), "new painting of sunset");
});

test("fast enough for thousands of turns", () => {
  const lines = [
    "Hey Mel! I went to the LGBTQ support group yesterday in Boston.",
    "That's so cool, Caroline! What did you learn there? I've been painting a lot with the kids lately.",
    "I'm thinking of going to Paris with my mom next summer, we have never been to France.",
    "Gina lost her job at Door Dash, so she started an online clothing store.",
  ];
  extractEntities(lines[0]!); // warm-up: compromise builds its lexicon lazily
  const n = 400;
  const t0 = performance.now();
  for (let i = 0; i < n; i++) extractEntities(lines[i % lines.length]!);
  const perTurn = (performance.now() - t0) / n;
  // Budget: 6,000 turns in ~10 s → < 1.7 ms per turn; allow slack for slow CI machines.
  assert.ok(perTurn < 5, `extractEntities took ${perTurn.toFixed(2)} ms per turn`);
});
