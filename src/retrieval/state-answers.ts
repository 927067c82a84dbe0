import type { MemoryUnit } from "../model/memory-unit.js";
import { isReliable, type RecallFrame } from "../model/recall-frame.js";
import { timeOf, type Validity } from "../anchoring/derive-validity.js";
import { validSpan } from "./valid-span.js";
import { isSubjectAsked } from "../induction/state-subject.js";
import { sameCountedThing } from "../language/attribute-key.js";

/**
 * The units that state the slot a question asks about (frame.stateSlot), of
 * the person it asks about (frame.stateSubject: "my sister" resolved through
 * the namespace's relations, when some statement is that person's; else the
 * people the frame names, else any speaker), valid at the asked
 * time — now (not superseded) for a current-state question, overlapping the
 * window for a past one — newest first.
 *
 * "Before he became a nurse": when the time's anchor is itself a statement
 * of the slot (the change asked about), "before" is before that statement
 * holds, and the anchor is no answer. "What is Noah's job now?" after "I quit
 * the pub": a statement that ends the slot, said after every value, is what
 * holds now.
 */
export function stateAnswers(
  frame: RecallFrame | null,
  stateUnits: readonly MemoryUnit[],
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
  // Read once per recall, not per statement: a slot can have thousands of statements at 100k units.
  const firstNames = people.map((p) => p.split(/\s+/)[0]);
  // A slot's statements share a handful of subjects: each is judged once.
  const judged = new Map<string, boolean>();
  const about = (subject: string) => {
    if (people.length === 0) return true;
    let found = judged.get(subject);
    if (found === undefined) {
      const name = subject.toLowerCase();
      const first = name.split(/\s+/)[0];
      found = people.some((p, i) => p === name || firstNames[i] === first);
      judged.set(subject, found);
    }
    return found;
  };
  // Whose state is asked ("my sister", "Ana", "I"): when some statement of the slot is that subject's, only theirs answer.
  const asked = frame.stateSubject ?? null;
  const ofSlot = (u: MemoryUnit) => (u.context.states ?? []).filter((s) => !s.ends && slot.slots.some((asked) => slotAnswers(asked, s.slot)));
  const speakerOf = (u: MemoryUnit) => u.context.participants[0] ?? "";
  const askedAbout = (u: MemoryUnit) => ofSlot(u).some((s) => isSubjectAsked(asked, s.subject, speakerOf(u), aliasOf));
  const bySubject = asked && stateUnits.some(askedAbout);
  // The query's own anchor event, not the caller's validAt instant.
  const anchorId = frame.time && window === frame.time && frame.time.relation === "before" ? frame.time.anchorUnitId : undefined;
  const anchorValidity = anchorId !== undefined && stateUnits.some((u) => u.id === anchorId && ofSlot(u).length > 0) ? validityOf(anchorId) : undefined;
  const start = anchorValidity ? validSpan(anchorValidity).from : window ? Date.parse(window.window.start) : 0;
  const end = window ? Date.parse(window.window.end) : 0;
  const validAtAskedTime = (v: Validity) => {
    if (!window) return v.supersededBy === null;
    const { from, to } = validSpan(v);
    switch (window.relation) {
      case "before":
        return from < start;
      case "after":
        return to > end;
      default:
        return from < end && start < to;
    }
  };
  const valid = stateUnits
    .filter((u) => u.id !== anchorId || !anchorValidity)
    .filter((u) => (bySubject ? askedAbout(u) : ofSlot(u).some((s) => about(s.subject))))
    .filter((u) => {
      const v = validityOf(u.id);
      return v !== undefined && validAtAskedTime(v);
    });
  if (frame.currentState && !window) valid.push(...endedSince(stateUnits, slot.slots, valid, (s, u) => (bySubject ? isSubjectAsked(asked, s.subject, speakerOf(u), aliasOf) : about(s.subject))));
  return valid.sort((a, b) => b.context.session.start.localeCompare(a.context.session.start));
}

/** A slot the question asks (state-slot-cue.ts) that a statement's slot answers: the same, or a count of the same thing ("beehives", "hives"). */
function slotAnswers(asked: string, stated: string): boolean {
  return asked === stated || sameCountedThing(asked, stated);
}

/**
 * The statements that end the slot ("I quit the pub") of a subject none of
 * whose values still holds, said after all of them: nothing else answers
 * "what is his job now?" as truly.
 */
function endedSince(
  stateUnits: readonly MemoryUnit[],
  slots: readonly string[],
  validNow: readonly MemoryUnit[],
  isAsked: (s: NonNullable<MemoryUnit["context"]["states"]>[number], u: MemoryUnit) => boolean,
): MemoryUnit[] {
  const stating = (u: MemoryUnit, ends: boolean) => (u.context.states ?? []).filter((s) => s.ends === ends && slots.some((asked) => slotAnswers(asked, s.slot)) && isAsked(s, u));
  if (validNow.some((u) => stating(u, false).length > 0)) return [];
  const lastValue = stateUnits.filter((u) => stating(u, false).length > 0).reduce((t, u) => (timeOf(u) > t ? timeOf(u) : t), "");
  return stateUnits.filter((u) => stating(u, true).length > 0 && timeOf(u) >= lastValue);
}
