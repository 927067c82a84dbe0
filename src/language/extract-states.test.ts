import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { extractStates } from "./extract-states.js";

const one = (text: string) => extractStates(text, "Ines").map(({ slot, value, additive, ends }) => ({ slot, value, additive, ends }));

describe("extractStates", () => {
  it("reads where the speaker lives, works and with whom", () => {
    assert.deepEqual(one("I live in Lisbon, right by the river."), [{ slot: "residence", value: "lisbon", additive: false, ends: false }]);
    assert.deepEqual(one("Big news: I moved to Porto last week!"), [{ slot: "residence", value: "porto", additive: false, ends: false }]);
    assert.deepEqual(one("I started a new job as a nurse at the clinic."), [{ slot: "job", value: "nurse", additive: false, ends: false }]);
    assert.deepEqual(one("I'm now working at Google."), [{ slot: "employer", value: "google", additive: false, ends: false }]);
    assert.deepEqual(one("My boyfriend Sam cooked tonight."), [{ slot: "partner", value: "sam", additive: false, ends: false }]);
    assert.deepEqual(one("We broke up in March."), [{ slot: "partner", value: "", additive: false, ends: true }]);
  });

  it("pets add up; a pet that died ends only itself", () => {
    assert.deepEqual(one("We adopted a kitten named Miso!"), [{ slot: "pet", value: "miso", additive: true, ends: false }]);
    assert.deepEqual(one("My dog Rex passed away yesterday."), [{ slot: "pet", value: "rex", additive: true, ends: true }]);
    assert.deepEqual(one("My cat Luna sleeps all day."), [{ slot: "pet", value: "luna", additive: true, ends: false }]);
  });

  it("diet, favourites and counts", () => {
    assert.deepEqual(one("I no longer eat meat."), [{ slot: "eats meat", value: "no", additive: false, ends: false }]);
    assert.deepEqual(one("My favourite band is Radiohead these days."), [{ slot: "favourite band", value: "radiohead", additive: false, ends: false }]);
    assert.deepEqual(one("I have two kids and a cat."), [{ slot: "number of kids", value: "2", additive: false, ends: false }]);
    assert.deepEqual(one("I've completed 30 videos so far for Corey's series."), [{ slot: "videos done", value: "30", additive: false, ends: false }]);
  });

  it("plans, other people and plain chat state nothing", () => {
    assert.deepEqual(one("I'm going to move to Porto next month."), []);
    assert.deepEqual(one("My sister lives in Berlin."), []);
    assert.deepEqual(one("I love the sunset at the beach."), []);
    assert.deepEqual(one("I moved to Porto in May."), [{ slot: "residence", value: "porto", additive: false, ends: false }]);
  });
});
