import { test } from "node:test";
import assert from "node:assert/strict";
import type { MemoryUnit } from "../model/memory-unit.js";
import { EMPTY_FRAME, type RecallFrame } from "../model/recall-frame.js";
import type { ContentCandidate } from "./content-recall.js";
import { movedTimeFirst, tellsOfMovedTime } from "./moved-time-first.js";

/** A turn of `speaker` in session `session` (started on `day`); `timed`: it carries an event time. */
function said(id: string, session: string, day: string, content: string, timed = true, speaker = "Ayesha"): MemoryUnit {
  const at = `${day}T10:00:00.000Z`;
  return {
    id,
    content,
    context: {
      participants: [speaker],
      session: { sessionId: session, start: at, end: at },
      eventTime: timed ? { start: at, end: at, granularity: "day" } : null,
      mentionedTimes: [],
      states: [],
    },
  } as unknown as MemoryUnit;
}

const candidate = (id: string, lexical?: number, dense?: number): ContentCandidate => ({
  unitId: id,
  score: 1,
  ...(lexical ? { lexical: { rank: lexical, score: 1 } } : {}),
  ...(dense ? { dense: { rank: dense, score: 1 } } : {}),
});

const asking = (query: string): RecallFrame => ({ ...EMPTY_FRAME(query), asksFor: "time", active: true });

const units = [
  said("aside", "s5", "2023-08-08", "The ring says my resting heart rate went up.", false),
  said("set", "s5", "2023-08-08", "The physio appointment is on Monday the 14th at 9:30am."),
  said("dentist", "s5", "2023-08-08", "The dental practice rang. They moved me to Thursday the 19th at 10am."),
  said("moved", "s5", "2023-08-08", "The physio clinic called. They moved my appointment to Wednesday the 16th at 5:15pm."),
  said("home", "s6", "2023-09-01", "I moved to Leipzig last month."),
];
const byId = new Map(units.map((u) => [u.id, u]));
const unitOf = (id: string) => byId.get(id);
const ordered = [candidate("aside", 6, 14), candidate("set", 1, 5), candidate("dentist", 21, 13), candidate("moved", 3, 6), candidate("home", 30, 30)];

test("a move to a named time, and only that: a new date, not a new home or a delay without a date", () => {
  assert.equal(tellsOfMovedTime(byId.get("moved")!), true);
  assert.equal(tellsOfMovedTime(said("x", "s", "2024-01-01", "Delivery's pushed back to 18 March.")), true);
  assert.equal(tellsOfMovedTime(said("x", "s", "2024-01-01", "HR says my first day is now 12 February.")), true);
  assert.equal(tellsOfMovedTime(byId.get("home")!), false);
  assert.equal(tellsOfMovedTime(said("x", "s", "2024-01-01", "Ylva's contract got pushed back a year.")), false);
});

test("'When is …?': the move of the thing asked takes the place of the time first said; the list keeps its members", () => {
  const reasons = new Map<string, string[]>();
  const out = movedTimeFirst(ordered, asking("When is my physio appointment?"), unitOf, reasons);
  // "dentist" is a move in the same session, but of another thing: neither channel finds it among its first 10, and it names nothing "set" names.
  assert.deepEqual(out.map((c) => c.unitId), ["aside", "moved", "set", "dentist", "home"]);
  assert.match(reasons.get("moved")![0]!, /^the latest move of the time asked \(said 2023-08-08\)$/);
  assert.equal(reasons.has("dentist"), false);
});

test("no move for a past question, a length of time, another kind of answer, or a move said before the time it would replace", () => {
  const ids = ordered.map((c) => c.unitId);
  assert.deepEqual(movedTimeFirst(ordered, asking("When did I go to the physio?"), unitOf, new Map()).map((c) => c.unitId), ids);
  assert.deepEqual(movedTimeFirst(ordered, asking("How long is my physio appointment?"), unitOf, new Map()).map((c) => c.unitId), ids);
  assert.deepEqual(movedTimeFirst(ordered, { ...asking("Where is my physio appointment?"), asksFor: "place" }, unitOf, new Map()).map((c) => c.unitId), ids);
  const earlier = new Map([...byId, ["moved", said("moved", "s4", "2023-07-01", byId.get("moved")!.content)]]);
  assert.deepEqual(movedTimeFirst(ordered, asking("When is my physio appointment?"), (id) => earlier.get(id), new Map()).map((c) => c.unitId), ids);
});

test("a move told in a later session counts only when it shares a word with the time first said that the question holds, not a person's name", () => {
  const later = [said("set", "s1", "2024-01-02", "Linnea: the pharmacy where I work closes at 7 on weekdays.", true, "Linnea"), said("test", "s5", "2024-01-15", "Linnea: my test has been moved to 6 February at 13:10.", true, "Linnea")];
  const map = new Map(later.map((u) => [u.id, u]));
  const list = [candidate("set", 1, 1), candidate("test", 16)];
  assert.deepEqual(movedTimeFirst(list, asking("What time does the pharmacy where Linnea works close?"), (id) => map.get(id), new Map()).map((c) => c.unitId), ["set", "test"]);
  const appointment = [said("set", "s1", "2024-01-02", "My appointment is on 3 March."), said("moved", "s2", "2024-02-10", "The practice moved my appointment to 9 March.")];
  const map2 = new Map(appointment.map((u) => [u.id, u]));
  assert.deepEqual(movedTimeFirst(list.map((c, i) => ({ ...c, unitId: ["set", "moved"][i]! })), asking("When is my appointment?"), (id) => map2.get(id), new Map()).map((c) => c.unitId), ["moved", "set"]);
});
