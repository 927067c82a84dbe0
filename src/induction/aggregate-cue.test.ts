import { test } from "node:test";
import assert from "node:assert/strict";
import { findAggregateCue } from "./aggregate-cue.js";

test("aggregate cues: counts, totals, every occurrence, comparisons of two events", () => {
  assert.equal(findAggregateCue("How many doctor's appointments did I go to in March?"), "How many");
  assert.equal(findAggregateCue("What is the total amount I spent on luxury items?"), "total");
  assert.equal(findAggregateCue("Which gift did I buy first, the necklace or the photo album?"), "Which gift did I buy first");
  assert.equal(findAggregateCue("How many days passed between the Walk for Hunger and the Coastal Cleanup?"), "How many");
  assert.match(findAggregateCue("What do Jon and Gina both have in common?") ?? "", /both/);
});

test("aggregate cues: a question about one fact has none", () => {
  assert.equal(findAggregateCue("What breed is my dog?"), null);
  assert.equal(findAggregateCue("When did Caroline go to the LGBTQ support group?"), null);
  assert.equal(findAggregateCue("Where did I go on my most recent family trip?"), null);
});
