import { describe, it } from "node:test";
import assert from "node:assert/strict";
import type { EpisodicContext } from "../model/memory-unit.js";
import { EMPTY_FRAME, type RecallFrame } from "../model/recall-frame.js";
import type { ContentCandidate } from "./content-recall.js";
import { EPISODE_SUPPORT, SUPPORT_FLOOR, reinstate, type ReinstateOptions } from "./reinstate.js";

const context = (sessionId: string, speaker = "Ann"): EpisodicContext => ({
  eventTime: null,
  mentionedTimes: [],
  session: { sessionId, start: "2023-05-08T13:56:00.000Z", end: "2023-05-08T13:56:00.000Z" },
  participants: [speaker, speaker === "Ann" ? "Bob" : "Ann"],
  location: null,
  entities: [],
  topic: null,
});

const lexical = (rank: number, score: number) => ({ lexical: { rank, score } });
/** u1 is the best single hit but alone in its session; S2 holds three fair lexical hits. */
const ranking: ContentCandidate[] = [
  { unitId: "u1", score: 0.1, ...lexical(1, 10) },
  { unitId: "u2", score: 0.09, ...lexical(2, 9) },
  { unitId: "u3", score: 0.08, ...lexical(3, 8) },
  { unitId: "u4", score: 0.07, ...lexical(4, 7) },
  { unitId: "u5", score: 0.06, ...lexical(5, 6) },
];
const contexts = new Map<string, EpisodicContext>([
  ["u1", context("S1")],
  ["u2", context("S2")],
  ["u3", context("S3")],
  ["u4", context("S2", "Bob")],
  ["u5", context("S2")],
]);
const contextOf = (id: string) => contexts.get(id);
const RAMEM: ReinstateOptions = { k: 5, contextRanking: true, sessionContext: true };
const ids = (xs: ReadonlyArray<{ unitId: string }>) => xs.map((x) => x.unitId);

const bobFrame: RecallFrame = {
  ...EMPTY_FRAME("what did Bob say"),
  participants: { names: ["Bob"], evidence: "Bob", confidence: 0.9, note: "known speaker" },
  active: true,
};

describe("reinstate", () => {
  it("lifts the units of an episode the query keeps hitting above a lone hit", () => {
    const out = reinstate(ranking, null, contextOf, RAMEM);
    // u2: 0.09 + (0.07 + 0.06) / 3; u4: 0.07 + (0.09 + 0.06) / 3; u5: 0.06 + (0.09 + 0.07) / 3; u1 and u3 get nothing.
    assert.deepEqual(ids(out), ["u2", "u4", "u5", "u1", "u3"]);
    assert.equal(EPISODE_SUPPORT, 3);
    assert.match(out[0]!.contextReasons.join(" "), /episode S2/);
    assert.deepEqual(out[3]!.contextReasons, []);
  });

  it("takes support only from candidates that match the query's words well", () => {
    // u4 and u5 found only densely, or by a weak lexical match: S2 lends u2 nothing.
    const weak = ranking.map((c) => (c.unitId === "u4" ? { unitId: "u4", score: 0.065 } : c.unitId === "u5" ? { ...c, ...lexical(5, 10 * SUPPORT_FLOOR - 1) } : c));
    const out = reinstate(weak, null, contextOf, RAMEM);
    // u2 keeps its 0.09; u4 is lifted by u2 (+0.03): strong matches lend support to anyone in their episode.
    assert.deepEqual(ids(out).slice(0, 3), ["u1", "u4", "u2"]);
    assert.deepEqual(out[0]!.contextReasons, []);
    assert.deepEqual(out[2]!.contextReasons, []);
    assert.match(out[1]!.contextReasons.join(" "), /episode S2 \+0\.030/);
  });

  it("gives no episode support without session context (ablation no-session-context)", () => {
    const out = reinstate(ranking, null, contextOf, { ...RAMEM, sessionContext: false });
    assert.deepEqual(ids(out), ["u1", "u2", "u3", "u4", "u5"]);
  });

  it("keeps the content order when context ranking is off (ablation no-context-ranking)", () => {
    const out = reinstate(ranking, bobFrame, contextOf, { ...RAMEM, contextRanking: false, k: 3 });
    assert.deepEqual(ids(out), ["u1", "u2", "u3"]);
  });

  it("puts context-valid units first, then the rest, cut to K", () => {
    const out = reinstate(ranking, bobFrame, contextOf, { ...RAMEM, k: 3 });
    assert.deepEqual(ids(out), ["u4", "u2", "u5"]);
    assert.equal(out[0]!.contextReasons[0], "about Bob");
  });

  it("ignores an inactive frame", () => {
    const out = reinstate(ranking, { ...bobFrame, active: false }, contextOf, RAMEM);
    assert.deepEqual(ids(out), ["u2", "u4", "u5", "u1", "u3"]);
  });
});
