import type { MemoryUnit } from "../model/memory-unit.js";
import { attributeAgreement, isCountSlot, RELATED_KEY, SAME_KEY } from "../language/attribute-key.js";

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
  /** How sure the rules are of the supersession link, and the later words that made it (rule supersessions only). */
  link?: { confidence: number; evidence: string };
  /** Later statements of a key the rules are unsure is the same ("related, stated later"): no supersession. */
  relatedLater?: Array<{ unitId: string; on: string; evidence: string }>;
  /**
   * The unit's states a later statement ended while another it states still holds ("My partner Tom and I live in
   * Leeds", then "we moved to Manchester": the residence ended, the partner holds): each "slot = value", when it
   * ended and by what. The unit stays valid; a question about that slot reads it as ended.
   */
  ended?: Array<{ state: string; validTo: string; supersededBy: string }>;
}

type StateUnit = Pick<MemoryUnit, "id" | "context" | "provenance" | "supersession">;

/** How sure a supersession between two statements of one named slot is (residence, job): the rules read both. */
const NAMED_SLOT_CONFIDENCE = 0.9;

/**
 * Validity of every unit that states a state, derived from the namespace's
 * statements in time order (the turn's own time when it has one, the event
 * time when the turn dates the change — "I moved to Porto last week" — else
 * the session's start): a later statement of the same key with another value
 * supersedes an earlier one, as does one that ends the key ("I sold my car");
 * a repeated value supersedes nothing. In an additive slot (pets) only an
 * ending statement of that very value supersedes it. A unit is superseded
 * when every state it states is.
 *
 * A key is (subject, slot). The subject is resolved through the namespace's
 * `relation` statements ("my sister Ana": "ines's sister" is Ana). A named
 * slot is one key by name; open-world slots ("5k personal best") and counts
 * ("number of hives", "number of beehives") are one key when their words agree (language/attribute-key.ts): at SAME_KEY or above a
 * later other value supersedes, with the agreement as the link's confidence;
 * between RELATED_KEY and SAME_KEY the later statement is only recorded as
 * related (relatedLater), never as a supersession. A unit that still holds one
 * state lists the others that ended (`ended`).
 *
 * A user's override (unit.supersession) wins over the rules. Nothing is ever
 * deleted: superseded units keep their place in history with an interval.
 */
export function deriveValidity(units: readonly StateUnit[]): Map<string, Validity> {
  const byId = new Map(units.map((u) => [u.id, u]));
  const aliasOf = subjectAliases(units);
  // Time and conversation order once per unit, not per comparison of the sort.
  const statements = units.flatMap((u) => {
    const at = timeOf(u);
    const position = order(u);
    return (u.context.states ?? []).filter((s) => s.slot !== "relation").map((s) => ({ unit: u, s, at, position, subject: resolveSubject(s.subject, aliasOf) }));
  });
  statements.sort((a, b) => a.at.localeCompare(b.at) || a.position - b.position);
  type Statement = (typeof statements)[number];
  const groups = new Map<string, Statement[]>();
  // Per subject, the open keys so far: each one's words (its first statement's) and its group.
  const openKeys = new Map<string, Array<{ attribute: string; key: string }>>();
  const related = new Map<string, NonNullable<Validity["relatedLater"]>>();
  const confidenceOf = new Map<Statement, number>();
  for (const st of statements) {
    let key = `${st.subject}\u0000${st.s.slot}`;
    // An open attribute, or a count of a thing ("number of hives", "number of beehives"): one key when the words agree.
    if (st.s.open || isCountSlot(st.s.slot)) {
      const keys = openKeys.get(st.subject) ?? [];
      let best: { key: string; agreement: number } | null = null;
      for (const k of keys) {
        const agreement = attributeAgreement(k.attribute, st.s.slot);
        if (agreement >= RELATED_KEY && (!best || agreement > best.agreement)) best = { key: k.key, agreement };
      }
      if (best && best.agreement >= SAME_KEY) {
        key = best.key;
        confidenceOf.set(st, best.agreement);
      } else {
        key = `${st.subject}\u0000open\u0000${keys.length}`;
        keys.push({ attribute: st.s.slot, key });
        openKeys.set(st.subject, keys);
        // Related, stated later: every earlier statement of the near key learns of it.
        if (best) {
          for (const earlier of groups.get(best.key) ?? []) {
            if (earlier.unit.id === st.unit.id || earlier.s.value === st.s.value) continue;
            const list = related.get(earlier.unit.id) ?? [];
            if (!list.some((r) => r.unitId === st.unit.id)) list.push({ unitId: st.unit.id, on: st.at, evidence: st.s.evidence });
            related.set(earlier.unit.id, list);
          }
        }
      }
    }
    const group = groups.get(key);
    if (group) group.push(st);
    else groups.set(key, [st]);
  }
  // Per unit: every statement's end (null: still valid), and the unit that ended it.
  const ends = new Map<string, Array<{ to: string | null; by: Statement | null; label: string; from: string }>>();
  for (const group of groups.values()) {
    for (const [i, st] of group.entries()) {
      if (st.s.ends) continue;
      // The first later statement that ends this one, walked in place (a slice per statement made a slot stated thousands of times quadratic in copies).
      let later: Statement | undefined;
      for (let j = i + 1; j < group.length && !later; j++) {
        const o = group[j]!;
        if (o.unit.id !== st.unit.id && (st.s.additive ? o.s.ends && (o.s.value === st.s.value || o.s.value === "") : o.s.ends || o.s.value !== st.s.value)) later = o;
      }
      const list = ends.get(st.unit.id) ?? [];
      list.push({ to: later?.at ?? null, by: later ?? null, label: `${st.s.slot} = ${st.s.value}`, from: st.at });
      ends.set(st.unit.id, list);
    }
  }
  const out = new Map<string, Validity>();
  for (const [id, list] of ends) {
    const open = list.filter((e) => e.to === null);
    const last = [...list].sort((a, b) => (b.to ?? "").localeCompare(a.to ?? ""))[0]!;
    const by = open.length > 0 ? null : last.by;
    const laterRelated = related.get(id);
    const ended = open.length > 0 ? list.flatMap((e) => (e.to !== null && e.by ? [{ state: e.label, validTo: e.to, supersededBy: e.by.unit.id }] : [])) : [];
    out.set(id, {
      states: list.map((e) => e.label),
      validFrom: list.map((e) => e.from).sort()[0]!,
      validTo: open.length > 0 ? null : last.to,
      supersededBy: by?.unit.id ?? null,
      origin: "rule",
      ...(by ? { link: { confidence: round(by.s.open ? (confidenceOf.get(by) ?? 1) * NAMED_SLOT_CONFIDENCE : NAMED_SLOT_CONFIDENCE), evidence: by.s.evidence } } : {}),
      ...(laterRelated && open.length > 0 ? { relatedLater: laterRelated } : {}),
      ...(ended.length > 0 ? { ended } : {}),
    });
  }
  for (const u of units) {
    if (!u.supersession) continue;
    const by = u.supersession.supersededBy ? byId.get(u.supersession.supersededBy) : undefined;
    const base = out.get(u.id) ?? { states: [], validFrom: timeOf(u), validTo: null, supersededBy: null, origin: "user" as const };
    const { link: _link, ...rest } = base;
    out.set(u.id, { ...rest, origin: "user", supersededBy: by ? by.id : null, validTo: by ? timeOf(by) : null });
  }
  return out;
}

function round(x: number): number {
  return Math.round(x * 100) / 100;
}

/**
 * "ines's sister" → "ana", from the namespace's relation statements (subject
 * Ana, value "ines's sister"); a relation said of two names (two sisters)
 * resolves to neither.
 */
export function subjectAliases(units: readonly StateUnit[]): Map<string, string> {
  const names = new Map<string, Set<string>>();
  for (const u of units) {
    for (const s of u.context.states ?? []) {
      if (s.slot !== "relation") continue;
      const set = names.get(s.value.toLowerCase()) ?? new Set<string>();
      set.add(s.subject.toLowerCase());
      names.set(s.value.toLowerCase(), set);
    }
  }
  return new Map([...names].flatMap(([relation, set]) => (set.size === 1 ? [[relation, [...set][0]!] as const] : [])));
}

export function resolveSubject(subject: string, aliasOf: ReadonlyMap<string, string>): string {
  const lower = subject.toLowerCase();
  return aliasOf.get(lower) ?? lower;
}

/** A change dated by the turn ("last week") counts from then, when that is shortly before it was said; otherwise from when it was said (the turn's own time, else its session's start). */
export function timeOf(u: StateUnit): string {
  const said = u.context.saidAt ?? u.context.session.start;
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
