import type { MemoryUnit } from "../model/memory-unit.js";
import { isReliable, type RecallFrame } from "../model/recall-frame.js";
import type { Validity } from "../anchoring/derive-validity.js";
import { validSpan } from "./valid-span.js";
import { isSubjectAsked } from "../induction/state-subject.js";

/**
 * The units that state the slot a question asks about (frame.stateSlot), of
 * the person it asks about (frame.stateSubject: "my sister" resolved through
 * the namespace's relations, when some statement is that person's; else the
 * people the frame names, else any speaker), valid at the asked
 * time — now (not superseded) for a current-state question, overlapping the
 * window for a past one — newest first.
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
  const ofSlot = (u: MemoryUnit) => (u.context.states ?? []).filter((s) => !s.ends && slot.slots.includes(s.slot));
  const speakerOf = (u: MemoryUnit) => u.context.participants[0] ?? "";
  const askedAbout = (u: MemoryUnit) => ofSlot(u).some((s) => isSubjectAsked(asked, s.subject, speakerOf(u), aliasOf));
  const bySubject = asked && stateUnits.some(askedAbout);
  const start = window ? Date.parse(window.window.start) : 0;
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
  return stateUnits
    .filter((u) => (bySubject ? askedAbout(u) : ofSlot(u).some((s) => about(s.subject))))
    .filter((u) => {
      const v = validityOf(u.id);
      return v !== undefined && validAtAskedTime(v);
    })
    .sort((a, b) => b.context.session.start.localeCompare(a.context.session.start));
}
