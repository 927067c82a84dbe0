import { test } from "node:test";
import assert from "node:assert/strict";
import { findStateSlot } from "./state-slot-cue.js";

test("state slots: the state a question asks about, named as statements name it", () => {
  assert.deepEqual(findStateSlot("Where does Ines live now?")?.slots, ["residence"]);
  assert.deepEqual(findStateSlot("What is Tom's job now?")?.slots, ["job", "employer"]);
  assert.deepEqual(findStateSlot("Who is Noah dating now?")?.slots, ["partner"]);
  assert.deepEqual(findStateSlot("What does Marcus drive now?")?.slots, ["car"]);
  assert.deepEqual(findStateSlot("How many beehives does Kwame have now?")?.slots, ["number of beehives", "beehives done"]);
  assert.deepEqual(findStateSlot("What is Amara's favourite dish these days?")?.slots, ["favourite dish"]);
  assert.equal(findStateSlot("When did Caroline go to the LGBTQ support group?"), null);
});
