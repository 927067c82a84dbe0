import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { stemmedTerms } from "./stemmed-terms.js";

describe("stemmedTerms", () => {
  it("stems content words and drops function words, so inflections meet", () => {
    assert.deepEqual([...stemmedTerms("What did Melanie paint?")], ["melani", "paint"]);
    const memory = stemmedTerms("Melanie: Painting's a fun way to relax; she painted a sunrise.");
    assert.ok(memory.has("paint"));
    assert.ok(!memory.has("a"));
  });
});
