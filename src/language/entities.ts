/**
 * Named entities and topics from casual conversation text, via compromise.
 * One `nlp()` parse per call: this runs on every ingested turn, so it must stay
 * a single pass (compromise costs ~1 ms per short turn). Its compiled match
 * strings are cached (cache-match-parsing.ts), and the entity views whose tag
 * no term carries are not run; both are exact: the output is what the plain
 * calls give (scripts/compare-anchorer-output.ts checks every LoCoMo and
 * LongMemEval dev turn).
 */
import nlp from "compromise";
import { cacheMatchParsing } from "./cache-match-parsing.js";

cacheMatchParsing(nlp);

export interface ExtractedEntities {
  people: string[];
  places: string[];
  organizations: string[];
  /** other salient noun phrases / topics, lowercased */
  topics: string[];
}

// compromise's tagger hands back matches with sentence punctuation and quotes attached.
const EDGE_PUNCT = /^[\s"'“”‘’`([{<*_~.,;:!?-]+|[\s"'“”‘’`)\]}>*_~.,;:!?-]+$/g;
const POSSESSIVE = /['’]s$/i;

function clean(raw: string): string {
  return raw.replace(EDGE_PUNCT, "").replace(POSSESSIVE, "").replace(EDGE_PUNCT, "").replace(/\s+/g, " ").trim();
}

/** Words that compromise sometimes tags as names/nouns but never identify anything. */
const NOT_A_NAME = new Set(["i", "me", "you", "he", "she", "we", "they", "it", "hey", "hi", "hello", "wow", "omg", "lol", "haha", "thanks", "yeah", "ok", "okay"]);

// Nouns so generic they say nothing about what a turn is about.
const GENERIC_NOUNS = new Set([
  "thing", "things", "stuff", "lot", "lots", "time", "times", "way", "ways", "day", "days", "bit", "kind", "sort",
  "one", "ones", "something", "anything", "everything", "nothing", "someone", "anyone", "everyone", "people",
  "week", "weeks", "month", "months", "year", "years", "today", "tonight", "yesterday", "tomorrow", "moment",
  "part", "idea", "fun", "guy", "guys", "person", "place", "question", "answer", "point", "end", "start",
  "thinking", "doing", "going", "feeling",
]);

// People and places get their own lists (an organisation often names the topic: "LGBTQ support group"), and time words belong to time grounding; neither makes a topic.
// Pre-parsed once: compiling a match string per noun phrase dominated the per-turn cost.
const TOPIC_NOISE = nlp.parseMatch(
  "(#Determiner|#Pronoun|#Possessive|#Date|#Value|#Adverb|#QuestionWord|#Conjunction|#Person|#Place|" +
  "last|next|ago|week|weeks|weekend|month|months|year|years|summer|spring|winter|autumn|morning|evening|night|yesterday|today|tonight|tomorrow)",
);

function uniqueNames(values: string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of values) {
    const v = clean(raw);
    const key = v.toLowerCase();
    if (v.length < 2 || NOT_A_NAME.has(key) || seen.has(key)) continue;
    seen.add(key);
    out.push(v);
  }
  return out;
}

// compromise views are loosely typed; this is the slice of the API used here.
interface View {
  out(format: "array"): string[];
  not(match: unknown): View;
  text(format?: string): string;
  forEach(fn: (m: View) => void): void;
}

/** Every tag on any term of the parse. */
function tagsOf(doc: unknown): Set<string> {
  const all = new Set<string>();
  for (const sentence of (doc as { docs: Array<Array<{ tags: Set<string> }>> }).docs) for (const term of sentence) for (const tag of term.tags) all.add(tag);
  return all;
}

export function extractEntities(text: string): ExtractedEntities {
  if (text.trim() === "") return { people: [], places: [], organizations: [], topics: [] };
  const doc = nlp(text);
  // people() needs a #Person term, places() a #Place or #Address, organizations() an
  // #Organization: most turns have none of them, and each view is a few compiled
  // matches over the whole parse. One look at the tags decides which are run;
  // a view that is skipped would have been empty.
  const tags = tagsOf(doc);
  const people = tags.has("Person") ? uniqueNames((doc.people() as unknown as View).out("array")) : [];
  const places = tags.has("Place") || tags.has("Address") ? uniqueNames((doc.places() as unknown as View).out("array")) : [];
  const organizations = tags.has("Organization") ? uniqueNames((doc.organizations() as unknown as View).out("array")) : [];

  const named = new Set([...people, ...places, ...organizations].map((n) => n.toLowerCase()));
  const topics: string[] = [];
  const seen = new Set<string>();
  (doc.nouns() as unknown as View).forEach((np) => {
    const phrase = clean(np.not(TOPIC_NOISE).text("normal"));
    if (phrase.length < 2 || seen.has(phrase)) return;
    const words = phrase.split(" ");
    if (words.every((w) => GENERIC_NOUNS.has(w) || NOT_A_NAME.has(w))) return;
    // Names are already reported in their own lists; a phrase that is just a name adds nothing.
    if (named.has(phrase)) return;
    seen.add(phrase);
    topics.push(phrase);
  });
  return { people, places, organizations, topics };
}

/** A short topic label: the most specific (longest) noun phrase, earliest on ties. */
export function topicOf(text: string): string | null {
  return topicFrom(extractEntities(text));
}

/** topicOf for entities already extracted: a second parse would double the anchoring cost of a turn. */
export function topicFrom({ topics, organizations, places }: ExtractedEntities): string | null {
  let best: string | null = null;
  let bestWords = 0;
  for (const t of topics) {
    const words = t.split(" ").length;
    if (words > bestWords) {
      best = t;
      bestWords = words;
    }
  }
  return best ?? organizations[0]?.toLowerCase() ?? places[0]?.toLowerCase() ?? null;
}
