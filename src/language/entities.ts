/**
 * Named entities and topics from casual conversation text, from compromise's
 * lexicon and its first tagging pass only.
 *
 * Why not compromise's full parse and its `people()`/`places()`/`nouns()`
 * views: this runs on every ingested turn, and the full parse (a second
 * tagging pass of a thousand-odd rules, the chunker) and the views (a dozen
 * compiled matches each) cost 3.6 ms per LoCoMo turn, most of anchoring
 * (CPU profiles of the anchorer put compromise at 73–78 %).
 * The first pass already tags names, places and organisations from the
 * lexicon; the phrases are read off the tags in one walk here. On LoCoMo's
 * turns the people, places and organisations agree with the full parse's
 * (mean Jaccard per turn 0.997–0.999); the topics differ more, mostly where the views
 * glued coordinated nouns into one phrase ("strength courage") that are two
 * topics here (docs/experiments.md › The anchorer's tagger).
 */
import nlp from "compromise";
import { checkArgs } from "../model/check-args.js";

export interface ExtractedEntities {
  people: string[];
  places: string[];
  organizations: string[];
  /** other salient noun phrases / topics, lowercased */
  topics: string[];
}

// The slice of a compromise term read here.
interface Term {
  text: string;
  normal: string;
  post: string;
  tags: Set<string>;
}

/** Lexicon lookups, the first tagging pass and the contractions it needs ("it's" → it is); the order of compromise's own hooks. */
const FIRST_PASS = ["lexicon", "preTagger", "contractionTwo"];

function tagTerms(text: string): Term[][] {
  const doc = (nlp as unknown as { tokenize(t: string): { compute(steps: string[]): { docs: Term[][] } } }).tokenize(text);
  return doc.compute(FIRST_PASS).docs;
}

// compromise's tokens keep sentence punctuation and quotes beside the word.
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
  "thinking", "doing", "going", "feeling", "here", "there",
]);

// People and places get their own lists (an organisation often names the topic: "LGBTQ support group"), and time words belong to time grounding; neither makes a topic.
const TOPIC_NOISE_TAGS = ["Determiner", "Pronoun", "Possessive", "Date", "Value", "Adverb", "QuestionWord", "Conjunction", "Person", "Honorific", "Place"];
const TOPIC_NOISE_WORDS = new Set([
  "last", "next", "ago", "week", "weeks", "weekend", "month", "months", "year", "years", "summer", "spring", "winter", "autumn",
  "morning", "evening", "night", "yesterday", "today", "tonight", "tomorrow",
]);

/**
 * A comma, full stop, bracket or dash after a word ends any phrase it is in
 * ("Toronto, Ontario" and "Jon — Mel" are two); an abbreviation's full stop
 * does not ("Dr. Patel"), nor a hyphen inside a word ("Spider-Man").
 */
const PHRASE_BREAK = /[,.;:!?()"“”—–]|\s-|-\s|--/;
const breaksAfter = (t: Term) => PHRASE_BREAK.test(t.post) && !(t.tags.has("Abbreviation") && /^\.\s*$/.test(t.post));
const CAPITALISED = /^\p{Lu}/u;

/**
 * Maximal runs of terms: `starts` may open one, `continues` extends it. A
 * term whose trailing punctuation breaks phrases closes the run it is in.
 */
function runsOf(sentence: readonly Term[], starts: (t: Term) => boolean, continues: (t: Term, run: readonly Term[]) => boolean): Term[][] {
  const runs: Term[][] = [];
  let run: Term[] = [];
  for (const term of sentence) {
    if (run.length > 0 && !continues(term, run)) {
      runs.push(run);
      run = [];
    }
    if (run.length > 0 || starts(term)) {
      run.push(term);
      if (breaksAfter(term)) {
        runs.push(run);
        run = [];
      }
    }
  }
  if (run.length > 0) runs.push(run);
  return runs;
}

/** The words as written: a hyphen inside a name stays ("Spider-Man"), and so does an abbreviation's full stop ("Dr. Brown"). */
function written(run: readonly Term[]): string {
  const separator = (t: Term) => (t.post === "-" ? "-" : t.post.trim() === "." ? ". " : " ");
  return run.map((t, i) => (i < run.length - 1 ? t.text + separator(t) : t.text)).join("");
}

const isPerson = (t: Term) => t.tags.has("Person") && !t.tags.has("Pronoun");
// The first pass knows first names and titles, not most surnames ("Patrick Rothfuss", "Dr. Brown's"): a
// capitalised noun right after one continues the name, unless the lexicon knows it as something else.
const NOT_A_SURNAME = ["Place", "Organization", "Date", "Pronoun", "Value"];
const continuesPerson = (t: Term, run: readonly Term[]) =>
  isPerson(t) ||
  (CAPITALISED.test(t.text) && t.tags.has("Noun") && !NOT_A_SURNAME.some((tag) => t.tags.has(tag)) && isPerson(run[run.length - 1]!));
const isPlace = (t: Term) => t.tags.has("Place") || t.tags.has("Address");
const isOrganization = (t: Term) => t.tags.has("Organization");

/** Words a noun phrase may hold before its noise is dropped; a pronoun or an interjection ends it. */
const inNounPhrase = (t: Term) =>
  (t.tags.has("Noun") || t.tags.has("Adjective") || t.tags.has("Determiner") || t.tags.has("Possessive") || t.tags.has("Value")) &&
  !t.tags.has("Pronoun") &&
  !t.tags.has("Expression");
const isNoun = (t: Term) => t.tags.has("Noun") && !t.tags.has("Pronoun");
// "a painting of a sunset" is one phrase: "of" joins two noun phrases; a trailing one ("care of") is cut below.
const continuesNounPhrase = (t: Term, run: readonly Term[]) => inNounPhrase(t) || (t.normal === "of" && isNoun(run[run.length - 1]!));

/**
 * A noun phrase's topic: up to its last noun (later adjectives are
 * predicates), without determiners, time words and names — also the
 * surnames the person runs took in (`inNames`), which carry no Person tag.
 */
function topicOfPhrase(run: readonly Term[], inNames: ReadonlySet<Term>): string | null {
  let end = run.length;
  while (end > 0 && !isNoun(run[end - 1]!)) end--;
  const phrase = run.slice(0, end);
  if (!phrase.some(isNoun)) return null;
  const kept = phrase.filter((t) => !inNames.has(t) && !TOPIC_NOISE_TAGS.some((tag) => t.tags.has(tag)) && !TOPIC_NOISE_WORDS.has(t.normal));
  return clean(kept.map((t) => t.normal).join(" "));
}

/** A title or abbreviation alone names nobody ("Mr.", "St."): such runs are dropped. */
function namesOf(runs: Term[][]): Term[][] {
  return runs.filter((run) => run.some((t) => !t.tags.has("Honorific") && !t.tags.has("Abbreviation")));
}

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

export function extractEntities(text: string): ExtractedEntities {
  checkArgs("extractEntities", { text: [text, "string"] });
  if (text.trim() === "") return { people: [], places: [], organizations: [], topics: [] };
  const found = { people: [] as string[], places: [] as string[], organizations: [] as string[], phrases: [] as string[] };
  for (const sentence of tagTerms(text)) {
    const inNames = new Set<Term>();
    for (const run of namesOf(runsOf(sentence, isPerson, continuesPerson))) {
      found.people.push(written(run));
      for (const t of run) inNames.add(t);
    }
    for (const run of namesOf(runsOf(sentence, isPlace, isPlace))) found.places.push(written(run));
    for (const run of namesOf(runsOf(sentence, isOrganization, isOrganization))) found.organizations.push(written(run));
    for (const run of runsOf(sentence, inNounPhrase, continuesNounPhrase)) {
      const topic = topicOfPhrase(run, inNames);
      if (topic !== null) found.phrases.push(topic);
    }
  }
  const people = uniqueNames(found.people);
  const places = uniqueNames(found.places);
  const organizations = uniqueNames(found.organizations);

  const named = new Set([...people, ...places, ...organizations].map((n) => n.toLowerCase()));
  const topics: string[] = [];
  const seen = new Set<string>();
  for (const phrase of found.phrases) {
    if (phrase.length < 2 || seen.has(phrase)) continue;
    const words = phrase.split(" ");
    if (words.every((w) => GENERIC_NOUNS.has(w) || NOT_A_NAME.has(w))) continue;
    // Names are already reported in their own lists; a phrase that is just a name adds nothing.
    if (named.has(phrase)) continue;
    seen.add(phrase);
    topics.push(phrase);
  }
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
