import { test } from "node:test";
import assert from "node:assert/strict";
import { futureCueIn, tellsOfPlan, timeCueIn } from "./plan-cue.js";

test("futureCueIn: future words and the arranged future are 'future', arrangements 'arranged', reports nothing", () => {
  const cases: Array<[string, ReturnType<typeof futureCueIn>]> = [
    ["We'll fly to Rome in June", "future"],
    ["I'm going back to Tokyo in May", "future"],
    ["She's starting school in September", "future"],
    ["We are visiting my parents at Easter", "future"],
    ["I'm planning a road trip around Iceland", "future"],
    ["next summer we hike", "future"],
    ["I booked a trip to Kyoto in May", "arranged"],
    ["I signed up for a pottery class", "arranged"],
    ["I was going back to Tokyo in May", null],
    ["I went to Tokyo in May", null],
    ["She sat next to me at dinner", null],
  ];
  for (const [text, expected] of cases) assert.equal(futureCueIn(text), expected, text);
});

test("tellsOfPlan: intentions count too, reports do not", () => {
  assert.equal(tellsOfPlan("I want to see the Northern Lights at some point"), true);
  assert.equal(tellsOfPlan("I booked a trip to Kyoto"), true);
  assert.equal(tellsOfPlan("We saw the Northern Lights in Tromsø"), false);
});

test("timeCueIn: any present progressive reads a named time as ahead, unless it speaks of now", () => {
  assert.equal(timeCueIn("Not yet. I'm doing one in Leipzig in November"), "future");
  assert.equal(timeCueIn("We're having a party in June"), "future");
  assert.equal(timeCueIn("I'm going back to Tokyo in May"), "future");
  assert.equal(timeCueIn("I've been running since March"), null);
  assert.equal(timeCueIn("I'm still training since May"), null);
  assert.equal(timeCueIn("I ran one in Leipzig in November"), null);
  assert.equal(timeCueIn("The swim was amazing in May"), null);
  assert.equal(timeCueIn("I'm thinking about the trip in May"), null);
  assert.equal(timeCueIn("I'm sorting the photos from May"), null);
  // Wider for times only: what is going on now is no plan.
  assert.equal(futureCueIn("I'm training four times a week"), null);
  assert.equal(tellsOfPlan("I'm training four times a week"), false);
});
