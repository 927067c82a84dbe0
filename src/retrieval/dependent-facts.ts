import type { MemoryUnit } from "../model/memory-unit.js";
import { timeOf } from "../anchoring/derive-validity.js";
import type { NamespaceValidity } from "../anchoring/namespace-validity.js";
import { escapeRegExp, sentencesOf } from "../language/text.js";

export type MayBeOutdated = NonNullable<MemoryUnit["mayBeOutdated"]>;

/**
 * Slots whose value other statements hang on: where one lives, works, with
 * whom, what one drives ("my commute to the Lisbon office", "my manager at
 * the roastery", "Sam's parents"). A count or a favourite is not such a place.
 */
const ANCHOR_SLOTS = new Set(["residence", "employer", "job", "partner", "car"]);

interface OldValue {
  /** Its place in the speaker's list: the first that matches wins, as when the whole list is tried in order. */
  order: number;
  word: RegExp;
  label: string;
  until: string;
  supersededBy: string;
}

/**
 * A speaker's superseded anchor values by the first word of the value: a
 * statement is tried only against the values whose first word it holds
 * (over years of moves and jobs a speaker has thousands; each hit tried
 * every one was most of a recall at 1M units).
 */
type OldValues = Map<string, OldValue[]>;

/** Per derivation (namespaceValidity keeps one object while the namespace is unchanged): each speaker's superseded anchor values. */
const indexes = new WeakMap<NamespaceValidity, Map<string, OldValues>>();

const WORD = /[\p{L}\d]+/gu;
const wordsOf = (text: string): string[] => text.toLowerCase().match(WORD) ?? [];

function oldValuesBySpeaker(states: NamespaceValidity): Map<string, OldValues> {
  let index = indexes.get(states);
  if (index) return index;
  index = new Map();
  const orders = new Map<string, number>();
  for (const u of states.stateUnits.values()) {
    const v = states.validity.get(u.id);
    const speaker = (u.context.participants[0] ?? "").toLowerCase();
    for (const s of u.context.states ?? []) {
      // A value short or numeric names nothing a later sentence would repeat by chance.
      if (!ANCHOR_SLOTS.has(s.slot) || s.value.length < 3 || /^\d/.test(s.value)) continue;
      // A value superseded later, or one a statement says ended ("I quit the Musikschule", "I sold the Fiesta"):
      // what the speaker said of it before holds no longer for sure.
      const ended = s.ends ? { until: timeOf(u), by: u.id } : v?.supersededBy && v.validTo ? { until: v.validTo, by: v.supersededBy } : null;
      if (!ended) continue;
      const first = wordsOf(s.value)[0];
      if (!first) continue;
      const byWord = index.get(speaker) ?? new Map<string, OldValue[]>();
      const list = byWord.get(first) ?? [];
      const order = (orders.get(speaker) ?? 0) + 1;
      orders.set(speaker, order);
      list.push({ order, word: new RegExp(`(?<![\\p{L}\\d])${escapeRegExp(s.value)}(?![\\p{L}\\d])`, "iu"), label: `${s.slot} = ${s.value}`, until: ended.until, supersededBy: ended.by });
      byWord.set(first, list);
      index.set(speaker, byWord);
    }
  }
  indexes.set(states, index);
  return index;
}

/**
 * A statement that depends on a state since superseded: said by the same
 * speaker before the change, naming the old value ("my commute to the
 * Lisbon office is 20 minutes", said before "I moved to Porto"). It stays in
 * the list and is flagged, never dropped: the dependent fact may still hold
 * (the office may be where it was). A statement superseded itself is not
 * flagged here: its own validity says so.
 */
export function mayBeOutdated(unit: MemoryUnit, states: NamespaceValidity): MayBeOutdated | undefined {
  if (states.validity.get(unit.id)?.supersededBy) return undefined;
  const byWord = oldValuesBySpeaker(states).get((unit.context.participants[0] ?? "").toLowerCase());
  if (!byWord) return undefined;
  const said = timeOf(unit);
  const text = unit.source?.map((t) => t.text).join(" ") ?? unit.content;
  const old = [...new Set(wordsOf(text))].flatMap((w) => byWord.get(w) ?? []).sort((a, b) => a.order - b.order);
  if (!old.length) return undefined;
  const sentences = sentencesOf(text);
  for (const o of old) {
    if (said >= o.until || o.supersededBy === unit.id) continue;
    // A fact of the speaker's own that hangs on the value, in the present ("my commute to the Lisbon office is"), not a passing mention ("Lisbon was lovely").
    const sentence = sentences.find((x) => o.word.test(x));
    if (sentence && OWN_PRESENT_FACT.test(sentence) && PRESENT.test(sentence)) return { because: o.label, supersededBy: o.supersededBy, on: o.until };
  }
  return undefined;
}

const OWN_PRESENT_FACT = /\b(?:my|our)\b/i;
const PRESENT = /\b(?:is|are|takes?|has|have|am|costs?|starts?|runs?|lives?|works?|does|do|gets?|pays?)\b|['’](?:s|m|re)\b/i;
