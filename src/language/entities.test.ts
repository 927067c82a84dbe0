import { test } from "node:test";
import assert from "node:assert/strict";
import { extractEntities, topicOf } from "./entities.js";

test("people, places and organisations from a casual line, punctuation trimmed", () => {
  const e = extractEntities("Hey Mel! I went to the LGBTQ support group yesterday in Boston.");
  assert.deepEqual(e.people, ["Mel"]);
  assert.deepEqual(e.places, ["Boston"]);
  // An acronym is no organisation by itself; it stays in the phrase it qualifies.
  assert.deepEqual(e.organizations, []);
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

test("a capitalised word after a first name or a title is the surname, and an abbreviation's full stop stays in the name", () => {
  const e = extractEntities("I finished a book by Patrick Rothfuss, then saw Dr. Patel about my knee.");
  assert.deepEqual(e.people, ["Patrick Rothfuss", "Dr. Patel"]);
  // A place after a name is no surname.
  assert.deepEqual(extractEntities("Melanie Paris trip").places, ["Paris"]);
});

test("a hyphen inside a name is kept", () => {
  assert.deepEqual(extractEntities("We watched Spider-Man with Jon.").people.sort(), ["Jon", "Spider-Man"].sort());
});

test("a noun phrase ends at a pronoun, a trailing preposition or a predicate adjective", () => {
  const e = extractEntities("Taking care of ourselves is key. The pottery class was so relaxing, and my kids loved it.");
  assert.ok(e.topics.includes("care"), JSON.stringify(e.topics));
  assert.ok(e.topics.includes("pottery class"), JSON.stringify(e.topics));
  assert.ok(e.topics.includes("kids"), JSON.stringify(e.topics));
  assert.ok(!e.topics.some((t) => / of$|relaxing|\bit\b/.test(t)), JSON.stringify(e.topics));
});

test("coordinated nouns are separate topics, and a comma ends a phrase", () => {
  const e = extractEntities("Their strength and courage, kindness inspire me.");
  assert.ok(e.topics.includes("strength") && e.topics.includes("courage") && e.topics.includes("kindness"), JSON.stringify(e.topics));
});

test("a surname the name took in is no topic, and a title alone names nobody", () => {
  const e = extractEntities("I met Jon Snow and read a book by Patrick Rothfuss.");
  assert.deepEqual(e.people, ["Jon Snow", "Patrick Rothfuss"]);
  assert.deepEqual(e.topics, ["book"]);
  assert.equal(topicOf("I met Jon Snow."), null);
  assert.deepEqual(extractEntities("Mr. and Mrs. Smith came over.").people, ["Mrs. Smith"]);
});

test("a dash between names ends the name; a hyphen inside one does not", () => {
  for (const dash of [" — ", " – ", " -- ", " - "]) assert.deepEqual(extractEntities(`Jon${dash}Mel went out.`).people, ["Jon", "Mel"], JSON.stringify(dash));
  assert.ok(extractEntities("We watched Spider-Man with Jon.").people.includes("Spider-Man"));
});
