import { test } from "node:test";
import assert from "node:assert/strict";
import type { MemoryUnit, StateStatement } from "../model/memory-unit.js";
import { eventStatement } from "./event-statement.js";

const unit = (id: string, content: string, states: StateStatement[] = []) => ({ id, content, context: { states } }) as unknown as MemoryUnit;
const residence = (subject: string, value: string, ends = false): StateStatement => ({ subject, slot: "residence", value, additive: false, ends, evidence: value });

test("the event a query is placed around is the match that states a value the phrase names, else the best match", () => {
  const reply = unit("reply", "assistant: Galway in June is lovely.");
  const move = unit("move", "user: Mia moved to Galway last month.", [residence("Mia", "galway")]);
  const other = unit("other", "user: Mia lived in Dublin.", [residence("Mia", "dublin")]);
  assert.equal(eventStatement("Galway", [reply, other, move])?.id, "move");
  assert.equal(eventStatement("the trip to Galway", [reply, other])?.id, "reply", "no match states what the phrase names: the best one");
  assert.equal(eventStatement("Galway", [reply, unit("left", "user: Mia left Galway.", [residence("Mia", "", true)])])?.id, "reply", "an ending names no value");
  assert.equal(eventStatement("Galway", []), null);
});
