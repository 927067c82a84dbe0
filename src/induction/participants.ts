/**
 * Participants: the known speakers a query names. Only names the store knows
 * count; any other name is content (an entity), because the retriever matches
 * participants against unit metadata that holds store names only.
 */
import { STOPWORDS, escapeRegExp } from "../language/text.js";

export interface ParticipantMatch {
  /** Canonical names from knownPeople, in first-mention order. */
  names: string[];
  /** The query text of each mention ("Caroline's"). */
  mentions: string[];
  /** Query spans [start, end) of the mentions. */
  spans: [number, number][];
  /** A first name shared by several known people: kept, but less sure. */
  ambiguous: string[];
  /** Short forms read as a known first name ("Mel" for Melanie). */
  nicknames: string[];
}

// Names that are also ordinary words: written lowercase they are the word ("we may go"), not the person.
const WORD_LIKE = new Set([
  ...STOPWORDS,
  "may", "will", "mark", "bill", "rose", "hope", "joy", "grace", "faith", "art", "pat", "sue", "max", "summer",
  "april", "june", "august", "amber", "dawn", "jean", "sky", "river", "bob", "drew", "frank", "gene", "guy", "jack", "ray",
]);

interface Matcher {
  re: RegExp;
  byAlias: Map<string, string[]>;
  /** [first name, canonical name] pairs, for short forms. */
  firstNames: [string, string][];
}

const CAPITALISED = /(?<![\p{L}\p{N}])\p{Lu}\p{Ll}{2,}(?![\p{L}\p{N}])/gu;

// The same knownPeople list is reused for every question of a namespace: compile once.
const cache = new Map<string, Matcher>();


function matcherFor(knownPeople: string[]): Matcher | null {
  const key = knownPeople.join("\u0000");
  const hit = cache.get(key);
  if (hit) return hit;
  const byAlias = new Map<string, string[]>();
  const add = (alias: string, name: string) => {
    const k = alias.toLowerCase();
    const list = byAlias.get(k) ?? [];
    if (!list.includes(name)) list.push(name);
    byAlias.set(k, list);
  };
  for (const raw of knownPeople) {
    const name = raw.trim().replace(/\s+/g, " ");
    if (name.length < 2) continue;
    add(name, name);
    const first = name.split(" ")[0] ?? "";
    if (first !== name && first.length >= 2) add(first, name);
  }
  if (byAlias.size === 0) return null;
  // Longest alias first so "Caroline Smith" wins over "Caroline".
  const aliases = [...byAlias.keys()].sort((a, b) => b.length - a.length).map(escapeRegExp);
  const re = new RegExp(`(?<![\\p{L}\\p{N}])(${aliases.join("|")})(?:['’]s)?(?![\\p{L}\\p{N}])`, "giu");
  const firstNames: [string, string][] = knownPeople.map((n) => [(n.trim().split(/\s+/)[0] ?? "").toLowerCase(), n.trim().replace(/\s+/g, " ")]);
  const m = { re, byAlias, firstNames };
  if (cache.size > 1000) cache.clear();
  cache.set(key, m);
  return m;
}

export function matchParticipants(query: string, knownPeople: string[], timeSpans: [number, number][]): ParticipantMatch {
  const out: ParticipantMatch = { names: [], mentions: [], spans: [], ambiguous: [], nicknames: [] };
  const matcher = matcherFor(knownPeople);
  if (!matcher) return out;
  for (const m of query.matchAll(matcher.re)) {
    const alias = m[1] ?? "";
    const start = m.index ?? 0;
    const end = start + m[0].length;
    if (WORD_LIKE.has(alias.toLowerCase()) && alias === alias.toLowerCase()) continue;
    // "in May 2023" is a date even when someone is called May.
    if (timeSpans.some(([s, e]) => s < end && start < e)) continue;
    const names = matcher.byAlias.get(alias.toLowerCase()) ?? [];
    if (names.length > 1) out.ambiguous.push(alias);
    out.mentions.push(m[0]);
    out.spans.push([start, end]);
    for (const n of names) if (!out.names.includes(n)) out.names.push(n);
  }
  // LoCoMo speakers shorten each other's names ("Mel and her kids"). Only a capitalised, mid-sentence
  // prefix of exactly one known first name counts, so ordinary words rarely qualify.
  for (const m of query.matchAll(CAPITALISED)) {
    const start = m.index ?? 0;
    const end = start + m[0].length;
    const word = m[0].toLowerCase();
    if (start === 0 || /[.!?]\s*$/.test(query.slice(0, start)) || WORD_LIKE.has(word)) continue;
    if (out.spans.some(([s, e]) => s < end && start < e) || timeSpans.some(([s, e]) => s < end && start < e)) continue;
    const owners = matcher.firstNames.filter(([first]) => first.length >= word.length + 2 && first.startsWith(word));
    if (owners.length !== 1 || !owners[0]) continue;
    const name = owners[0][1];
    out.nicknames.push(m[0]);
    out.mentions.push(m[0]);
    out.spans.push([start, end]);
    if (!out.names.includes(name)) out.names.push(name);
  }
  return out;
}
