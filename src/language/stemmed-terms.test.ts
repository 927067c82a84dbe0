import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { stemmer } from "stemmer";
import { STEM_MEMO_SIZE, stemmedTerms } from "./stemmed-terms.js";

describe("stemmedTerms", () => {
  it("stems content words and drops function words, so inflections meet", () => {
    assert.deepEqual([...stemmedTerms("What did Melanie paint?")], ["melani", "paint"]);
    const memory = stemmedTerms("Melanie: Painting's a fun way to relax; she painted a sunrise.");
    assert.ok(memory.has("paint"));
    assert.ok(!memory.has("a"));
  });

  it("gives the stemmer's stems from its memo too, also after the memo filled and started over", () => {
    const text = "Melanie painted sunrises, running marathons and cooking";
    const want = ["melani", "paint", "sunris", "run", "marathon", "cook"];
    assert.deepEqual([...stemmedTerms(text)], want);
    assert.deepEqual([...stemmedTerms(text)], want);
    for (let i = 0; i <= STEM_MEMO_SIZE; i += 1000) stemmedTerms(Array.from({ length: 1000 }, (_, j) => `w${i + j}ing`).join(" "));
    assert.deepEqual([...stemmedTerms(text)], want);
    assert.deepEqual([...stemmedTerms("w12ing")], [stemmer("w12ing")]);
  });
});
