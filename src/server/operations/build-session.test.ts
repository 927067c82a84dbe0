import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { RamemError } from "../../model/errors.js";
import { checkSession, toTurns } from "./build-session.js";

describe("toTurns and checkSession", () => {
  it("gives turns without an id their position, as the native format does", () => {
    const turns = toTurns("s", [{ speaker: "A", text: "one" }, { id: "mine", speaker: "B", text: "two" }, { speaker: "A", text: "three", time: "2023-01-01T00:00:00Z" }], 5);
    assert.deepEqual(turns.map((t) => t.id), ["s:5", "mine", "s:7"]);
    assert.equal(turns[2]!.time, "2023-01-01T00:00:00Z");
    assert.equal("time" in turns[0]!, false);
  });

  it("applies the library's session rules and names the field", () => {
    const session = { id: "s", namespace: "ns", startTime: "2023-01-02T00:00:00.000Z", endTime: "2023-01-01T00:00:00.000Z", participants: ["A"] };
    assert.throws(() => checkSession({ session, turns: [{ id: "1", speaker: "A", text: "hi" }] }), (e: unknown) => e instanceof RamemError && /^endTime: /.test(e.message));
    const ok = { ...session, endTime: session.startTime };
    assert.throws(() => checkSession({ session: ok, turns: [{ id: "1", speaker: "A", text: "" }] }), (e: unknown) => e instanceof RamemError && /turns\[0\]\.text: .*needs text/.test(e.message));
    assert.throws(() => checkSession({ session: ok, turns: [{ id: "1", speaker: "A", text: "a" }, { id: "1", speaker: "A", text: "b" }] }), (e: unknown) => e instanceof RamemError && e.code === "DUPLICATE_TURN");
    assert.equal(checkSession({ session: ok, turns: [{ id: "1", speaker: "A", text: "a" }] }).turns.length, 1);
  });
});
