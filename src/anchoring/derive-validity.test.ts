import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { deriveValidity } from "./derive-validity.js";
import { stateUnit } from "./testing/state-unit.js";

const unit = stateUnit;

describe("deriveValidity", () => {
  it("a later value of the same slot supersedes the earlier; repeating a value supersedes nothing", () => {
    const v = deriveValidity([
      unit("lisbon", "2022-01-10", [{ value: "lisbon" }]),
      unit("lisbon-again", "2022-06-01", [{ value: "lisbon" }]),
      unit("porto", "2023-02-01", [{ value: "porto" }]),
    ]);
    assert.deepEqual(v.get("lisbon"), { states: ["residence = lisbon"], validFrom: "2022-01-10T10:00:00.000Z", validTo: "2023-02-01T10:00:00.000Z", supersededBy: "porto", origin: "rule", link: { confidence: 0.9, evidence: "" } });
    assert.equal(v.get("lisbon-again")!.supersededBy, "porto");
    assert.equal(v.get("porto")!.validTo, null);
  });

  it("a unit that still holds one state lists the others a later statement ended, and stays valid", () => {
    const v = deriveValidity([
      unit("leeds-and-tom", "2024-01-15", [{ value: "leeds" }, { slot: "partner", value: "tom" }]),
      unit("manchester", "2024-06-03", [{ value: "manchester" }]),
    ]);
    const leeds = v.get("leeds-and-tom")!;
    assert.equal(leeds.validTo, null, "the partner still holds");
    assert.equal(leeds.supersededBy, null);
    assert.deepEqual(leeds.ended, [{ state: "residence = leeds", validTo: "2024-06-03T10:00:00.000Z", supersededBy: "manchester" }]);
    assert.equal(v.get("manchester")!.ended, undefined);
    // When every state it states ended, the unit is superseded and lists none apart.
    const all = deriveValidity([unit("leeds-and-tom", "2024-01-15", [{ value: "leeds" }, { slot: "partner", value: "tom" }]), unit("later", "2024-06-03", [{ value: "manchester" }, { slot: "partner", value: "sam" }])]);
    assert.equal(all.get("leeds-and-tom")!.supersededBy, "later");
    assert.equal(all.get("leeds-and-tom")!.ended, undefined);
  });

  it("a change the turn dates shortly before it was said counts from then", () => {
    const moved = unit("porto", "2023-02-10", [{ value: "porto" }]);
    moved.context.eventTime = { start: "2023-02-01T00:00:00.000Z", end: "2023-02-08T00:00:00.000Z", granularity: "week" };
    const v = deriveValidity([unit("lisbon", "2022-01-10", [{ value: "lisbon" }]), moved]);
    assert.equal(v.get("lisbon")!.validTo, "2023-02-01T00:00:00.000Z");
  });

  it("pets add up: a second pet supersedes nothing, a pet that died ends only itself", () => {
    const pet = (value: string, ends = false) => ({ slot: "pet", value, additive: true, ends });
    const v = deriveValidity([unit("rex", "2022-01-01", [pet("rex")]), unit("miso", "2022-05-01", [pet("miso")]), unit("rex-died", "2023-01-01", [pet("rex", true)])]);
    assert.equal(v.get("rex")!.supersededBy, "rex-died");
    assert.equal(v.get("miso")!.supersededBy, null);
    assert.equal(v.has("rex-died"), false, "an ending statement states no state of its own");
  });

  it("an ending statement closes a slot; other subjects and slots are apart", () => {
    const v = deriveValidity([
      unit("car", "2022-01-01", [{ slot: "car", value: "civic" }]),
      unit("sold", "2022-09-01", [{ slot: "car", ends: true }]),
      unit("tom", "2022-10-01", [{ slot: "car", value: "tesla", subject: "Tom" }]),
    ]);
    assert.equal(v.get("car")!.supersededBy, "sold");
    assert.equal(v.get("tom")!.supersededBy, null);
  });

  it("a unit stating two slots is superseded only when both are", () => {
    const v = deriveValidity([unit("both", "2022-01-01", [{ value: "lisbon" }, { slot: "job", value: "nurse" }]), unit("porto", "2023-01-01", [{ value: "porto" }])]);
    assert.equal(v.get("both")!.supersededBy, null);
    assert.equal(v.get("both")!.validTo, null);
  });

  it("a user's override wins over the rules, both ways", () => {
    const v = deriveValidity([
      unit("lisbon", "2022-01-10", [{ value: "lisbon" }], { supersession: { supersededBy: null, at: "2024-01-01T00:00:00.000Z" } }),
      unit("porto", "2023-02-01", [{ value: "porto" }]),
      unit("note", "2023-03-01", [], { supersession: { supersededBy: "porto", at: "2024-01-01T00:00:00.000Z" } }),
    ]);
    assert.deepEqual([v.get("lisbon")!.supersededBy, v.get("lisbon")!.origin], [null, "user"]);
    assert.deepEqual([v.get("note")!.supersededBy, v.get("note")!.validTo], ["porto", "2023-02-01T10:00:00.000Z"]);
  });

  it("a turn's own time orders statements inside one session; the session start is only the fallback", () => {
    const lisbon = unit("lisbon", "2022-03-01", [{ value: "lisbon" }]);
    const porto = unit("porto", "2022-03-01", [{ value: "porto" }]);
    lisbon.context.saidAt = "2022-03-01T10:00:00.000Z";
    porto.context.saidAt = "2023-02-01T09:00:00.000Z";
    // Listed in the wrong order on purpose: the times decide.
    const v = deriveValidity([porto, lisbon]);
    assert.equal(v.get("lisbon")!.supersededBy, "porto");
    assert.equal(v.get("lisbon")!.validTo, "2023-02-01T09:00:00.000Z");
    assert.equal(v.get("porto")!.validFrom, "2023-02-01T09:00:00.000Z");
  });

  it("a relation statement makes a relative and a name one subject", () => {
    const v = deriveValidity([
      unit("ana-berlin", "2022-01-10", [
        { subject: "Ana", value: "berlin" },
        { subject: "Ana", slot: "relation", value: "ines's sister", additive: true },
      ]),
      unit("own-move", "2022-06-01", [{ value: "porto" }]),
      unit("sister-munich", "2023-02-01", [{ subject: "Ines's sister", value: "munich" }]),
    ]);
    assert.equal(v.get("ana-berlin")!.supersededBy, "sister-munich");
    // The speaker's own move is another subject's state.
    assert.equal(v.get("own-move")!.supersededBy, null);
  });

  it("open keys: the same words supersede with a confidence, near words are only related", () => {
    const v = deriveValidity([
      unit("pb-1", "2023-05-01", [{ slot: "personal best time", value: "27:12", open: true, evidence: "pb 27:12" }]),
      unit("gym-1", "2023-05-02", [{ slot: "visits to gym", value: "3", open: true }]),
      unit("pb-2", "2023-05-20", [{ slot: "personal best time in charity 5k run", value: "25:50", open: true, evidence: "pb 25:50" }]),
      unit("gym-2", "2023-05-21", [{ slot: "gym class schedule", value: "tuesdays", open: true, evidence: "class tuesdays" }]),
    ]);
    assert.equal(v.get("pb-1")!.supersededBy, "pb-2");
    const link = v.get("pb-1")!.link!;
    assert.ok(link.confidence > 0.6 && link.confidence < 0.9, `confidence ${link.confidence}`);
    assert.equal(link.evidence, "pb 25:50");
    assert.equal(v.get("gym-1")!.supersededBy, null);
    assert.deepEqual(v.get("gym-1")!.relatedLater, [{ unitId: "gym-2", on: "2023-05-21T10:00:00.000Z", evidence: "class tuesdays" }]);
  });
});
