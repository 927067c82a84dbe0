import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { findStateSubject, isSubjectAsked } from "./state-subject.js";

describe("findStateSubject", () => {
  it("reads a relation of the asker or of a named person, a name, or the asker", () => {
    assert.deepEqual(findStateSubject("Where does my sister live now?"), { relation: "sister", evidence: "my sister" });
    assert.deepEqual(findStateSubject("Where does Ines's sister live now?"), { relation: "sister", of: "Ines", evidence: "Ines's sister" });
    assert.deepEqual(findStateSubject("Where does Ana live?"), { name: "Ana", evidence: "Ana" });
    assert.deepEqual(findStateSubject("Ines works where now?", ["Ines", "Tom"]), { name: "Ines", evidence: "Ines" });
    assert.deepEqual(findStateSubject("How long have I been using my Fitbit?"), { self: true, evidence: "I" });
    assert.deepEqual(findStateSubject("how long have I been using it?"), { self: true, evidence: "I" });
    assert.equal(findStateSubject("Where is the best bakery?"), null);
  });
  it("a relation followed by a name asks about the named person", () => {
    assert.deepEqual(findStateSubject("Where does Maren's cousin Elodie live now?"), { name: "Elodie", evidence: "Maren's cousin Elodie" });
    assert.deepEqual(findStateSubject("Who is my friend Josie going out with now?"), { name: "Josie", evidence: "my friend Josie" });
  });
});

describe("isSubjectAsked", () => {
  const aliases = new Map([["user's sister", "ana"]]);
  it("a relation matches its alias's name and its own wording; a name matches its relation", () => {
    assert.ok(isSubjectAsked({ relation: "sister", evidence: "" }, "Ana", "User", aliases));
    assert.ok(isSubjectAsked({ relation: "sister", evidence: "" }, "User's sister", "User", aliases));
    assert.ok(!isSubjectAsked({ relation: "sister", evidence: "" }, "User", "User", aliases));
    assert.ok(isSubjectAsked({ name: "Ana", evidence: "" }, "User's sister", "User", aliases));
    assert.ok(!isSubjectAsked({ relation: "sister", of: "Tom", evidence: "" }, "User's sister", "User", new Map()));
  });
  it("kin has several names: 'my father' is whom the statements call 'dad'", () => {
    assert.ok(isSubjectAsked({ relation: "father", evidence: "" }, "User's dad", "User", new Map()));
    assert.ok(isSubjectAsked({ relation: "mum", of: "Tom", evidence: "" }, "tom's mother", "User", new Map()));
    assert.ok(!isSubjectAsked({ relation: "mum", of: "Tom", evidence: "" }, "ana's mother", "User", new Map()));
    assert.ok(!isSubjectAsked({ relation: "father", evidence: "" }, "User's grandpa", "User", new Map()));
    // Kin in the family's own language: "Oma" is the grandmother, "Pappa" the father.
    assert.ok(isSubjectAsked({ relation: "grandmother", evidence: "" }, "User's oma", "User", new Map()));
    assert.ok(isSubjectAsked({ relation: "father", evidence: "" }, "User's pappa", "User", new Map()));
    assert.ok(!isSubjectAsked({ relation: "grandmother", evidence: "" }, "User's opa", "User", new Map()));
  });
  it("the asker's own states are those a speaker states of themself; no subject asked matches any", () => {
    assert.ok(isSubjectAsked({ self: true, evidence: "I" }, "User", "User", aliases));
    assert.ok(!isSubjectAsked({ self: true, evidence: "I" }, "Ana", "User", aliases));
    assert.ok(isSubjectAsked(null, "Ana", "User", aliases));
  });
});
