import type { MemoryUnit } from "../model/memory-unit.js";
import { timeOf, type Validity } from "../anchoring/derive-validity.js";
import { sameCountedThing } from "../language/attribute-key.js";
import { validSpan } from "./valid-span.js";
import { memoize } from "../util/memoize.js";

/**
 * The statements of some slots (a state question's), laid out flat: what
 * state-answers.ts filters on every state question — who states whose value,
 * when it held, whether it still does — as numbers in arrays, and each
 * distinct (subject, speaker) pair once. A slot can have tens of thousands of
 * statements (20,113 for one slot at 1M units); walking their objects on each
 * recall cost ~3 µs each (60 ms a question), the arrays cost next to nothing.
 * Built once per state index and slots (slotStatementsOf), or per call.
 */
export interface SlotStatements {
  /** The units, in the order given. */
  units: readonly MemoryUnit[];
  /** Per unit: when its state held (ms; to = +Infinity while it does), whether it is still current, whether it has a validity at all. */
  from: Float64Array;
  to: Float64Array;
  current: Uint8Array;
  hasValidity: Uint8Array;
  /** Per unit: when its statement counts (timeOf, ms), and when its session started (ms). */
  time: Float64Array;
  sessionStart: Float64Array;
  /** The statements that set a value: the unit's index and its (subject, speaker) pair. */
  values: { unit: Int32Array; pair: Int32Array };
  /** The statements that end the slot ("I quit the pub"). */
  ends: { unit: Int32Array; pair: Int32Array };
  /** The distinct (subject, speaker) pairs the rows name. */
  pairs: ReadonlyArray<{ subject: string; speaker: string }>;
}

/** A slot the question asks (state-slot-cue.ts) that a statement's slot answers: the same, or a count of the same thing ("beehives", "hives"). */
export function slotAnswers(asked: string, stated: string): boolean {
  return asked === stated || sameCountedThing(asked, stated);
}

export function slotStatements(units: readonly MemoryUnit[], slots: readonly string[], validityOf: (unitId: string) => Validity | undefined): SlotStatements {
  const n = units.length;
  const table = { from: new Float64Array(n), to: new Float64Array(n), current: new Uint8Array(n), hasValidity: new Uint8Array(n), time: new Float64Array(n), sessionStart: new Float64Array(n) };
  const values = { unit: [] as number[], pair: [] as number[] };
  const ends = { unit: [] as number[], pair: [] as number[] };
  const pairs: Array<{ subject: string; speaker: string }> = [];
  const pairIds = new Map<string, Map<string, number>>();
  const pairOf = (subject: string, speaker: string) => {
    let bySpeaker = pairIds.get(subject);
    if (!bySpeaker) pairIds.set(subject, (bySpeaker = new Map()));
    let id = bySpeaker.get(speaker);
    if (id === undefined) bySpeaker.set(speaker, (id = pairs.push({ subject, speaker }) - 1));
    return id;
  };
  const answersSlot = memoize((stated: string) => slots.some((asked) => slotAnswers(asked, stated)));
  units.forEach((u, i) => {
    const v = validityOf(u.id);
    if (v) {
      const { from, to } = validSpan(v);
      table.from[i] = from;
      table.to[i] = to;
      table.current[i] = v.supersededBy === null ? 1 : 0;
      table.hasValidity[i] = 1;
      // The unit holds another state, but its statement of an asked slot ended ("…and I live in Leeds", then the move).
      for (const e of v.ended ?? []) {
        if (!answersSlot(e.state.slice(0, e.state.indexOf(" = ")))) continue;
        table.current[i] = 0;
        table.to[i] = Math.min(table.to[i]!, Date.parse(e.validTo));
      }
    }
    table.time[i] = Date.parse(timeOf(u));
    table.sessionStart[i] = Date.parse(u.context.session.start);
    const speaker = u.context.participants[0] ?? "";
    for (const s of u.context.states ?? []) {
      if (!answersSlot(s.slot)) continue;
      const rows = s.ends ? ends : values;
      rows.unit.push(i);
      rows.pair.push(pairOf(s.subject, speaker));
    }
  });
  return {
    units,
    ...table,
    values: { unit: Int32Array.from(values.unit), pair: Int32Array.from(values.pair) },
    ends: { unit: Int32Array.from(ends.unit), pair: Int32Array.from(ends.pair) },
    pairs,
  };
}

const kept = new WeakMap<ReadonlyMap<string, Validity>, Map<string, SlotStatements>>();

/**
 * slotStatements of a namespace's state index (namespaceValidity keeps its
 * maps while the namespace is unchanged), kept per validity map and slots.
 * The validity objects never leave the snapshot (hits carry copies), so a
 * span read once stays true.
 */
export function slotStatementsOf(validity: ReadonlyMap<string, Validity>, slots: readonly string[], unitsOfSlots: () => readonly MemoryUnit[]): SlotStatements {
  let perSlots = kept.get(validity);
  if (!perSlots) kept.set(validity, (perSlots = new Map()));
  const key = slots.join("\u0000");
  let table = perSlots.get(key);
  if (!table) {
    // Slot lists come from questions ("number of beehives"): a long-running server sees many.
    if (perSlots.size >= 256) perSlots.clear();
    perSlots.set(key, (table = slotStatements(unitsOfSlots(), slots, (id) => validity.get(id))));
  }
  return table;
}
