import type { MemoryUnit } from "../model/memory-unit.js";
import type { OccurrenceCondition } from "../model/recall-frame.js";
import { stemmedTerms } from "../language/stemmed-terms.js";
import { irregularForms } from "../language/irregular-verbs.js";
import { sentencesOf } from "../language/text.js";
import type { OccurrenceCue } from "./occurrence-cue.js";
// Words first, not an event time after the session alone: the time rules read "in ten days" (a duration) as a date
// ahead as readily as "in May" (a plan). A time ahead counts only beside a present tense that names it ("I'm presenting in June").
import { tellsOfPlan, timeCueIn } from "../language/plan-cue.js";
import { spokenText } from "../model/spoken-text.js";

/**
 * Grounds an ordinal cue ("her second trip to Japan") against the history:
 * the episodes that tell of the event, oldest first, and the one the ordinal
 * picks. An episode is an occurrence when one of the best memories of the
 * event phrase lies in it and tells of it as something that happened — a
 * plan ("I'm going to Tokyo in May", "I booked a trip to Kyoto") is no
 * occurrence: the trip it announces is told later, in its own episode.
 * An episode counts only when a memory that names the event (one of its
 * words) tells of it: a near paraphrase the dense channel finds is as often a
 * reply to the plan ("Brave! Watch out for sharks."). Episodes are sessions
 * (a conversation tells of one outing per session far more often than of two).
 */
export const OCCURRENCE_CONFIDENCE = 0.8;

/** How many of the event phrase's best memories may mark an episode as an occurrence. */
export const MENTION_DEPTH = 10;

/**
 * How many of the event phrase's best memories may count, by the person the
 * question is about, without naming the event: the conversation tells of a
 * race as "the half marathon" or "the Leipzig 10k", of a grandmother as
 * "abuela". Only the subject's own turns: the other speaker's near
 * paraphrases are mostly replies to plans ("Brave! Watch out for sharks.").
 */
export const PARAPHRASE_DEPTH = 5;

/** An event called off or put off: told, but it did not happen (then). */
const CALLED_OFF = /\b(?:cancel(?:l)?ed|call(?:ed)? off|postponed|put off|fell through|scrapped|(?:push|pushed|pushing) (?:it|the date|the dates) back|never happened|didn['’]t happen)\b/i;

/** A past tense: what a turn asks or tells of has happened. */
const PAST = /\b(?:was|were|did|had|went|came|saw|got|made|took|ran|swam|met|\w{2,}ed)\b/i;

export interface OccurrenceGrounding {
  condition: OccurrenceCondition;
  notes: string[];
}

export interface OccurrenceEvidence {
  /** The people the question is about ("Lukas's second race"): their turns may tell of the event in other words. */
  subjects?: readonly string[];
  /** For a cue counted from another occurrence ("after the half marathon"): the best memories of that phrase. */
  anchorMentions?: readonly MemoryUnit[];
  /**
   * Plan id → the later turn that tells of it as done (plan-outcome.ts): "I signed up for my first
   * trail race, a 20k in the Vosges" is told as "I survived the Vosges!", which names no race.
   */
  reportsOfPlans?: ReadonlyMap<string, MemoryUnit>;
}

export function groundOccurrence(cue: OccurrenceCue, mentions: readonly MemoryUnit[], knownPeople: readonly string[], evidence: OccurrenceEvidence = {}): OccurrenceGrounding {
  const keyTerms = eventTerms(cue.event, knownPeople);
  const bySubject = (unit: MemoryUnit) => (evidence.subjects ?? []).some((s) => sameFirstName(unit.context.participants[0], s));
  const told = new Map<string, { time: string }>();
  const plans = new Map<string, { time: string }>();
  // "my second open-water race": a memory that says which occurrence it tells of settles it, however the others are worded.
  let stated: MemoryUnit | undefined;
  // An assistant's turn is advice about an event, never an occurrence of it.
  const read = mentions.slice(0, MENTION_DEPTH).filter((unit) => unit.context.role !== "assistant").map((unit) => {
    const text = spokenText(unit);
    const naming = sentencesOf(text).filter((sentence) => namesEvent(sentence, keyTerms));
    // A report that ends on a wish ("We survived our first camping trip! The kids want to go again.")
    // tells of the event as done: a sentence that names it in the past, with no plan word, outweighs
    // the rest. One without a tense of its own ("My first time in Japan!") follows the whole turn.
    // One that was called off ("it's all cancelled", "they keep pushing the date back") did not happen.
    const toldDone = naming.some((sentence) => PAST.test(sentence) && !tellsOfPlan(sentence) && !CALLED_OFF.test(sentence));
    // "I'm presenting a poster in Manchester in June", said in April: the present tense names a time ahead.
    const ahead = naming.some((sentence) => timeCueIn(sentence) === "future") && isAhead(unit);
    return { unit, text, names: naming.length > 0, plan: !toldDone && (tellsOfPlan(text) || CALLED_OFF.test(text) || ahead) };
  });
  // Where the event is announced as a plan, the turns around it are about the plan — the
  // other speaker's reply ("A trail race! Are you training?"), the subject's own words that
  // do not name it ("Every weekend in the forest") — unless the session also tells it as done:
  // the subject naming it, or anyone asking or telling of it in the past ("What happened on
  // your second trip?").
  const hasSubjects = (evidence.subjects ?? []).length > 0;
  const planned = new Set(read.filter((m) => m.names && m.plan).map((m) => m.unit.context.session.sessionId));
  const toldAsDone = (m: (typeof read)[number]) => m.names && !m.plan && (!hasSubjects || bySubject(m.unit) || PAST.test(m.text));
  const toldThere = new Set(read.filter(toldAsDone).map((m) => m.unit.context.session.sessionId));
  for (const [rank, m] of read.entries()) {
    const { unit, text, names, plan } = m;
    const episode = unit.context.session.sessionId;
    const besidePlan = planned.has(episode) && !toldThere.has(episode);
    const paraphrase = !names && rank < PARAPHRASE_DEPTH && bySubject(unit) && !besidePlan;
    if (!names && !paraphrase) continue;
    if (besidePlan && !plan && !toldAsDone(m)) continue;
    if (plan) {
      if (names) keepEarliest(plans, episode, planTime(unit));
      // A plan of the event told as done later is an occurrence, in the episode of its report;
      // the ordinal the plan gives ("my first trail race") is the report's.
      const report = evidence.reportsOfPlans?.get(unit.id);
      if (report) {
        keepEarliest(told, report.context.session.sessionId, happenedAt(report));
        if (!stated && cue.position === "ordinal" && cue.ordinal > 0 && statedOrdinal(text, keyTerms) === cue.ordinal) stated = report;
      }
      continue;
    }
    keepEarliest(told, episode, happenedAt(unit));
    if (!stated && cue.position === "ordinal" && cue.ordinal > 0 && statedOrdinal(text, keyTerms) === cue.ordinal) stated = unit;
  }
  // "the race after the half marathon": the question itself says the anchor is an occurrence.
  const anchor = cue.anchor ? anchorOccurrence(cue.anchor, evidence.anchorMentions ?? [], keyTerms, knownPeople) : null;
  if (anchor) keepEarliest(told, anchor.episodeId, anchor.time);
  const occurrences: OccurrenceCondition["occurrences"] = [...told.entries()].map(([episodeId, { time }]) => ({ episodeId, time })).sort(byTime);
  const notes: string[] = [];
  let chosen: { episodeId: string; time: string } | null = null;
  let position = "";
  switch (cue.position) {
    case "ordinal": {
      const index = cue.ordinal > 0 ? cue.ordinal - 1 : occurrences.length + cue.ordinal;
      // A stated memory passed the filter above, so its episode is among the occurrences.
      chosen = stated ? occurrences.find((o) => o.episodeId === stated.context.session.sessionId)! : occurrences.length >= 2 && index >= 0 && index < occurrences.length ? occurrences[index]! : null;
      position = cue.ordinal > 0 ? `#${cue.ordinal}` : cue.ordinal === -1 ? "the last" : `#${cue.ordinal} from the end`;
      if (!chosen) notes.push(`'${cue.evidence}': ${occurrences.length} occurrence(s) of '${cue.event}' found, too few to pick ${position}`);
      break;
    }
    case "after":
    case "before": {
      const index = anchor ? occurrences.findIndex((o) => o.episodeId === anchor.episodeId) + cue.ordinal : -1;
      chosen = anchor && index >= 0 && index < occurrences.length ? occurrences[index]! : null;
      position = `the one ${cue.position} '${cue.anchor}'`;
      if (!anchor) notes.push(`'${cue.evidence}': no memory tells of '${cue.anchor}' as something that happened`);
      else if (!chosen) notes.push(`'${cue.evidence}': no occurrence of '${cue.event}' ${cue.position} ${anchor.episodeId} found`);
      break;
    }
    case "repeat": {
      // "again" with three or more occurrences does not say which repeat.
      chosen = occurrences.length === 2 ? occurrences[1]! : null;
      position = "the repeat";
      if (!chosen) notes.push(`'${cue.evidence}': ${occurrences.length} occurrence(s) of '${cue.event}' found; 'again' picks one only when there are two`);
      break;
    }
    case "upcoming": {
      // The latest plan, when nothing told as done comes after it (else it was likely that one).
      const latestPlan = [...plans.entries()].map(([episodeId, { time }]) => ({ episodeId, time, planned: true as const })).sort(byTime).at(-1);
      const doneSince = latestPlan ? occurrences.some((o) => o.time > latestPlan.time) : false;
      chosen = latestPlan && !doneSince ? latestPlan : null;
      if (chosen) occurrences.push(latestPlan!);
      position = "the next";
      if (!latestPlan) notes.push(`'${cue.evidence}': no plan of '${cue.event}' found`);
      else if (!chosen) notes.push(`'${cue.evidence}': the latest plan of '${cue.event}' (${latestPlan.episodeId}) is told as done later`);
      break;
    }
  }
  return {
    condition: {
      // A relative cue's place, once grounded, is a count from the first.
      ordinal: cue.position === "ordinal" || !chosen ? cue.ordinal : occurrences.findIndex((o) => o.episodeId === chosen!.episodeId) + 1,
      event: cue.event,
      ...(cue.position !== "ordinal" ? { position: cue.position } : {}),
      ...(cue.anchor ? { anchor: cue.anchor } : {}),
      occurrences,
      episodeId: chosen?.episodeId ?? null,
      evidence: cue.evidence,
      confidence: chosen ? OCCURRENCE_CONFIDENCE : 0.4,
      note: stated
        ? `'${cue.event}' ${position}: the memory ${stated.id} says so itself (${chosen!.episodeId}, ${chosen!.time.slice(0, 10)})`
        : chosen
        ? `${position} of ${occurrences.length} episodes that tell of '${cue.event}' (${cue.position === "upcoming" ? "a plan not yet told as done" : "plans left out"}): ${chosen.episodeId} (${chosen.time.slice(0, 10)})`
        : `${occurrences.length} episode(s) tell of '${cue.event}'`,
    },
    notes,
  };
}

/**
 * The event phrase's own words: the people in it name nobody's event. A verb
 * holds in its other forms: "the second time we won the quiz" is told as "second win".
 */
function eventTerms(phrase: string, knownPeople: readonly string[]): Set<string> {
  const terms = stemmedTerms(phrase);
  for (const person of knownPeople) for (const t of stemmedTerms(person)) terms.delete(t);
  for (const word of phrase.split(/\s+/)) {
    if (!terms.has([...stemmedTerms(word)][0] ?? "")) continue;
    for (const form of irregularForms(word) ?? []) for (const t of stemmedTerms(form)) terms.add(t);
  }
  return terms;
}

/** Whether a sentence names the event by one of its key words. */
function namesEvent(sentence: string, keyTerms: ReadonlySet<string>): boolean {
  return [...stemmedTerms(sentence)].some((t) => keyTerms.has(t));
}

/**
 * The occurrence a relative cue counts from: the episode of the best memory
 * of the anchor phrase that names it by a word the event phrase does not
 * hold ("the half marathon" for "the race after the half marathon"; "Jeju"
 * for "the trip after the Jeju one") and tells of it as done.
 */
function anchorOccurrence(anchor: string, mentions: readonly MemoryUnit[], keyTerms: ReadonlySet<string>, knownPeople: readonly string[]): { episodeId: string; time: string } | null {
  const own = eventTerms(anchor.replace(/\bone$/i, ""), knownPeople);
  for (const t of keyTerms) own.delete(t);
  if (own.size === 0) return null;
  for (const unit of mentions.slice(0, MENTION_DEPTH)) {
    const text = spokenText(unit);
    if ([...stemmedTerms(text)].some((t) => own.has(t)) && !tellsOfPlan(text)) return { episodeId: unit.context.session.sessionId, time: happenedAt(unit) };
  }
  return null;
}

function keepEarliest(map: Map<string, { time: string }>, episode: string, time: string): void {
  const seen = map.get(episode);
  if (!seen || time < seen.time) map.set(episode, { time });
}

function byTime(a: { episodeId: string; time: string }, b: { episodeId: string; time: string }): number {
  return a.time.localeCompare(b.time) || a.episodeId.localeCompare(b.episodeId);
}

function sameFirstName(a: string | undefined, b: string): boolean {
  if (!a) return false;
  const first = (s: string) => s.trim().split(/\s+/)[0]!.toLowerCase();
  return first(a) === first(b);
}

const STATED = /\b(first|second|third|fourth|fifth)\s+(?:ever\s+)?([\p{L}\p{N}-]+)(?:\s+([\p{L}\p{N}-]+))?/giu;
const STATED_VALUE: Record<string, number> = { first: 1, second: 2, third: 3, fourth: 4, fifth: 5 };

/** The ordinal a text gives the event itself ("my first ever race"), when one of the next two words is the event's. */
function statedOrdinal(text: string, keyTerms: ReadonlySet<string>): number | null {
  for (const m of text.matchAll(STATED)) {
    const next = [m[2], m[3]].filter((w): w is string => w !== undefined).flatMap((w) => [...stemmedTerms(w)]);
    if (next.some((t) => keyTerms.has(t))) return STATED_VALUE[m[1]!.toLowerCase()]!;
  }
  return null;
}

/** Whether the unit's event lies after it was said. */
function isAhead(unit: MemoryUnit): boolean {
  const event = unit.context.eventTime?.start;
  return event !== undefined && event > (unit.context.saidAt ?? unit.context.session.start);
}

/** When a planned event is to happen: its event time when it lies ahead of the telling, else the session's. */
function planTime(unit: MemoryUnit): string {
  const event = unit.context.eventTime;
  const session = unit.context.session.start;
  return event && event.start > session ? event.start : session;
}

/** When the told event happened: its event time when it lies before the telling, else the session's. */
function happenedAt(unit: MemoryUnit): string {
  const event = unit.context.eventTime;
  const session = unit.context.session.start;
  return event && event.start <= session ? event.start : session;
}
