import { test } from "node:test";
import assert from "node:assert/strict";
import { findCurrentStateCue } from "./current-state-cue.js";

test("current-state cues: now-words and present-tense state questions", () => {
  assert.equal(findCurrentStateCue("Where does Ines live now?", false), "now");
  assert.equal(findCurrentStateCue("What brand of BBQ sauce am I currently obsessed with?", false), "currently");
  assert.equal(findCurrentStateCue("How many videos have I completed so far?", false), "so far");
  assert.equal(findCurrentStateCue("Where did I go on my most recent family trip?", false), "most recent");
  assert.equal(findCurrentStateCue("Where does the user live?", false), "present tense");
  assert.equal(findCurrentStateCue("Is Tom still dating Sam?", false), "still");
  assert.equal(findCurrentStateCue("Does Ines have a car?", false), "present tense");
});

test("current-state cues: past questions and questions with a past time have none", () => {
  assert.equal(findCurrentStateCue("What did Caroline research?", false), null);
  assert.equal(findCurrentStateCue("Where did Ines live in 2022?", true), null);
  assert.equal(findCurrentStateCue("What was Tom's job before he became a nurse?", false), null);
  assert.equal(findCurrentStateCue("When did Melanie paint a sunrise?", false), null);
  // The auxiliary of the state is present, the question's is past.
  assert.equal(findCurrentStateCue("What car did Marcus have when he lived in Cape Town?", false), null);
  assert.equal(findCurrentStateCue("Which pets did Ana have?", false), null);
});

test("a span up to now in the present perfect is a current-state cue of its own, unless a clause places it elsewhere", () => {
  assert.equal(findCurrentStateCue("How long have I been using my Fitbit Charge 3?", false), "how long have");
  assert.equal(findCurrentStateCue("How long has Beatriz had her e-reader?", false), "how long has");
  assert.equal(findCurrentStateCue("How long have I been working before I started at Google?", false), "present tense");
  assert.equal(findCurrentStateCue("How long had I been using the rug when I rearranged the room?", false), null);
  assert.equal(findCurrentStateCue("How long did Ines live in Lisbon?", false), null);
  assert.equal(findCurrentStateCue("How long has Tom lived in Porto?", true), null);
});

test("a part of a known whole counted in the present perfect is progress up to now; a bare count is not", () => {
  assert.equal(findCurrentStateCue("How many of the chapters has Lina translated?", false), "how many of … have");
  assert.equal(findCurrentStateCue("How many of my vaccinations have I had?", false), "how many of … have");
  assert.equal(findCurrentStateCue("How many books have I read?", false), "present tense");
  assert.equal(findCurrentStateCue("How many of the chapters had Lina translated by May?", false), null);
  assert.equal(findCurrentStateCue("How many of the chapters has Lina translated since June?", false), "present tense");
});
