import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { RamemError } from "../model/errors.js";
import type { StoredSession } from "../store/contract.js";
import { sessionFromTurns } from "./session-from-turns.js";

const NOW = new Date("2024-01-01T00:00:00.000Z");

describe("sessionFromTurns", () => {
  it("a new session: ids by position, span from startTime and turn times, participants from speakers", () => {
    const s = sessionFromTurns(
      { namespace: "ns", sessionId: "a", startTime: "2023-05-08", turns: [{ speaker: "Ana", text: "hi", time: "2023-05-07T10:00:00Z" }, { speaker: "Ben", text: "yo", time: "2023-05-09T10:00:00Z" }] },
      { now: NOW },
    );
    assert.deepEqual(s.turns.map((t) => t.id), ["a:1", "a:2"]);
    assert.deepEqual([s.session.startTime, s.session.endTime], ["2023-05-07T10:00:00.000Z", "2023-05-09T10:00:00.000Z"]);
    assert.deepEqual(s.session.participants, ["Ana", "Ben"]);
  });

  it("undated turns: dated by undatedTurnTime when given, else the session is dated now", () => {
    const live = sessionFromTurns({ namespace: "ns", sessionId: "b", undatedTurnTime: "2023-02-02T08:00:00Z", turns: [{ speaker: "Ana", text: "hi" }] }, { now: NOW });
    assert.equal(live.turns[0]!.time, "2023-02-02T08:00:00.000Z");
    const undated = sessionFromTurns({ namespace: "ns", sessionId: "c", turns: [{ speaker: "Ana", text: "hi" }] }, { now: NOW });
    assert.equal(undated.turns[0]!.time, undefined);
    assert.deepEqual([undated.session.startTime, undated.session.endTime], [NOW.toISOString(), NOW.toISOString()]);
  });

  it("added to a stored session: positions go on, the span and participants only grow", () => {
    const stored: StoredSession = { id: "a", namespace: "ns", startTime: "2023-05-01T00:00:00.000Z", endTime: "2023-05-10T00:00:00.000Z", participants: ["Cy"], contentHash: "h", unitCount: 3 };
    const s = sessionFromTurns({ namespace: "ns", sessionId: "a", participants: ["Dee"], turns: [{ speaker: "Ana", text: "later", time: "2023-05-12T00:00:00Z" }] }, { now: NOW, stored, firstPosition: 4 });
    assert.deepEqual(s.turns.map((t) => t.id), ["a:4"]);
    assert.deepEqual([s.session.startTime, s.session.endTime], ["2023-05-01T00:00:00.000Z", "2023-05-12T00:00:00.000Z"]);
    assert.deepEqual(s.session.participants, ["Cy", "Dee", "Ana"]);
  });

  it("refuses a repeated id within the call, an empty turn and an unreadable date, naming the field", () => {
    const refuses = (turns: Parameters<typeof sessionFromTurns>[0]["turns"], code: string, where: RegExp) =>
      assert.throws(() => sessionFromTurns({ namespace: "ns", sessionId: "a", turns }, { now: NOW }), (e: unknown) => e instanceof RamemError && e.code === code && where.test(e.where ?? ""));
    refuses([{ id: "x", speaker: "A", text: "1" }, { id: "x", speaker: "B", text: "2" }], "DUPLICATE_TURN", /turns\[1\] › id/);
    refuses([{ speaker: "A", text: "ok" }, { speaker: "B", text: "  " }], "BAD_INPUT", /turns\[1\] › text/);
    refuses([{ speaker: "A", text: "ok", time: "31 February 2023" }], "BAD_INPUT", /turns\[0\] › time/);
  });
});
