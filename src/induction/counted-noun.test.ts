import { test } from "node:test";
import assert from "node:assert/strict";
import { countedNoun } from "./counted-noun.js";

test("countedNoun: the category a count is of, past 'different' and 'types of', up to the verb", () => {
  assert.equal(countedNoun("How many different types of citrus fruits have I used in my cocktail recipes?"), "citrus fruits");
  assert.equal(countedNoun("how many pieces of furniture did I buy, assemble, sell, or fix?"), "furniture");
  assert.equal(countedNoun("How many board games do we own?"), "board games");
  assert.equal(countedNoun("How many dogs does Maria have?"), "dogs");
  assert.equal(countedNoun("How many museums in Paris did Jon visit?"), "museums");
});

test("countedNoun: a total spent on something is of that something; 'items' and '-related' name no category", () => {
  assert.equal(countedNoun("What is the total amount I spent on luxury items in the past few months?"), "luxury");
  assert.equal(countedNoun("How much did I spend on gardening tools last spring?"), "gardening tools");
  assert.equal(countedNoun("How many different art-related events did I attend?"), "events");
});

test("countedNoun: null for counts of times or days, and for questions that count nothing", () => {
  assert.equal(countedNoun("How many times did I bake something in the past two weeks?"), null);
  assert.equal(countedNoun("How many days did the trip take?"), null);
  assert.equal(countedNoun("Which did I visit first, Rome or Paris?"), null);
  assert.equal(countedNoun("Where did Alice live in May?"), null);
  assert.equal(countedNoun(""), null);
});
