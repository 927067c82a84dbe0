import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { resolveFirstPerson } from "./resolve-first-person.js";

describe("resolveFirstPerson", () => {
  const cases: Array<[string, string]> = [
    ["I went to a LGBTQ support group yesterday", "Caroline went to a LGBTQ support group yesterday"],
    ["I'm swamped with the kids", "Caroline is swamped with the kids"],
    ["I've been painting", "Caroline has been painting"],
    ["my kids love it", "Caroline's kids love it"],
    ["My mom said so", "Caroline's mom said so"],
    ["I was so happy", "Caroline was so happy"],
    ["I'll go next week", "Caroline will go next week"],
    ["I painted a sunrise", "Caroline painted a sunrise"],
    ["She gave me the book I'd been wanting", "She gave Caroline the book Caroline had been wanting"],
    ["I can come if my car is fixed", "Caroline can come if Caroline's car is fixed"],
  ];
  for (const [input, expected] of cases) {
    it(`rewrites "${input}"`, () => assert.equal(resolveFirstPerson(input, "Caroline"), expected));
  }
  it("leaves present-tense 'I love' alone (rewrite would be ungrammatical)", () => {
    assert.equal(resolveFirstPerson("I love it", "Caroline"), "I love it");
  });
  it("does not touch words that merely contain 'my' or 'I'", () => {
    assert.equal(resolveFirstPerson("Mystery In Iceland, myth", "Ana"), "Mystery In Iceland, myth");
  });
  it("rewrites a turn all or not at all: one first-person form it cannot rewrite keeps the turn's own words", () => {
    assert.equal(resolveFirstPerson("Jon started nursing school, so I quit the roastery", "Jon"), "Jon started nursing school, so I quit the roastery");
    assert.equal(resolveFirstPerson("I went there by myself", "Ana"), "I went there by myself");
    assert.equal(resolveFirstPerson("I love my garden", "Ana"), "I love my garden");
  });
});
