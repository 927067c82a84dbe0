import { test } from "node:test";
import assert from "node:assert/strict";
import { findStateSlot } from "./state-slot-cue.js";

test("state slots: the state a question asks about, named as statements name it", () => {
  assert.deepEqual(findStateSlot("Where does Ines live now?")?.slots, ["residence"]);
  assert.deepEqual(findStateSlot("What is Tom's job now?")?.slots, ["job", "employer"]);
  assert.deepEqual(findStateSlot("What's Priya's job now?")?.slots, ["job", "employer"], "a contracted \"what is\"");
  assert.deepEqual(findStateSlot("Who is Noah dating now?")?.slots, ["partner"]);
  assert.deepEqual(findStateSlot("What does Marcus drive now?")?.slots, ["car"]);
  assert.deepEqual(findStateSlot("How many beehives does Kwame have now?")?.slots, ["number of beehives", "beehives done"]);
  assert.deepEqual(findStateSlot("What is Amara's favourite dish these days?")?.slots, ["favourite dish"]);
  assert.equal(findStateSlot("When did Caroline go to the LGBTQ support group?"), null);
  assert.deepEqual(findStateSlot("What does Clara do for a living now?")?.slots, ["job", "employer"]);
  // Whose job, in several words: "my older brother", "Ruth's brother Fergus".
  assert.deepEqual(findStateSlot("What does Ruth's brother Fergus do for work now?")?.slots, ["job", "employer"]);
  assert.deepEqual(findStateSlot("Where did Ruth's brother work before he started his training?")?.slots, ["job", "employer"]);
  assert.deepEqual(findStateSlot("What pets does Tom have now?")?.slots, ["pet"]);
  assert.deepEqual(findStateSlot("Who was Noah's girlfriend in early 2022?")?.slots, ["partner"]);
  assert.deepEqual(findStateSlot("What vehicle does Rafael ride or drive now?")?.slots, ["car"]);
  // Yes or no about a value: "Do I still work at Monzo?" asks the job as "Where do I work?" does.
  assert.deepEqual(findStateSlot("Do I still work at Monzo?")?.slots, ["job", "employer"]);
  assert.deepEqual(findStateSlot("Does Ana still live in Berlin?")?.slots, ["residence"]);
  assert.deepEqual(findStateSlot("Is Tom still living in Leeds?")?.slots, ["residence"]);
  // "Which city … live in" asks where, in other words; a city visited is no home.
  assert.deepEqual(findStateSlot("Which city does my sister live in now?")?.slots, ["residence"]);
  assert.deepEqual(findStateSlot("What town is Gideon living in these days?")?.slots, ["residence"]);
  assert.equal(findStateSlot("Which city did Jon visit in May?"), null);
  assert.equal(findStateSlot("Does Jon still work on his studio?"), null, "work on a project is no job");
});

test("state slots: a slot word in a question about something else is no state question", () => {
  for (const q of [
    "What are the breeds of Audrey's dogs?",
    "What is Jon working on opening?",
    "Which types of cars does Dave like the most?",
    "What kind of pastries did Andrew and his girlfriend have at the cafe?",
    "What are John's goals for his career that are not related to his basketball skills?",
    "What activity do Audrey's dogs like to do in the dog park?",
  ])
    assert.equal(findStateSlot(q), null, q);
});
