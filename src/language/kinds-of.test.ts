import { test } from "node:test";
import assert from "node:assert/strict";
import { kindsOf, KINDS_LIMIT } from "./kinds-of.js";

test("kindsOf: a compound noun is read whole, a plural as its singular; its kinds are WordNet's narrower nouns", () => {
  const citrus = kindsOf("citrus fruits")!;
  assert.equal(citrus.noun, "citrus_fruit");
  for (const kind of ["orange", "lemon", "lime", "grapefruit", "tangerine"]) assert.ok(citrus.kinds.includes(kind), kind);
  assert.ok(!citrus.kinds.includes("citrus") && !citrus.kinds.includes("fruit"), "never a word of the phrase itself");
  const jewelry = kindsOf("Jewelry")!;
  assert.equal(jewelry.noun, "jewelry");
  for (const kind of ["necklace", "bracelet", "earring", "brooch"]) assert.ok(jewelry.kinds.includes(kind), kind);
});

test("kindsOf: a phrase WordNet has not whole is read as its head, the last word", () => {
  const festivals = kindsOf("movie festivals")!;
  assert.equal(festivals.noun, "festival");
  assert.ok(festivals.kinds.includes("carnival"));
  assert.equal(kindsOf("vintage dresses")!.noun, "dress");
});

test("kindsOf: single words only, nearest first, at most the limit", () => {
  const fish = kindsOf("fish")!;
  assert.equal(fish.kinds.length, KINDS_LIMIT);
  assert.ok(fish.kinds.every((k) => /^[a-z]{3,}$/.test(k)), "single words of letters");
  assert.equal(new Set(fish.kinds).size, fish.kinds.length, "no word twice");
  const doctors = kindsOf("doctors", 20)!;
  assert.equal(doctors.kinds.length, 20);
  // A direct kind (a specialist) comes before a kind of a kind (a cardiologist is a specialist).
  const all = kindsOf("doctors")!.kinds;
  assert.ok(all.indexOf("specialist") >= 0 && all.indexOf("specialist") < all.indexOf("cardiologist"));
});

test("kindsOf: null for what is no WordNet noun, and for no words", () => {
  assert.equal(kindsOf("zzqxv"), null);
  assert.equal(kindsOf(""), null);
  assert.equal(kindsOf("  --  "), null);
});
