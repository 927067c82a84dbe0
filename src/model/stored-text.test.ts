import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { z } from "zod";
import { findIllFormedText, storedText } from "./stored-text.js";

describe("the stored-text rule", () => {
  it("finds the first NUL or lone surrogate, by its UTF-16 offset; pairs and everything else pass", () => {
    assert.equal(findIllFormedText("Zoë 🙂 日本語 \uFFFD \u200b"), null);
    assert.deepEqual(findIllFormedText("ab\u0000c"), { index: 2, what: "a NUL character (U+0000)" });
    assert.deepEqual(findIllFormedText("🙂\uD83D"), { index: 2, what: "a lone surrogate (U+D83D)" });
    assert.deepEqual(findIllFormedText("\uDE42x"), { index: 0, what: "a lone surrogate (U+DE42)" });
  });

  it("as a zod check it names the position and keeps the schema's own limits", () => {
    const schema = storedText(z.string()).max(5);
    assert.match(schema.safeParse("a\u0000").error?.issues[0]?.message ?? "", /^contains a NUL character \(U\+0000\) at character 2; /);
    assert.match(schema.safeParse("abcdefg").error?.issues[0]?.message ?? "", /<=5/);
    assert.equal(schema.parse("fine"), "fine");
  });
});
