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
});
