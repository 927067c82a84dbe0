/**
 * Places and other proper nouns of a query, for the location and entity
 * conditions. The tagger only runs when the query holds a capitalised word
 * that is not a known participant, a time word or sentence-initial
 * scaffolding. That gate was set for speed when the full compromise parse
 * cost 1–3 ms a query; the tagger now costs ~0.2 ms (language/entities.ts),
 * and the gate stays because the frames it gives are the measured ones.
 * The price: an all-lowercase place ("what did i eat in paris") is missed.
 */
import { extractEntities } from "../language/entities.js";
import { STOPWORDS } from "../language/text.js";

export interface ProperNouns {
  places: string[];
  /** Proper nouns that are neither places nor participants: people the store does not know, organisations, named things. */
  others: string[];
}

/** Month, weekday and season names: capitalised, yet times, not names. */
export const TIME_WORDS: ReadonlySet<string> = new Set([
  "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december",
  "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
  "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
  "spring", "summer", "autumn", "fall", "winter", "today", "yesterday", "tomorrow",
]);
const SCAFFOLD = new Set([...STOPWORDS, "describe", "list", "name", "give", "explain", "summarize", "summarise", "remind", "recall", "please"]);
/** "I" and its contractions: capitalised, never a name. */
export const PRONOUN_I = /^i(['’](m|d|ll|ve))?$/i;

const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’&.-]*/gu;
const POSSESSIVE = /['’]s?$/;

interface Token {
  text: string;
  start: number;
  end: number;
  initial: boolean;
}

function inSpans(start: number, end: number, spans: [number, number][]): boolean {
  return spans.some(([s, e]) => s < end && start < e);
}

/** Whether a word at `start` opens a sentence or a quotation, where any word is capitalised. */
export function opensSentence(query: string, start: number): boolean {
  return /(^|[.!?:]\s*|["“(]\s*)$/.test(query.slice(0, start));
}

/** Capitalised, meaningful tokens: the only ones that can name a place or an entity here. */
function candidates(query: string, excluded: [number, number][]): Token[] {
  const out: Token[] = [];
  for (const m of query.matchAll(WORD)) {
    const start = m.index ?? 0;
    const text = m[0].replace(/[.-]+$/, "").replace(POSSESSIVE, "");
    const end = start + text.length;
    if (text === "" || !/^\p{Lu}/u.test(text) || PRONOUN_I.test(text)) continue;
    const initial = opensSentence(query, start);
    const lower = text.toLowerCase();
    if (TIME_WORDS.has(lower) || inSpans(start, end, excluded)) continue;
    if (initial && SCAFFOLD.has(lower)) continue;
    out.push({ text, start, end, initial });
  }
  return out;
}

/** Adjacent capitalised tokens form one name ("New York", "Eiffel Tower"). */
function runs(query: string, tokens: Token[]): Token[] {
  const out: Token[] = [];
  for (const t of tokens) {
    const last = out[out.length - 1];
    if (last && /^\s+$/.test(query.slice(last.end, t.start))) {
      last.text = query.slice(last.start, t.end);
      last.end = t.end;
    } else {
      out.push({ ...t });
    }
  }
  return out;
}

export function findProperNouns(query: string, excluded: [number, number][], excludedNames: Set<string>): ProperNouns {
  const tokens = candidates(query, excluded);
  if (tokens.length === 0) return { places: [], others: [] };
  const found = extractEntities(query);
  // compromise glues neighbouring names ("Is Oscar Melanie's pet?" → "Oscar Melanie"): drop the words that are participants or time.
  const strip = (n: string) =>
    n
      .split(/\s+/)
      .filter((w) => {
        const k = w.toLowerCase();
        return !TIME_WORDS.has(k) && !excludedNames.has(k);
      })
      .join(" ");
  const clean = (names: string[]) => names.map(strip).filter((n) => n !== "" && !excludedNames.has(n.toLowerCase()) && !SCAFFOLD.has(n.toLowerCase()));
  const orgs = clean(found.organizations);
  const orgKeys = new Set(orgs.map(key));
  const places = clean(found.places);
  const placeKeys = new Set(places.map(key));

  const others: string[] = [...clean(found.people), ...orgs];
  for (const r of runs(query, tokens)) {
    const k = key(r.text);
    if (placeKeys.has(k) || orgKeys.has(k)) continue;
    // "When I was in Paris": a capitalised name after in/at is a place, unless it is an acronym ("in LGBTQ groups").
    if (/\b(in|at)\s+(the\s+)?$/i.test(query.slice(0, r.start)) && r.text !== r.text.toUpperCase()) {
      places.push(r.text);
      placeKeys.add(k);
      continue;
    }
    // A lone sentence-initial word is capitalised by grammar, not because it names something.
    if (r.initial && !/\s/.test(r.text)) continue;
    others.push(r.text);
  }
  const seen = new Set<string>();
  const uniquePlaces = dedupe(places, seen);
  return { places: uniquePlaces, others: dedupe(others, seen) };
}

function key(name: string): string {
  return name.toLowerCase().replace(/[^\p{L}\p{N}\s]/gu, "").replace(/\s+/g, " ").trim();
}

/** Longest first, so a name contained in a longer one ("Dr" in "Dr. Seuss", "New York" in "New York city") is dropped. */
function dedupe(names: string[], seen: Set<string>): string[] {
  const order = new Map(names.map((n, i) => [n, i] as const));
  const kept: string[] = [];
  for (const n of [...names].sort((a, b) => b.length - a.length)) {
    const k = key(n);
    if (k === "" || seen.has(k) || [...seen].some((s) => ` ${s} `.includes(` ${k} `))) continue;
    seen.add(k);
    kept.push(n);
  }
  return kept.sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
}
