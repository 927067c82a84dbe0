import { stemmedTerms } from "./stemmed-terms.js";

/**
 * When two open-world statements are about the same thing: their attribute
 * words ("korean restaurants tried", "sticking to daily tidying routine")
 * agree. A named slot (residence, job) is one key by name; an open one is a
 * key by its words, so the answer is a confidence, not a yes or no.
 */

/** At or above: the same key — a later other value supersedes. */
export const SAME_KEY = 0.6;
/** At or above (and below SAME_KEY): related, stated later — recorded, no supersession. */
export const RELATED_KEY = 0.3;

const stemsOf = new Map<string, ReadonlySet<string>>();

/** An attribute's word stems, remembered (a namespace repeats its attributes). */
export function attributeStems(attribute: string): ReadonlySet<string> {
  let stems = stemsOf.get(attribute);
  if (!stems) {
    if (stemsOf.size > 20_000) stemsOf.clear();
    stems = stemmedTerms(attribute);
    stemsOf.set(attribute, stems);
  }
  return stems;
}

/**
 * How sure it is that two attributes name one thing, in [0, 1]: 1 when the
 * words are the same; else the share of the shorter one's stems the other
 * holds, needing two shared stems when both have two or more ("personal best
 * time" ~ "personal best time in charity 5k run": 1 × 0.9; "visits to gym" vs
 * "gym class": related at most).
 */
export function attributeAgreement(a: string, b: string): number {
  if (a === b) return 1;
  const sa = attributeStems(a);
  const sb = attributeStems(b);
  if (sa.size === 0 || sb.size === 0) return 0;
  let shared = compoundHeadsShared(a, b);
  for (const s of sa) if (sb.has(s)) shared++;
  const smaller = Math.min(sa.size, sb.size);
  if (shared === 0) return 0;
  // One shared word of two or more: related at most ("gym visits" and "gym class").
  if (smaller >= 2 && shared < 2) return shared / smaller >= 0.5 ? RELATED_KEY : 0;
  // Not 1: other words may narrow the thing ("in the charity 5k run").
  return 0.9 * (shared / smaller) * (sa.size === sb.size ? 1 : 0.95);
}

/** Kin words are other people, not a kind of the same thing: "grandchildren" are no "children". */
const KIN_PREFIX = /^(?:grand|step|great|half|god)/;

/**
 * Words of the two that name one thing by its head: "beehives" and "hives",
 * "houseplants" and "plants" (a compound ending in the other word, four
 * letters or more); the stems miss these ("beehiv", "hive").
 */
function compoundHeadsShared(a: string, b: string): number {
  const wb = attributeWords(b);
  let shared = 0;
  for (const x of attributeWords(a)) {
    for (const y of wb) {
      const [long, short] = x.length > y.length ? [x, y] : [y, x];
      if (long !== short && long.endsWith(short) && !KIN_PREFIX.test(long)) shared++;
    }
  }
  return shared;
}

const wordsOf = new Map<string, readonly string[]>();

/** An attribute's words of four letters or more, remembered as its stems are (deriveValidity compares every open statement with its subject's keys). */
function attributeWords(attribute: string): readonly string[] {
  let words = wordsOf.get(attribute);
  if (!words) {
    if (wordsOf.size > 20_000) wordsOf.clear();
    words = attribute.toLowerCase().split(/[^\p{L}]+/u).filter((w) => w.length >= 4);
    wordsOf.set(attribute, words);
  }
  return words;
}

/** A count slot ("number of beehives"): keyed by the words of what it counts, as an open attribute is. */
export function isCountSlot(slot: string): boolean {
  return slot.startsWith("number of ");
}

/** Whether a count asked ("number of beehives") is answered by another count slot: the same thing in other words ("number of hives"). */
export function sameCountedThing(asked: string, stated: string): boolean {
  return isCountSlot(asked) && isCountSlot(stated) && attributeAgreement(asked, stated) >= SAME_KEY;
}

/**
 * How much of an attribute a query names, in [0, 1]: the share of the
 * attribute's stems among the query's. "How many Korean restaurants have I
 * tried?" names all of "korean restaurants tried".
 */
export function queryNamesAttribute(attribute: string, queryStems: ReadonlySet<string>): number {
  const stems = attributeStems(attribute);
  if (stems.size === 0) return 0;
  let shared = 0;
  for (const s of stems) if (queryStems.has(s)) shared++;
  if (shared < Math.min(2, stems.size)) return 0;
  return shared / stems.size;
}
