/**
 * Recall condition induction (RaMem stage 2): splits a query into its
 * information need and the recall frame valid evidence must satisfy. Rules and
 * thresholds are in README.md beside this file. No model calls: it runs once
 * per benchmark question and must stay in the low milliseconds.
 */
import { ACTIVATION_CONFIDENCE, isFrameActive, isReliable, type NamesCondition, type RecallFrame, type TimeCondition } from "../model/recall-frame.js";
import { describeInterval, type TimeInterval } from "../model/time.js";
import { induceDateCondition } from "./date-condition.js";
import { findEventAnchor } from "./event-anchor.js";
import { findAggregateCue } from "./aggregate-cue.js";
import { countedNoun } from "./counted-noun.js";
import { induceRoleCondition } from "./role-condition.js";
import { findCurrentStateCue } from "./current-state-cue.js";
import { findStateSubject } from "./state-subject.js";
import { findStateSlot } from "./state-slot-cue.js";
import { findOccurrenceCue } from "./occurrence-cue.js";
import { groundOccurrence, MENTION_DEPTH } from "./ground-occurrence.js";
import type { MemoryUnit } from "../model/memory-unit.js";
import { matchParticipants } from "./participants.js";
import { findProperNouns } from "./proper-nouns.js";
import { checkArgs, checkFields } from "../model/check-args.js";

export interface InductionContext {
  /** Earliest session start / latest session end of the namespace (ISO). */
  history: { start: string; end: string } | null;
  /** When the question was asked (ISO), if known. */
  questionDate?: string;
  /** The instant whose state the caller asks for (recall's validAt): a question about a state reads its slot then too. */
  validAt?: string;
  /** Names the store knows as speakers/participants in this namespace (e.g. ["Caroline", "Melanie"]). */
  knownPeople: string[];
  /** Roles that occur in the namespace's turns ("user", "assistant"); none between people. */
  knownRoles?: string[];
  /** Optional: finds the memory of an anchor event ("the adoption meeting") and its time; used for before/after <event>. */
  locateEvent?: (phrase: string) => Promise<{ unitId: string; time: TimeInterval } | null>;
  /** Optional: the memories that best match an event phrase ("trip to Japan"), best first; grounds an ordinal ("her second trip"). */
  findMentions?: (phrase: string) => Promise<MemoryUnit[]>;
  /** Optional: plan id → the later turn that tells of the plan as done; a reported plan counts as an occurrence. */
  findPlanReports?: (plans: readonly MemoryUnit[]) => Promise<Map<string, MemoryUnit>>;
}

export const PARTICIPANT_CONFIDENCE = 0.9;
/** A short form ("Mel") is a guess from spelling alone. */
export const NICKNAME_CONFIDENCE = 0.75;
export const LOCATION_CONFIDENCE = 0.75;
/**
 * Below ACTIVATION_CONFIDENCE on purpose: in LoCoMo-style questions a named
 * thing ("the LGBTQ support group") is what is asked about, so it belongs to
 * content retrieval; as a context filter it would only duplicate the content
 * score. It is reported so a caller can see it, never to activate a frame.
 */
export const ENTITY_CONFIDENCE = 0.6;
export const EVENT_ANCHOR_CONFIDENCE = 0.75;
/** An occurrence grounded in a question that aggregates: reported, below activation. */
export const AGGREGATE_OCCURRENCE_CONFIDENCE = 0.5;

// Questions that ask for a time carry no time constraint by themselves. "How many days a week…" asks how often, not when.
const ASKS_TIME =
  /^\s*(when\s+(did|does|do|is|was|were|will|would|has|have|had|can|could|are|am)\b|what\s+(year|month|day|date|time|week|season)\b|which\s+(year|month|day|date|week|season)\b|how\s+long\b|how\s+many\s+(days|weeks|months|years)\b(?!\s+(?:a|an|per|each|every)\s+(?:day|week|month|year)\b)|since\s+when\b)/i;
// Questions that ask for a place: "Where did I go…?", "In which city…?", "What restaurant…?" (the answer names one).
const ASKS_PLACE =
  /^\s*(?:where\b|(?:in\s+|at\s+)?(?:what|which)\s+(?:city|country|town|village|place|state|neighbou?rhood|venue|restaurant|café|cafe|bar|shop|store|school|university|park|museum|hotel)\b)/i;
// Questions that ask for a quantity: "How much did I spend…?", "How many plants…?" ("how many days" asks for a time, above).
const ASKS_QUANTITY = /^\s*how\s+(?:much|many)\b/i;
// Which of two came first is a question about when each happened: "Which event happened first, the road trip
// or the new lens?", "Did I join before or after the move?" (its answer compares the two units that say when).
const ASKS_ORDER = /^\s*(?:which|what|who)\b[^?]*?\b(?:first|earlier|sooner|later|last)\b[^?]*\bor\b|\bbefore or after\b/i;
const PRONOUN = /\b(he|she|they|him|her|them|his|hers|their)\b/i;

function tidy(text: string): string {
  return text
    .replace(/\s+/g, " ")
    .replace(/\s+([?.!,;:])/g, "$1")
    .replace(/,([?.!])/g, "$1")
    .replace(/^[\s,;:]+/, "")
    .trim();
}

async function eventCondition(
  query: string,
  timeSpans: [number, number][],
  ctx: InductionContext,
  notes: string[],
): Promise<TimeCondition | null> {
  const cue = findEventAnchor(query, timeSpans);
  if (!cue) return null;
  const evidence = query.slice(cue.span[0], cue.span[1]);
  if (!ctx.locateEvent) {
    notes.push(`'${evidence}' names an anchor event, but no event locator was given`);
    return null;
  }
  const found = await ctx.locateEvent(cue.phrase);
  if (!found) {
    notes.push(`'${evidence}': no memory of '${cue.phrase}' was found, so no time condition`);
    return null;
  }
  const offset = cue.offset ? `; the offset '${cue.offset}' is not applied, only the side of the anchor` : "";
  return {
    relation: cue.relation,
    window: found.time,
    anchorUnitId: found.unitId,
    evidence,
    confidence: EVENT_ANCHOR_CONFIDENCE,
    note: `anchor event '${cue.phrase}' found in memory ${found.unitId} (${describeInterval(found.time)})${offset}`,
  };
}

export async function induceFrame(query: string, ctx: InductionContext): Promise<RecallFrame> {
  checkArgs("induceFrame", { query: [query, "string"] });
  checkFields("induceFrame", "ctx", ctx, "object", {
    questionDate: "string?",
    validAt: "string?",
    knownPeople: "array",
    locateEvent: "function?",
    findMentions: "function?",
    findPlanReports: "function?",
  });
  const notes: string[] = [];
  const dateInput = ctx.questionDate === undefined ? { history: ctx.history } : { history: ctx.history, questionDate: ctx.questionDate };
  const date = induceDateCondition(query, dateInput);
  notes.push(...date.notes);

  let time = date.condition;
  let cut = time && time.confidence >= ACTIVATION_CONFIDENCE ? date.span : null;
  if (!time || time.confidence < ACTIVATION_CONFIDENCE) {
    const anchored = await eventCondition(query, date.timeSpans, ctx, notes);
    if (anchored) {
      if (time) notes.push(`time cue '${time.evidence}' replaced by the anchor event '${anchored.evidence}'`);
      time = anchored;
      // The event phrase stays in the need: it is the best content cue for the neighbourhood of the anchor.
      cut = null;
    }
  }
  const asksFor = ASKS_TIME.test(query) || ASKS_ORDER.test(query) ? "time" : ASKS_PLACE.test(query) ? "place" : ASKS_QUANTITY.test(query) ? "quantity" : null;
  const aggregateCue = findAggregateCue(query);
  const counted = aggregateCue === null ? null : countedNoun(query);
  const aggregates = aggregateCue === null ? null : { evidence: aggregateCue, ...(counted ? { counts: counted } : {}) };
  if (!time && asksFor === "time") notes.push("the question asks for a time; that is no time constraint");

  const people = matchParticipants(query, ctx.knownPeople, date.timeSpans);
  let participants: NamesCondition | null = null;
  if (people.names.length > 0) {
    const ambiguous = people.ambiguous.length > 0;
    const onlyNicknames = people.nicknames.length === people.mentions.length;
    participants = {
      names: people.names,
      evidence: people.mentions.join(", "),
      confidence: ambiguous ? 0.6 : onlyNicknames ? NICKNAME_CONFIDENCE : PARTICIPANT_CONFIDENCE,
      note: ambiguous
        ? `'${people.ambiguous.join("', '")}' is the first name of several known people`
        : people.nicknames.length > 0
          ? `known participant(s) named in the query; '${people.nicknames.join("', '")}' read as a short form`
          : "known participant(s) named in the query",
    };
    if (ambiguous) notes.push(`participants below activation: '${people.ambiguous.join("', '")}' matches several known people`);
  } else if (PRONOUN.test(query)) {
    notes.push("pronouns only, no participant named: pronouns are not resolved");
  }

  const excludedNames = new Set<string>();
  for (const n of people.names) {
    excludedNames.add(n.toLowerCase());
    excludedNames.add((n.split(" ")[0] ?? n).toLowerCase());
  }
  for (const m of people.mentions) excludedNames.add(m.replace(/['’]s$/i, "").toLowerCase());
  const nouns = findProperNouns(query, [...date.timeSpans, ...people.spans], excludedNames);
  const location: NamesCondition | null =
    nouns.places.length > 0
      ? { names: nouns.places, evidence: nouns.places.join(", "), confidence: LOCATION_CONFIDENCE, note: "place named in the query" }
      : null;
  const entities: NamesCondition | null =
    nouns.others.length > 0
      ? {
          names: nouns.others,
          evidence: nouns.others.join(", "),
          confidence: ENTITY_CONFIDENCE,
          note: "named things are what the question is about (content), so they stay below activation",
        }
      : null;

  let need = query;
  if (cut) {
    const rest = tidy(query.slice(0, cut[0]) + " " + query.slice(cut[1]));
    if (/[\p{L}\p{N}]/u.test(rest)) need = rest;
  }

  const role = induceRoleCondition(query, ctx.knownRoles ?? []);
  const currentCue = findCurrentStateCue(query, time !== null && time.confidence >= ACTIVATION_CONFIDENCE);
  const currentState = currentCue === null ? null : { evidence: currentCue };
  const stateSlot = currentState || ctx.validAt || (time !== null && time.confidence >= ACTIVATION_CONFIDENCE) ? findStateSlot(query) : null;
  const stateSubject = currentState || stateSlot ? findStateSubject(query, ctx.knownPeople ?? []) : null;
  const grounded = await occurrenceCondition(query, ctx, participants, notes);
  // A question that gathers several episodes ("how many days had passed since … when …") is
  // not about one occurrence: the ordinal it holds names one of its events ("her latest novel").
  const occurrence = grounded && aggregates && isReliable(grounded) ? { ...grounded, confidence: AGGREGATE_OCCURRENCE_CONFIDENCE } : grounded;
  if (occurrence !== grounded) notes.push(`'${grounded!.evidence}': the question gathers several episodes ('${aggregates!.evidence}'), so the occurrence restricts nothing`);
  const active = isFrameActive({ time, participants, location, entities, role, occurrence });
  return { need, time, participants, location, entities, role, asksFor, aggregates, currentState, stateSlot, stateSubject, occurrence, active, notes };
}

async function occurrenceCondition(query: string, ctx: InductionContext, participants: NamesCondition | null, notes: string[]): Promise<RecallFrame["occurrence"]> {
  const cue = findOccurrenceCue(query);
  if (!cue) return null;
  if (!ctx.findMentions) {
    notes.push(`'${cue.evidence}' asks for one occurrence, but no way to find the occurrences was given`);
    return null;
  }
  const [mentions, anchorMentions] = await Promise.all([ctx.findMentions(cue.event), cue.anchor ? ctx.findMentions(cue.anchor) : Promise.resolve([])]);
  // "Lukas's second race": Lukas's own turns may tell of a race without the word.
  const subjects = participants && isReliable(participants) ? participants.names : [];
  const plans = mentions.slice(0, MENTION_DEPTH).filter((u) => u.context.planned);
  const reportsOfPlans = plans.length > 0 && ctx.findPlanReports ? await ctx.findPlanReports(plans) : new Map<string, MemoryUnit>();
  const grounded = groundOccurrence(cue, mentions, ctx.knownPeople, { subjects, anchorMentions, reportsOfPlans });
  notes.push(...grounded.notes);
  return grounded.condition;
}
