import type { MemoryUnit } from "../model/memory-unit.js";
import type { RecallFrame } from "../model/recall-frame.js";
import { isReliable } from "../model/recall-frame.js";
import { lexicalTerms, escapeRegExp, STOPWORDS } from "../language/text.js";
import { stemmedTerms, stemmedTermsWithParts } from "../language/stemmed-terms.js";
import { truncate } from "../formats/shared.js";
import { escapeStoredText } from "../language/escape-stored-text.js";
import { TIME_WORDS, PRONOUN_I, opensSentence } from "../induction/proper-nouns.js";
import { memoize } from "../util/memoize.js";
import { nearTime } from "./context-match.js";
import { describeInterval } from "../model/time.js";
import { NUMBER_WORD_VALUES } from "../language/state-patterns.js";
import { slotAnswers } from "./slot-statements.js";
import { irregularForms } from "../language/irregular-verbs.js";

/**
 * Whether the store likely holds evidence for a query: the abstain judgment
 * of every recall. A score says how likely one hit is relevant; this says
 * whether anything stored is, read from what the query asks that no
 * candidate covers — a word of its need no unit of the content pool holds
 * ("table tennis" where only "tennis" was said), or a person it names who
 * speaks none of the units that cover the rest.
 */
export interface EvidenceJudgment {
  /** true: the store likely holds evidence for the query. */
  likely: boolean;
  /** How sure the judgment is of `likely`, in [0.5, 1]. */
  confidence: number;
  /** For humans and the generator: what no stored memory covers, and the closest memory. */
  why: string;
}

/** Words of a question that ask for the kind of answer, not for its content: no memory need hold them. */
const ASKING_WORDS = new Set([
  "many", "long", "often", "old", "name", "time", "times", "total", "first", "last", "recently", "recent", "currently", "current",
  "still", "ago", "day", "days", "week", "weeks", "month", "months", "year", "years", "remind", "remember", "mention", "mentioned",
  "said", "say", "talk", "talked", "told", "previous", "conversation", "chat", "go", "went", "get", "make", "made", "think", "know",
  "today", "tonight", "yesterday", "tomorrow", "lately", "quite", "bit", "related", "based", "thing", "things",
  // Light verbs: a fact is told with other ones ("What phone am I using?" of "four months in with the iPhone"), and
  // in a store of a few messages one that no unit holds by chance flagged the question as never answered.
  "use", "using", "used", "uses", "like", "want", "need", "keep", "take", "taking", "took", "feel", "try", "trying",
  "become", "becoming", "became", "going", "happen", "happens", "happened",
]);

export interface EvidenceFeatures {
  /** The need's content words (display form), each once. */
  keyWords: string[];
  /** Key words that no unit of the content pool holds. */
  missing: string[];
  /** The largest share of key words one candidate holds (the best-covering unit). */
  bestShare: number;
  /** The frame names people, and none of them says of themselves, in a candidate, as much of the need as the best candidate holds. */
  personUnmet: boolean;
  /**
   * Names the query writes ("Shinjuku", "iPad", "Italian") that no candidate holds, or that whom it asks about never
   * says of themselves: "my apartment in Shinjuku" is not met by the assistant's mention of Shinjuku, nor "What
   * instrument is John learning?" by John asking Tim about his.
   */
  unsaidNames: string[];
  /** Whom the query asks about ("the user", "John"), when the frame says. */
  subject: string | null;
  /**
   * The time the query asks about, surely grounded, when no unit of the content pool is from it or about it in any
   * way (session, event time, a time it mentions), nor within a year of it: "What did I do in March 2019?" of a
   * store that begins in 2023.
   */
  unmetTime: string | null;
  /**
   * Quantities the query presupposes, a number with its unit ("my 30-gallon tank", "my 5k time", "the 10-day
   * trip"), that no unit of the pool states, in digits or in words: the names of numbers, as unsaidNames are of
   * things. A store that holds "my 20-gallon tank" holds no answer about the 30-gallon one.
   */
  quantitiesUnsaid: string[];
  /** The best-covering candidate, for `why`. */
  closest: MemoryUnit | null;
}

/**
 * How far from the asked time a candidate's times may lie and still count as near it: a year. Closer, the time may
 * be one anchoring left unread (a plan for "next month", "last summer"): on LoCoMo, questions dated a month or a
 * season past the sessions are answerable (docs/experiments.md › A time the store holds nothing of).
 */
const TIME_MARGIN_MS = 365 * 86_400_000;

/** Units of the content pool, best first; the judgment reads the first POOL_DEPTH. */
export const POOL_DEPTH = 100;
/** How many of the best content candidates may be the one that covers the need. */
const COVER_DEPTH = 10;

/**
 * A unit's stems, kept while the unit object lives: one recall reads them for its judgment and for its hits'
 * scores (to-hits.ts), and they were a fifth of a LongMemEval recall. Checked against the text they were read
 * from, so a unit changed in place is read again.
 */
const stemsOfUnit = new WeakMap<MemoryUnit, { text: string; stems: Set<string> }>();

// The content, and the attributes of the states anchoring read from it ("I work as a nurse" states the job): not
// the cue, which carries its episode's words and would cover the need for every turn of it.
// A compound counts by its parts here as in the query ("self-portrait" holds "portrait").
function unitStems(unit: MemoryUnit): Set<string> {
  const text = withSlots(unit, unit.content);
  const known = stemsOfUnit.get(unit);
  if (known?.text === text) return known.stems;
  const stems = stemmedTermsWithParts(text);
  stemsOfUnit.set(unit, { text, stems });
  return stems;
}

/** A unit's words and the attributes of its states. */
function withSlots(unit: MemoryUnit, words: string): string {
  const slots = (unit.context.states ?? []).map((s) => s.slot).join(" ");
  return slots ? `${words} ${slots}` : words;
}

/**
 * What a unit's speaker says of themselves: its sentences less the questions and the ones said to the other
 * ("What instrument are you playing?", "Impressive you're learning German"), unless they speak in the first person
 * too ("Can you find a café near my flat in Shinjuku?").
 */
function selfStatementStems(unit: MemoryUnit, speaker: string | null): Set<string> {
  const own = speaker ? new RegExp(`\\b(i|i'm|i've|my|me|we|our|${escapeRegExp(speaker)})\\b`, "i") : /\b(i|i'm|i've|my|me|we|our)\b/i;
  const sentences = unit.content.match(/[^.!?]+[.!?]*/g) ?? [unit.content];
  const kept = sentences.filter((t) => own.test(t.replace(/^\s*[\p{L} ]+:\s/u, "")) || (!t.trimEnd().endsWith("?") && !/\byou(r|'re|'ve)?\b/i.test(t)));
  return stemmedTermsWithParts(withSlots(unit, kept.join(" ")));
}

/** Whose turn the unit is: its source's speaker, else the name its restated content opens with ("Melanie ran…", "Melanie: …"). */
function isSpokenBy(unit: MemoryUnit, name: string): boolean {
  const speaker = unit.source?.[0]?.speaker;
  return speaker ? speaker.toLowerCase().includes(name) : unit.content.toLowerCase().startsWith(name);
}

/** A key word of the need: the word, its stem, and the stems of its other forms when it is an irregular verb ("ran" for "run"). */
export interface KeyWord {
  word: string;
  stem: string;
  forms?: readonly string[];
}

/** Whether a unit's stems hold the key word, in any of its forms. */
function holds(stems: ReadonlySet<string>, k: KeyWord): boolean {
  return stems.has(k.stem) || (k.forms?.some((f) => stems.has(f)) ?? false);
}

/** The need's key words with their stems: content words, less the asking words, the kind "how" asks for, numbers and the named people. */
export function queryKeyWords(query: string, frame: RecallFrame | null): KeyWord[] {
  const people = frame && isReliable(frame.participants) ? frame.participants!.names : [];
  const peopleStems = new Set(people.flatMap((n) => [...stemmedTerms(n)]));
  // The word after "how" names the kind of answer ("how fast", "how far", "how expensive"), not its content.
  const askedKind = new Set([...query.toLowerCase().matchAll(/\bhow\s+([a-z]+)/g)].map((m) => m[1]!));
  // A compound counts by its parts ("bike-related" by "bike", "30-gallon" by "gallon"), less the stop words among
  // them: no memory need hold the "to" of "gin-to-vermouth".
  const words = [...new Set(lexicalTerms(frame?.need || query).flatMap((w) => w.split("-")))].filter(
    (w) => w && !STOPWORDS.has(w) && !ASKING_WORDS.has(w) && !askedKind.has(w) && !/^\d+(st|nd|rd|th)?$/.test(w),
  );
  const stemOf = (w: string) => [...stemmedTerms(w)][0] ?? w;
  return words
    .map((w): KeyWord => {
      const forms = irregularForms(w);
      return { word: w, stem: stemOf(w), ...(forms ? { forms: forms.map(stemOf) } : {}) };
    })
    .filter((k) => !peopleStems.has(k.stem));
}

/** The key words the query writes with a capital (not where a sentence opens, not "I", not a month or a weekday): names of places, things, brands. */
function namesOf(query: string, keyed: ReadonlyArray<{ word: string }>): string[] {
  const written = new Set<string>();
  for (const m of query.matchAll(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu)) {
    const start = m.index ?? 0;
    if (!/\p{Lu}/u.test(m[0]) || PRONOUN_I.test(m[0]) || opensSentence(query, start)) continue;
    for (const part of m[0].toLowerCase().replace(/['’]s?$/, "").split("-")) written.add(part);
  }
  return keyed.filter((k) => written.has(k.word) && !TIME_WORDS.has(k.word)).map((k) => k.word);
}

/** Units a quantity is counted in ("30-gallon", "5k", "10 days"): what makes a number a thing's name rather than a count asked for. */
const QUANTITY_UNIT = "k|km|gallon|litre|liter|day|week|month|year|hour|minute|mile|pound|kg|lb|inch|foot|feet|piece|page|room|bed|seat|star|gb|tb";
/** A number's word ("30" → "thirty"), from the words the state rules read numbers by. */
const WORD_OF_NUMBER = new Map(Object.entries(NUMBER_WORD_VALUES).map(([word, value]) => [String(value), word]));

/** The quantities a query writes, each with a test for a unit that states it (the number in digits or words, then the unit). */
function quantitiesOf(query: string): Array<{ text: string; said: RegExp }> {
  return [...query.matchAll(new RegExp(`\\b(\\d[\\d,.]*)(?:-|\\s?)(${QUANTITY_UNIT})s?\\b`, "gi"))].map((m) => {
    const n = m[1]!.replace(/,/g, "");
    const unit = m[2]!.toLowerCase();
    const word = WORD_OF_NUMBER.get(String(Number(n)));
    const number = word ? `(?:${escapeRegExp(n)}|${word})` : escapeRegExp(n);
    // "$5k" is also said as "$5,000" (the caller drops thousands separators).
    const thousands = unit === "k" && Number.isFinite(Number(n)) ? `|(?:^|[^\\d.])${Number(n) * 1000}(?![\\d])` : "";
    return { text: m[0], said: new RegExp(`(?:^|[^\\d.])${number}(?:-|\\s?)${unit}${thousands}`, "i") };
  });
}

/** The share of the key words a unit holds (1 when the query has none). */
export function keyWordShare(keyed: readonly KeyWord[], unit: MemoryUnit): number {
  return shareHeld(keyed, unitStems(unit));
}

function shareHeld(keyed: readonly KeyWord[], stems: ReadonlySet<string>): number {
  return keyed.length ? keyed.filter((k) => holds(stems, k)).length / keyed.length : 1;
}

interface AskedSubject {
  name: string;
  /** Whether the unit is the subject's turn. */
  spoke: (unit: MemoryUnit) => boolean;
  /** The assistant speaks to the user, not of itself ("You could try Shinjuku Gyoen"): every word of its turns counts. */
  everyWord: boolean;
}

/** The people the frame names. */
function namedPeople(frame: RecallFrame | null): AskedSubject | null {
  const names = frame && isReliable(frame.participants) ? frame.participants!.names : [];
  if (!names.length) return null;
  const lower = names.map((p) => p.toLowerCase());
  return { name: names.join(" or "), spoke: (u) => lower.some((p) => isSpokenBy(u, p)), everyWord: false };
}

/** Whom the query asks about: in a chat with an assistant, the role the frame reads from it ("my …": the user); else the people it names. */
function askedSubject(frame: RecallFrame | null): AskedSubject | null {
  const role = frame?.role && isReliable(frame.role) ? frame.role.role : null;
  if (!role) return namedPeople(frame);
  return { name: `the ${role}`, spoke: (u) => u.context.role === role, everyWord: role === "assistant" };
}

/** `keyed`: the query's key words, when the caller has them already (the recall's scores read them too). */
export function evidenceFeatures(query: string, frame: RecallFrame | null, pool: readonly MemoryUnit[], keyed = queryKeyWords(query, frame)): EvidenceFeatures {
  const depth = pool.slice(0, POOL_DEPTH);
  // "Where do I work?" asks for the job slot: a unit that states a job holds what the question's slot words ask
  // ("I just started as a data analyst at Monzo"), though it says no "work".
  const slot = frame?.stateSlot ?? null;
  const slotWords = slot ? stemmedTerms(slot.evidence) : null;
  const statesSlot = (u: MemoryUnit) => slot !== null && (u.context.states ?? []).some((s) => !s.ends && slot.slots.some((asked) => slotAnswers(asked, s.slot)));
  const withSlotWords = (u: MemoryUnit, stems: ReadonlySet<string>) => (slotWords && statesSlot(u) ? new Set([...stems, ...slotWords]) : stems);
  const stemsOf = depth.map((u) => withSlotWords(u, unitStems(u)));
  const missing = keyed.filter((k) => !stemsOf.some((s) => holds(s, k))).map((k) => k.word);
  let bestShare = 0;
  let closest: MemoryUnit | null = null;
  for (const [i, stems] of stemsOf.slice(0, COVER_DEPTH).entries()) {
    const share = shareHeld(keyed, stems);
    if (share > bestShare) [bestShare, closest] = [share, pool[i]!];
  }
  // What each unit's speaker says of themselves, read once per unit and only where a test asks.
  const own = memoize((i: number) => withSlotWords(depth[i]!, selfStatementStems(depth[i]!, depth[i]!.source?.[0]?.speaker?.toLowerCase() ?? null)));
  // A named person must say of themselves as much of the need as anyone says of themselves in the best candidates:
  // "What instrument is John learning?" is not met by John asking Tim "What instrument are you playing?", and
  // "…is Tim learning?" is met by Tim's "I'm learning to play the violin" although John's question holds more words.
  const people = namedPeople(frame);
  const best = depth.slice(0, COVER_DEPTH);
  const said = people ? best.map((_, i) => shareHeld(keyed, own(i))) : [];
  const bar = Math.max(0, ...said);
  const personUnmet = people !== null && !best.some((u, i) => bar > 0 && said[i]! >= bar && people.spoke(u));
  const subject = askedSubject(frame);
  const subjectSays = (i: number) => (!subject?.spoke(depth[i]!) ? null : subject.everyWord ? stemsOf[i]! : own(i));
  const unsaidNames = namesOf(query, keyed).filter((n) => {
    if (missing.includes(n)) return true;
    if (!subject) return false;
    const stem = keyed.find((k) => k.word === n)!.stem;
    return !depth.some((_, i) => subjectSays(i)?.has(stem));
  });
  const time = frame?.time ?? null;
  const surelyGrounded = time !== null && (time.outsideHistory === true || isReliable(time));
  const unmetTime = surelyGrounded && !depth.some((u) => nearTime(u.context, time, TIME_MARGIN_MS)) ? `${time.relation} ${describeInterval(time.window)}` : null;
  const quantitiesUnsaid = quantitiesOf(query)
    .filter((q) => !depth.some((u) => q.said.test(u.content.replace(/(\d),(\d)/g, "$1$2"))))
    .map((q) => q.text);
  return { keyWords: keyed.map((k) => k.word), missing, bestShare, personUnmet, unsaidNames, subject: subject?.name ?? null, unmetTime, quantitiesUnsaid, closest: closest ?? pool[0] ?? null };
}

/**
 * Fitted by research/calibrate-evidence.ts --fit (LoCoMo conversations 1–5 and half of LongMemEval dev + abs15;
 * docs/experiments.md), except timeUnmet and quantityUnsaid: set (they fire on no and one dev question; a fit of
 * so few says nothing), quantityUnsaid as nameUnsaid, the name it is the numeric kin of.
 */
export const EVIDENCE_WEIGHTS = { bias: 1.07, missingShare: -3.1, bestShare: 0.13, personUnmet: -3.19, nameUnsaid: -3.45, timeUnmet: -4, quantityUnsaid: -3.45 } as const;
export type EvidenceWeights = { [K in keyof typeof EVIDENCE_WEIGHTS]: number };

/** The model's inputs, one per weight. */
export function evidenceFeatureVector(f: EvidenceFeatures): Record<keyof EvidenceWeights, number> {
  return {
    bias: 1,
    missingShare: f.keyWords.length ? f.missing.length / f.keyWords.length : 0,
    bestShare: f.bestShare,
    personUnmet: f.personUnmet ? 1 : 0,
    nameUnsaid: f.unsaidNames.length ? 1 : 0,
    timeUnmet: f.unmetTime ? 1 : 0,
    quantityUnsaid: f.quantitiesUnsaid.length ? 1 : 0,
  };
}

/** P(the store holds evidence), from the features. */
export function evidenceProbability(f: EvidenceFeatures, w: EvidenceWeights = EVIDENCE_WEIGHTS): number {
  const x = evidenceFeatureVector(f);
  let z = 0;
  for (const k of Object.keys(x) as (keyof EvidenceWeights)[]) z += w[k] * x[k];
  return 1 / (1 + Math.exp(-z));
}

function quote(unit: MemoryUnit): string {
  return `closest: "${truncate(unit.content, 80)}" (${(unit.context.saidAt ?? unit.context.session.start).slice(0, 10)})`;
}

/** The judgment a recall returns beside its hits. */
export function judgeEvidence(query: string, frame: RecallFrame | null, pool: readonly MemoryUnit[], keyed = queryKeyWords(query, frame)): EvidenceJudgment {
  if (!pool.length) return { likely: false, confidence: 1, why: "the namespace holds no memory that matches the query" };
  const f = evidenceFeatures(query, frame, pool, keyed);
  const p = evidenceProbability(f);
  const likely = p >= 0.5;
  const confidence = Math.round((likely ? p : 1 - p) * 1000) / 1000;
  const closest = f.closest ? `; ${quote(f.closest)}` : "";
  const people = frame?.participants?.names.join(" or ") ?? "";
  let why: string;
  // The time first: a word of the need missing as well is then likely one of that time's.
  if (f.unmetTime) why = `no stored memory is from or about the time asked (${f.unmetTime})${closest}`;
  else if (f.missing.length) why = `no stored memory mentions ${f.missing.map((m) => `"${m}"`).join(", ")}${closest}`;
  else if (f.unsaidNames.length && f.subject) why = `${f.subject} never mentions ${f.unsaidNames.map((m) => `"${m}"`).join(", ")}${closest}`;
  else if (f.quantitiesUnsaid.length) why = `no stored memory states ${f.quantitiesUnsaid.map((q) => `"${q}"`).join(", ")}${closest}`;
  else if (f.personUnmet) why = `the memories that match are not ${people}'s${closest}`;
  else why = `${Math.round(f.bestShare * 100)}% of the query's key words in one memory${closest}`;
  return { likely, confidence, why };
}

/** The judgment as the server faces show it: `why` quotes a stored memory for a reader (a model, often), so it is escaped like a frame's notes. */
export function escapedJudgment(judgment: EvidenceJudgment): EvidenceJudgment {
  return { ...judgment, why: escapeStoredText(judgment.why) };
}
