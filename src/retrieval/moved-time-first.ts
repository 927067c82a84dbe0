import type { MemoryUnit } from "../model/memory-unit.js";
import type { RecallFrame } from "../model/recall-frame.js";
import { stemmedTerms } from "../language/stemmed-terms.js";
import { spokenText } from "../model/spoken-text.js";
import type { ContentCandidate } from "./content-recall.js";

/** How many of the ordered candidates are read: the head a reader takes in (as newest-rival-first.ts). */
const MOVED_WINDOW = 10;

/** How high one content channel must rank a move in the lead's session for it to be about the question. */
const FOUND_RANK = 10;

/** A question about what happened ("When did…", "When was…"): the time it asks is not one still set. */
const ASKS_PAST = /\b(?:did|was|were|had|happened)\b/i;

/** "How long…": a length of time, not a date set. */
const ASKS_HOW_LONG = /^\s*how\s+long\b/i;

/**
 * A time that was set, said to have moved: "they moved my appointment to
 * Wednesday the 16th", "delivery's pushed back to 18 March", "my first day is
 * now 12 February", "dentist now on Thursday 19 October". The new time must
 * follow the words within the sentence (a day, a month, a date or a clock
 * time): "I moved to Leipzig last month" is a move of home, "Ylva's contract
 * got pushed back a year" sets no new time.
 */
const MOVED_TO_A_TIME = new RegExp(
  String.raw`\b(?:(?:moved|pushed back|put back|brought forward|postponed|rescheduled|changed|shifted)(?: (?:me|us|it|him|her|them|(?:my|our|the|his|her) [a-z-]+))? (?:to|for|until)|(?:is|are|'s) now(?: on| at| for)?|now on)\b` +
    String.raw`(?=[^.!?]{0,40}?\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|june|july|august|september|october|november|december|tomorrow|next (?:week|month)|the \d{1,2}(?:st|nd|rd|th)|\d{1,2}(?:st|nd|rd|th)?\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)|\d{1,2}[:.]\d{2}|\d{1,2}\s?(?:am|pm))\b)`,
  "i",
);

/** When the unit was said: its turn's own time, else its session's start. */
const saidAt = (u: MemoryUnit): string => u.context.saidAt ?? u.context.session.start;

/**
 * Whether a move is of the lead's thing: a word both say (that the question
 * asks about too, when `queryStems` is given: "appointment"), not a day, a
 * month or the move itself, nor the name of a person in either ("Linnea's
 * test moved" is no answer to when Linnea's pharmacy closes).
 */
function sharesThing(mover: MemoryUnit, lead: MemoryUnit, queryStems: ReadonlySet<string> | null): boolean {
  const people = new Set([...mover.context.participants, ...lead.context.participants].flatMap((p) => [...stemmedTerms(p)]));
  const leadStems = stemmedTerms(spokenText(lead));
  return [...stemmedTerms(spokenText(mover))].some((t) => (queryStems === null || queryStems.has(t)) && leadStems.has(t) && !people.has(t) && !NO_THING.has(t));
}

/** Words every move and every time share: the days, the months, the move itself. */
const NO_THING = stemmedTerms(
  "move moved moving push pushed back put brought forward postpone postponed reschedule rescheduled change changed shift shifted now next week month day time " +
    "monday tuesday wednesday thursday friday saturday sunday january february march april may june july august september october november december",
);

/** Whether the unit says a time set before has moved, to a time it names. */
export function tellsOfMovedTime(unit: MemoryUnit): boolean {
  return MOVED_TO_A_TIME.test(spokenText(unit));
}

/**
 * "When is my physio appointment?" after "The physio appointment is on Monday
 * the 14th" and, later, "The clinic called. They moved my appointment to
 * Wednesday the 16th": a question about a time still set (asks when, not in
 * the past tense) is answered by the latest move of that time, not by the
 * time first set, which both channels rank higher for holding the question's
 * words. Of the first MOVED_WINDOW candidates, the first that carries a time
 * is what the list would answer; a candidate that tells of a move to a named
 * time, said after it (or in its session: a move follows what it moves), about the same thing — in the same session and
 * among one channel's first FOUND_RANK for the question, or sharing a word
 * with it that the question holds too — takes its place, the newest such one; the
 * others move down one. A reordering, not a bonus: the list keeps its
 * members. Unlike the present-tense "when is" read as a current state (tried
 * and not kept: "When is … planning to …" asks for a plan, whose later
 * mentions are no change), the store has to show the change in words.
 */
export function movedTimeFirst(
  ordered: ContentCandidate[],
  frame: RecallFrame | null,
  unitOf: (unitId: string) => MemoryUnit | undefined,
  reasonsOf: Map<string, string[]>,
): ContentCandidate[] {
  if (frame?.asksFor !== "time" || ASKS_PAST.test(frame.need) || ASKS_HOW_LONG.test(frame.need)) return ordered;
  const head = ordered.slice(0, MOVED_WINDOW);
  const leadAt = head.findIndex((c) => {
    const u = unitOf(c.unitId);
    return u !== undefined && (Boolean(u.context.eventTime) || u.context.mentionedTimes.length > 0);
  });
  if (leadAt < 0) return ordered;
  const lead = unitOf(head[leadAt]!.unitId)!;
  const leadSaid = saidAt(lead);
  const queryStems = stemmedTerms(frame.need);
  let moved: { at: number; said: string } | null = null;
  for (const [at, c] of head.entries()) {
    const u = unitOf(c.unitId);
    if (!u || !tellsOfMovedTime(u)) continue;
    const said = saidAt(u);
    // In the lead's session, a move one channel finds among its first for the question, or that names a thing the
    // lead names ("the gemeente") — "they moved me to Thursday the 19th" is the dentist's, not the piano lesson's two
    // turns before; in another session, a move sharing a word of the lead that the question holds too.
    const found = Math.min(c.lexical?.rank ?? Number.POSITIVE_INFINITY, c.dense?.rank ?? Number.POSITIVE_INFINITY) <= FOUND_RANK;
    const sameThing = (u.context.session.sessionId === lead.context.session.sessionId && (found || sharesThing(u, lead, null))) || sharesThing(u, lead, queryStems);
    // A move told in the lead's own session follows the time it moves (units carry no order within a session).
    if (said >= leadSaid && sameThing && (!moved || said > moved.said)) moved = { at, said };
  }
  if (!moved || moved.at <= leadAt) return ordered;
  const mover = ordered[moved.at]!;
  const reasons = reasonsOf.get(mover.unitId) ?? [];
  // No ", " inside: the reasons are joined with it (rules-applied.ts splits on it).
  reasons.unshift(`the latest move of the time asked (said ${moved.said.slice(0, 10)})`);
  reasonsOf.set(mover.unitId, reasons);
  return [...ordered.slice(0, leadAt), mover, ...ordered.slice(leadAt).filter((c) => c !== mover)];
}
