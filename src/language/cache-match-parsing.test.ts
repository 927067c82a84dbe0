import { test } from "node:test";
import assert from "node:assert/strict";
import nlp from "compromise";
import { cacheMatchParsing } from "./cache-match-parsing.js";

const one = () => (nlp as unknown as { world(): { methods: { one: { parseMatch(m: unknown, o?: unknown, w?: unknown): Array<Record<string, unknown>> } } } }).world().methods.one;

test("cacheMatchParsing: a cached compile equals a fresh one, and a caller's mutation does not reach the next caller", () => {
  const fresh = JSON.stringify(one().parseMatch("#Honorific+? #Person+", {}, nlp.world()));
  cacheMatchParsing();
  cacheMatchParsing(); // installing twice wraps once
  const first = one().parseMatch("#Honorific+? #Person+", {}, nlp.world());
  assert.equal(JSON.stringify(first), fresh);
  first[0]!.start = true; // what compromise's growRight does to a compiled match
  first.push({ word: "extra" });
  const second = one().parseMatch("#Honorific+? #Person+", {}, nlp.world());
  assert.equal(JSON.stringify(second), fresh);
  assert.notEqual(first, second);
});

test("cacheMatchParsing: matches, growRight and the views anchoring reads give what they give without it", () => {
  cacheMatchParsing();
  const text = "Dr. Maria Lopez flew from Paris to Lisbon with the Red Cross team, then she met John at the harbour.";
  const doc = nlp(text);
  assert.deepEqual(doc.people().out("array"), ["Dr. Maria Lopez", "John"]);
  // growRight marks its compiled match as anchored; a later plain match of the same string must not be.
  const grown = doc.match("flew").growRight("from #Place");
  assert.equal(grown.text(), "flew from Paris");
  assert.equal(doc.match("from #Place").text(), "from Paris");
  assert.equal(doc.match("(to|with) #Place").text(), "to Lisbon");
});
