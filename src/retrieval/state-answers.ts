import type { MemoryUnit } from "../model/memory-unit.js";
import { isReliable, type RecallFrame } from "../model/recall-frame.js";
import type { Validity } from "../anchoring/derive-validity.js";
import { validSpan } from "./valid-span.js";
import { isSubjectAsked } from "../induction/state-subject.js";
import { slotStatements, type SlotStatements } from "./slot-statements.js";

/**
 * The units that state the slot a question asks about (frame.stateSlot), of
 * the person it asks about (frame.stateSubject: "my sister" resolved through
 * the namespace's relations, when some statement is that person's; else the
 * people the frame names when they are that person, never the owner in
 * "Ezra's sister"; else, asked of no one else, any speaker), valid at the asked
 * time — now (not superseded) for a current-state question, overlapping the
 * window for a past one — newest first.
 *
 * "Before he became a nurse": when the time's anchor is itself a statement
 * of the slot (the change asked about), "before" is before that statement
 * holds, and the anchor is no answer. "What is Noah's job now?" after "I quit
 * the pub": a statement that ends the slot, said after every value, is what
 * holds now.
 */
/** Relations that name a partner: asked as "my partner", they ask the asker's partner slot, not a partner's state. */
const PARTNER_KIN = /^(?:partner|boyfriend|girlfriend|wife|husband|fianc[ée]e?)$/;

export function stateAnswers(
  frame: RecallFrame | null,
  stateUnits: readonly MemoryUnit[] | SlotStatements,
  validityOf: (unitId: string) => Validity | undefined,
  validAt?: string,
  aliasOf: ReadonlyMap<string, string> = new Map(),
): MemoryUnit[] {
  const slot = frame?.stateSlot;
  if (!frame || !slot) return [];
  const people = isReliable(frame.participants) ? frame.participants.names.map((n) => n.toLowerCase()) : [];
  // The query's own past time wins; else the caller's validAt, as a one-instant window; else now.
  const atInstant = validAt ? { relation: "during" as const, window: { start: validAt, end: new Date(Date.parse(validAt) + 1).toISOString() } } : null;
  const window = isReliable(frame.time) && !frame.currentState ? frame.time : atInstant;
  if (!frame.currentState && !window) return [];
  const table = "pairs" in stateUnits ? stateUnits : slotStatements(stateUnits, slot.slots, validityOf);
  const { units, values, ends } = table;

  // Each distinct (subject, speaker) pair is judged once: is it the person the frame names, and the subject asked about?
  const firstNames = people.map((p) => p.split(/\s+/)[0]);
  const about = (subject: string) => {
    if (people.length === 0) return true;
    const name = subject.toLowerCase();
    const first = name.split(/\s+/)[0];
    return people.some((p, i) => p === name || firstNames[i] === first);
  };
  // Whose state is asked ("my sister", "Ana", "I"): when some statement of the slot is that subject's, only theirs answer.
  const asked = frame.stateSubject ?? null;
  const pairAsked = table.pairs.map((p) => isSubjectAsked(asked, p.subject, p.speaker, aliasOf));
  const bySubject = asked !== null && values.pair.some((p) => pairAsked[p]!);
  // Someone else's value never answers for another person asked: "What does my brother do for work now?" with no
  // statement of his job is not answered by the user's own. Not when the relation is the slot's value ("Who is my
  // partner?" asks the asker's partner slot), nor for the asker, whose statements may be keyed by another name.
  const another = Boolean(asked?.name) || (Boolean(asked?.relation) && !(slot.slots.includes("partner") && PARTNER_KIN.test(asked!.relation!)));
  // The frame's people stand in for the subject only when they are that person ("Ana" asked, "Ana Silva" stated); the
  // owner of a relation or a possessive ("Siobhan's friend Aoife", "Ezra's sister") is someone else.
  const askedFirst = asked?.name?.toLowerCase().split(/\s+/)[0];
  const askedAmongPeople = askedFirst !== undefined && firstNames.includes(askedFirst);
  if (another && !bySubject && !askedAmongPeople) return [];
  const pairCounts = bySubject ? pairAsked : table.pairs.map((p) => about(p.subject));
  // A unit counts when one of its value statements is of a counted pair.
  const counts = new Uint8Array(units.length);
  for (let r = 0; r < values.unit.length; r++) if (pairCounts[values.pair[r]!]) counts[values.unit[r]!] = 1;

  // The query's own anchor event, not the caller's validAt instant.
  const anchorId = frame.time && window === frame.time && frame.time.relation === "before" ? frame.time.anchorUnitId : undefined;
  const anchorIndex = anchorId === undefined ? -1 : units.findIndex((u) => u.id === anchorId);
  const anchorStates = anchorIndex >= 0 && values.unit.includes(anchorIndex);
  const anchorValidity = anchorStates ? validityOf(anchorId!) : undefined;
  const skipped = anchorValidity ? anchorIndex : -1;
  const start = anchorValidity ? validSpan(anchorValidity).from : window ? Date.parse(window.window.start) : 0;
  const end = window ? Date.parse(window.window.end) : 0;
  const validAtAskedTime = (i: number) => {
    if (!window) return table.current[i] === 1;
    const from = table.from[i]!;
    const to = table.to[i]!;
    switch (window.relation) {
      case "before":
        return from < start;
      case "after":
        return to > end;
      default:
        return from < end && start < to;
    }
  };
  let valid: number[] = [];
  for (let i = 0; i < units.length; i++) if (counts[i] && i !== skipped && table.hasValidity[i] && validAtAskedTime(i)) valid.push(i);
  if (frame.currentState && !window && valid.length === 0) valid = endedSince(table, pairCounts);
  // Newest session first; within one, in the order given.
  return valid.sort((a, b) => table.sessionStart[b]! - table.sessionStart[a]! || a - b).map((i) => units[i]!);
}

/**
 * The statements that end the slot ("I quit the pub") of a subject none of
 * whose values still holds (the caller found none valid now), said after all
 * of them: nothing else answers "what is his job now?" as truly.
 */
function endedSince(table: SlotStatements, pairCounts: readonly boolean[]): number[] {
  let lastValue = Number.NEGATIVE_INFINITY;
  for (let r = 0; r < table.values.unit.length; r++) {
    const time = table.time[table.values.unit[r]!]!;
    if (pairCounts[table.values.pair[r]!] && time > lastValue) lastValue = time;
  }
  const ending = new Set<number>();
  for (let r = 0; r < table.ends.unit.length; r++) {
    const i = table.ends.unit[r]!;
    if (pairCounts[table.ends.pair[r]!] && table.time[i]! >= lastValue) ending.add(i);
  }
  return [...ending];
}
