import { test } from "node:test";
import assert from "node:assert/strict";
import { roleOfTurn, speakerIsRole } from "./role-of-turn.js";

test("a turn's role is its own role field, else a speaker that is a role word", () => {
  assert.equal(roleOfTurn({ speaker: "Caroline" }), null);
  assert.equal(roleOfTurn({ speaker: "Caroline", role: "user" }), "user");
  assert.equal(roleOfTurn({ speaker: "Assistant" }), "assistant");
  assert.equal(roleOfTurn({ speaker: "user" }), "user");
});

test("only a speaker named by a role word has no name", () => {
  assert.equal(speakerIsRole({ speaker: "user", role: "user" }), true);
  assert.equal(speakerIsRole({ speaker: "Caroline", role: "user" }), false);
  assert.equal(speakerIsRole({ speaker: "Tool" }), true);
});
