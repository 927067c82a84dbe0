import { describe, it } from "node:test";
import assert from "node:assert/strict";
import type { EpisodicContext } from "../model/memory-unit.js";
import { EMPTY_FRAME, type RecallFrame, type TimeCondition } from "../model/recall-frame.js";
import { matchContext } from "./context-match.js";

const DAY = { start: "2023-05-08T00:00:00.000Z", end: "2023-05-09T00:00:00.000Z", granularity: "day" as const };

const said = (sessionStart: string, speaker = "Mel"): EpisodicContext => ({
  eventTime: null,
  mentionedTimes: [],
  session: { sessionId: "S", start: sessionStart, end: sessionStart },
  participants: [speaker, speaker === "Mel" ? "Caro" : "Mel"],
  location: null,
  entities: [],
  topic: null,
});

const frameWith = (time: TimeCondition): RecallFrame => ({ ...EMPTY_FRAME("q"), time, active: true });
const after = (extra: Partial<TimeCondition> = {}): TimeCondition => ({ relation: "after", window: DAY, evidence: "after", confidence: 0.9, note: "", ...extra });
const before = (extra: Partial<TimeCondition> = {}): TimeCondition => ({ ...after(extra), relation: "before" });
const opts = { sessionContext: true };

describe("matchContext", () => {
  it("keeps the episode of an anchor event inside 'after <event>' and 'before <event>'", () => {
    // The race was told in the session of 8 May; "what did she realise after the race?" is answered there.
    const sameSession = said("2023-05-08T13:56:00.000Z");
    assert.equal(matchContext(sameSession, frameWith(after({ anchorUnitId: "race" })), opts).ok, true);
    assert.equal(matchContext(sameSession, frameWith(before({ anchorUnitId: "race" })), opts).ok, true);
    assert.equal(matchContext(said("2023-05-07T10:00:00.000Z"), frameWith(after({ anchorUnitId: "race" })), opts).ok, false);
    assert.equal(matchContext(said("2023-05-10T10:00:00.000Z"), frameWith(before({ anchorUnitId: "race" })), opts).ok, false);
  });

  it("keeps a dated 'after'/'before' strict: after 8 May means from 9 May", () => {
    assert.equal(matchContext(said("2023-05-08T13:56:00.000Z"), frameWith(after()), opts).ok, false);
    assert.equal(matchContext(said("2023-05-08T13:56:00.000Z"), frameWith(before()), opts).ok, false);
    const later = matchContext(said("2023-05-10T10:00:00.000Z"), frameWith(after()), opts);
    assert.equal(later.ok, true);
    assert.match(later.met[0]!, /^session after/);
  });

  it("a turn with a time of its own is matched by when it was said, not by its session's span", () => {
    // A thread from 3 to 24 January: "at the start of January" (1–11 January) holds the turn of the 3rd, not the 24th's.
    const thread = { sessionId: "S", start: "2023-01-03T07:45:00.000Z", end: "2023-01-24T18:10:00.000Z" };
    const startOfJanuary = frameWith({ relation: "during", window: { start: "2023-01-01T00:00:00.000Z", end: "2023-01-11T00:00:00.000Z", granularity: "week" }, evidence: "at the start of January", confidence: 1, note: "" });
    const early = matchContext({ ...said(thread.start), session: thread, saidAt: "2023-01-03T07:45:00.000Z" }, startOfJanuary, opts);
    assert.equal(early.ok, true);
    assert.match(early.met[0]!, /^said during/);
    assert.equal(matchContext({ ...said(thread.start), session: thread, saidAt: "2023-01-24T18:10:00.000Z" }, startOfJanuary, opts).ok, false);
    // Without a time of its own, the turn is as old as its session: the whole thread meets the window.
    assert.equal(matchContext({ ...said(thread.start), session: thread }, startOfJanuary, opts).ok, true);
  });

  it("uses the session span only with session context on", () => {
    const later = said("2023-05-10T10:00:00.000Z");
    assert.equal(matchContext(later, frameWith(after()), { sessionContext: false }).ok, false);
  });

  it("a role condition is met by the turns of that role only", () => {
    const frame: RecallFrame = { ...EMPTY_FRAME("q"), role: { role: "user", evidence: "I", confidence: 0.8, note: "" }, active: true };
    const user = matchContext({ ...said("2023-05-08T13:56:00.000Z", "user"), role: "user" }, frame, opts);
    assert.deepEqual(user, { ok: true, met: ["said by the user"] });
    assert.equal(matchContext({ ...said("2023-05-08T13:56:00.000Z", "assistant"), role: "assistant" }, frame, opts).ok, false);
    assert.equal(matchContext(said("2023-05-08T13:56:00.000Z"), frame, opts).ok, false, "a unit without a role does not meet it");
  });
});

describe("matchContext: the unit's episode", () => {
  const names = (names: string[]) => ({ names, evidence: names.join(" "), confidence: 0.9, note: "" });
  const sardines: EpisodicContext = {
    ...said("2023-05-08T13:56:00.000Z"),
    episode: { id: "S#S:1", firstTurnId: "S:1", lastTurnId: "S:6", place: "Lisbon", topic: "trip", participants: ["Mel", "Caro", "Jenna"] },
  };
  const at = (place: string): RecallFrame => ({ ...EMPTY_FRAME("q"), location: names([place]), active: true });

  it("a place condition is met by the place of the unit's episode when the turn names none", () => {
    assert.deepEqual(matchContext(sardines, at("Lisbon"), opts), { ok: true, met: ["in an episode at Lisbon"] });
    assert.equal(matchContext(sardines, at("Porto"), opts).ok, false);
    assert.equal(matchContext(said("2023-05-08T13:56:00.000Z"), at("Lisbon"), opts).ok, false, "no episode, no place");
    assert.equal(matchContext(sardines, at("Lisbon"), { ...opts, episodeContext: false }).ok, false, "the ablation");
  });

  it("a place is the same when one name is the other's leading words, whatever their length", () => {
    const at2 = (location: string) => ({ ...said("2023-05-08T13:56:00.000Z"), location });
    const market = at("Downtown Farmers Market");
    assert.deepEqual(matchContext(at2("Downtown"), market, opts).met, ["at Downtown Farmers Market"]);
    assert.deepEqual(matchContext(at2("Downtown Farmers"), market, opts).met, ["at Downtown Farmers Market"]);
    assert.equal(matchContext(at2("Farmers Market"), market, opts).ok, false, "the same words elsewhere in the name are no match");
    assert.equal(matchContext(at2("Downtown Mall"), market, opts).ok, false);
  });

  it("a topic condition is met by the episode's topic", () => {
    const frame: RecallFrame = { ...EMPTY_FRAME("q"), entities: names(["trip"]), active: true };
    assert.deepEqual(matchContext(sardines, frame, opts).met, ["in an episode about trip"]);
  });

  it("a person condition is met by an episode that talks of someone who does not speak in the session, never by a speaker's presence", () => {
    const about = (person: string): RecallFrame => ({ ...EMPTY_FRAME("q"), participants: names([person]), active: true });
    assert.deepEqual(matchContext(sardines, about("Jenna"), opts).met, ["in an episode about Jenna"]);
    // Caro speaks in the session: her presence in the episode says nothing of a unit Mel said.
    assert.equal(matchContext(sardines, about("Caro"), opts).ok, false);
  });
});

describe("matchContext: coarse times", () => {
  const saturday: TimeCondition = { relation: "during", window: DAY, evidence: "last Saturday", confidence: 0.9, note: "" };
  const withTime = (start: string, end: string, granularity: "day" | "month") => ({
    ...said("2023-06-20T10:00:00.000Z"),
    mentionedTimes: [{ text: "t", interval: { start, end, granularity }, kind: "relative" as const }],
  });
  it("a time much coarser than a bounded window does not place the unit in it", () => {
    const thisMonth = withTime("2023-05-01T00:00:00.000Z", "2023-06-01T00:00:00.000Z", "month");
    assert.equal(matchContext(thisMonth, frameWith(saturday), opts).ok, false);
    assert.equal(matchContext(thisMonth, frameWith(saturday), { ...opts, fineTimesOnly: false }).ok, true, "the ablation counts any overlap");
    const thatDay = withTime("2023-05-08T00:00:00.000Z", "2023-05-09T00:00:00.000Z", "day");
    assert.equal(matchContext(thatDay, frameWith(saturday), opts).ok, true);
  });
  it("open-ended relations still take any overlap", () => {
    const thisMonth = withTime("2023-05-01T00:00:00.000Z", "2023-06-01T00:00:00.000Z", "month");
    assert.equal(matchContext(thisMonth, frameWith(after()), opts).ok, true);
  });
});

describe("matchContext: the occurrence asked about", () => {
  const inSession = (sessionId: string): EpisodicContext => ({ ...said("2021-05-02T10:00:00.000Z", "Amara"), session: { sessionId, start: "2021-05-02T10:00:00.000Z", end: "2021-05-02T10:00:00.000Z" } });
  const frame: RecallFrame = {
    ...EMPTY_FRAME("What was the occasion of Amara's first visit to her parents in Enugu?"),
    location: { names: ["Enugu"], evidence: "Enugu", confidence: 0.75, note: "place named in the query" },
    occurrence: {
      ordinal: 1,
      event: "visit to her parents in Enugu",
      occurrences: [
        { episodeId: "S2", time: "2021-05-02T10:00:00.000Z" },
        { episodeId: "S4", time: "2021-11-29T10:00:00.000Z" },
      ],
      episodeId: "S2",
      evidence: "Amara's first visit to her parents",
      confidence: 0.8,
      note: "",
    },
    active: true,
  };

  it("is met by the units of its episode only, and they hold its place without naming it", () => {
    const told = matchContext(inSession("S2"), frame, opts);
    assert.equal(told.ok, true);
    assert.ok(told.met.includes("at Enugu"), told.met.join("; "));
    assert.ok(told.met.some((m) => /occurrence 1 of 2/.test(m)));
    assert.equal(matchContext(inSession("S4"), frame, opts).ok, false, "the second visit is another occurrence");
  });

  it("needs the session coordinate (no-session-context knows no episodes)", () => {
    assert.equal(matchContext(inSession("S2"), frame, { sessionContext: false }).ok, false);
  });

  it("plays no part below activation", () => {
    const weak: RecallFrame = { ...frame, occurrence: { ...frame.occurrence!, confidence: 0.4 } };
    const namesEnugu: EpisodicContext = { ...inSession("S4"), entities: ["Enugu"] };
    assert.deepEqual(matchContext(namesEnugu, weak, opts), { ok: true, met: ["at Enugu"] }, "another episode passes when the occurrence is not reliable");
    assert.equal(matchContext(inSession("S2"), weak, opts).ok, false, "nor does the episode lend its place then");
  });
});

describe("matchContext: a person named only to address them", () => {
  const aboutNadia: RecallFrame = { ...EMPTY_FRAME("q"), participants: { names: ["Nadia"], evidence: "Nadia", confidence: 0.9, note: "" }, active: true };
  const byOskar: EpisodicContext = { ...said("2023-02-28T16:05:00.000Z", "Oskar"), participants: ["Oskar", "Nadia"], entities: ["Nadia"] };
  it("a vocative does not make the turn about her; a mention does; without the words every mention counts", () => {
    for (const spoken of ["Nadia, I've moved! I got a job in Munich.", "Hey Nadia! How are you?", "Thanks, Nadia.", "Oh Nadia, I'm sorry about Pistache."])
      assert.equal(matchContext(byOskar, aboutNadia, { ...opts, spoken }).ok, false, spoken);
    for (const spoken of ["Nadia got a new job, she told me.", "I met Nadia at the bakery.", "Wow Nadia, that's great. Nadia is amazing."])
      assert.equal(matchContext(byOskar, aboutNadia, { ...opts, spoken }).ok, true, spoken);
    assert.equal(matchContext(byOskar, aboutNadia, opts).ok, true);
    // Her own turn is about her whatever it says.
    assert.equal(matchContext({ ...byOskar, participants: ["Nadia", "Oskar"] }, aboutNadia, { ...opts, spoken: "Thanks, Nadia!" }).ok, true);
  });
});
