import type { MemoryUnit } from "../model/memory-unit.js";

/** When a unit's stated state held, and what replaced it. */
export interface Validity {
  /** The state(s) the unit states, "slot = value". */
  states: string[];
  validFrom: string;
  /** Exclusive; null while still valid. */
  validTo: string | null;
  supersededBy: string | null;
  /** "rule": derived from later statements; "user": set by memory.supersede / unsupersede. */
  origin: "rule" | "user";
}

type StateUnit = Pick<MemoryUnit, "id" | "context" | "provenance" | "supersession">;

/**
 * Validity of every unit that states a state, derived from the namespace's
 * statements in time order (event time when the turn dates the change —
 * "I moved to Porto last week" — else when it was said): a later statement of
 * the same (subject, slot) with another value supersedes an earlier one, as
 * does one that ends the slot ("I sold my car"); a repeated value supersedes
 * nothing. In an additive slot (pets) only an ending statement of that very
 * value supersedes it. A unit is superseded when every state it states is.
 * A user's override (unit.supersession) wins over the rules. Nothing is ever
 * deleted: superseded units keep their place in history with an interval.
 */
export function deriveValidity(units: readonly StateUnit[]): Map<string, Validity> {
  const byId = new Map(units.map((u) => [u.id, u]));
  // Time and conversation order once per unit, not per comparison of the sort.
  const statements = units.flatMap((u) => {
    const at = timeOf(u);
    const position = order(u);
    return (u.context.states ?? []).map((s) => ({ unit: u, s, at, position }));
  });
  statements.sort((a, b) => a.at.localeCompare(b.at) || a.position - b.position);
  const groups = new Map<string, typeof statements>();
  for (const st of statements) {
    const key = `${st.s.subject.toLowerCase()}\u0000${st.s.slot}`;
    const group = groups.get(key);
    if (group) group.push(st);
    else groups.set(key, [st]);
  }
  // Per unit: every statement's end (null: still valid), and the unit that ended it.
  const ends = new Map<string, Array<{ to: string | null; by: string | null; label: string; from: string }>>();
  for (const group of groups.values()) {
    for (const [i, st] of group.entries()) {
      if (st.s.ends) continue;
      // The first later statement that ends this one, walked in place (a slice per statement made a slot stated thousands of times quadratic in copies).
      let later: (typeof group)[number] | undefined;
      for (let j = i + 1; j < group.length && !later; j++) {
        const o = group[j]!;
        if (o.unit.id !== st.unit.id && (st.s.additive ? o.s.ends && (o.s.value === st.s.value || o.s.value === "") : o.s.ends || o.s.value !== st.s.value)) later = o;
      }
      const list = ends.get(st.unit.id) ?? [];
      list.push({ to: later?.at ?? null, by: later?.unit.id ?? null, label: `${st.s.slot} = ${st.s.value}`, from: st.at });
      ends.set(st.unit.id, list);
    }
  }
  const out = new Map<string, Validity>();
  for (const [id, list] of ends) {
    const open = list.filter((e) => e.to === null);
    const last = [...list].sort((a, b) => (b.to ?? "").localeCompare(a.to ?? ""))[0]!;
    out.set(id, {
      states: list.map((e) => e.label),
      validFrom: list.map((e) => e.from).sort()[0]!,
      validTo: open.length > 0 ? null : last.to,
      supersededBy: open.length > 0 ? null : last.by,
      origin: "rule",
    });
  }
  for (const u of units) {
    if (!u.supersession) continue;
    const by = u.supersession.supersededBy ? byId.get(u.supersession.supersededBy) : undefined;
    const base = out.get(u.id) ?? { states: [], validFrom: timeOf(u), validTo: null, supersededBy: null, origin: "user" as const };
    out.set(u.id, { ...base, origin: "user", supersededBy: by ? by.id : null, validTo: by ? timeOf(by) : null });
  }
  return out;
}

/** A change dated by the turn ("last week") counts from then, when that is shortly before it was said; otherwise from when it was said. */
function timeOf(u: StateUnit): string {
  const said = u.context.session.start;
  const event = u.context.eventTime?.start;
  return event && event < said && Date.parse(said) - Date.parse(event) <= REPORTED_CHANGE_MS ? event : said;
}

/** How far back a turn's own time may date the change it reports ("I moved last month"). */
const REPORTED_CHANGE_MS = 92 * 86_400_000;

/** Conversation order inside a session: the trailing number of the first turn id. */
function order(u: StateUnit): number {
  const m = /(\d+)\D*$/.exec(u.provenance.turnIds[0] ?? "");
  return m ? Number(m[1]) : 0;
}
