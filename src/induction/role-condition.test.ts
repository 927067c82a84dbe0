import { test } from "node:test";
import assert from "node:assert/strict";
import { induceRoleCondition } from "./role-condition.js";

const ROLES = ["user", "assistant"];

test("role condition: what the assistant said is in the assistant's turns", () => {
  assert.equal(induceRoleCondition("What was the name of that Jamaican dish you recommended?", ROLES)?.role, "assistant");
  assert.equal(induceRoleCondition("I wanted to follow up on our previous conversation about binaural beats.", ROLES)?.role, "assistant");
  assert.equal(induceRoleCondition("Which vegan eatery did you suggest last time?", ROLES)?.evidence, "did you suggest");
});

test("role condition: a first-person question is answered by the user's own turns; a request is not about the assistant", () => {
  assert.equal(induceRoleCondition("How many doctor's appointments did I go to in March?", ROLES)?.role, "user");
  assert.equal(induceRoleCondition("Can you recommend some resources where I can learn more about video editing?", ROLES)?.role, "user");
  assert.equal(induceRoleCondition("What is the capital of France?", ROLES), null);
});

test("role condition: never set where the history has no roles", () => {
  assert.equal(induceRoleCondition("What did I tell you about my dog?", []), null);
  assert.equal(induceRoleCondition("What did you recommend?", ["user"]), null);
});

test("role condition: a request to be reminded of the conversation names no side", () => {
  assert.equal(induceRoleCondition("Can you remind me what was the average improvement in framerate?", ROLES), null);
  assert.equal(induceRoleCondition("I'm trying to recall what the designation on my jumpsuit was.", ROLES), null);
  assert.equal(induceRoleCondition("Can you remind me of the vegan eatery you recommended?", ROLES)?.role, "assistant");
  assert.equal(induceRoleCondition("Tell me a good recipe for dinner", ROLES), null);
});
