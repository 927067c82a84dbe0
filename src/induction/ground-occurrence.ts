import type { MemoryUnit } from "../model/memory-unit.js";
import type { OccurrenceCondition } from "../model/recall-frame.js";
import { stemmedTerms } from "../retrieval/stemmed-terms.js";
import type { OccurrenceCue } from "./occurrence-cue.js";
// Words, not an event time after the session: the time rules read "in ten days" (a duration) as a date ahead as readily as "in May" (a plan).
import { tellsOfPlan } from "../language/plan-cue.js";
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

export interface OccurrenceGrounding {
  condition: OccurrenceCondition;
  notes: string[];
}

export function groundOccurrence(cue: OccurrenceCue, mentions: readonly MemoryUnit[], knownPeople: readonly string[]): OccurrenceGrounding {
  const keyTerms = stemmedTerms(cue.event);
  for (const person of knownPeople) for (const t of stemmedTerms(person)) keyTerms.delete(t);
  const told = new Map<string, { time: string }>();
  // "my second open-water race": a memory that says which occurrence it tells of settles it, however the others are worded.
  let stated: MemoryUnit | undefined;
  for (const unit of mentions.slice(0, MENTION_DEPTH)) {
    const text = spokenText(unit);
    if (![...stemmedTerms(text)].some((t) => keyTerms.has(t)) || tellsOfPlan(text)) continue;
    const episode = unit.context.session.sessionId;
    const time = happenedAt(unit);
    const seen = told.get(episode);
    if (!seen || time < seen.time) told.set(episode, { time });
    if (!stated && cue.ordinal > 0 && statedOrdinal(text, keyTerms) === cue.ordinal) stated = unit;
  }
  const occurrences = [...told.entries()].map(([episodeId, { time }]) => ({ episodeId, time })).sort((a, b) => a.time.localeCompare(b.time) || a.episodeId.localeCompare(b.episodeId));
  const index = cue.ordinal > 0 ? cue.ordinal - 1 : occurrences.length + cue.ordinal;
  const counted = occurrences.length >= 2 && index >= 0 && index < occurrences.length ? occurrences[index]! : null;
  // A stated memory passed the filter above, so its episode is among the occurrences.
  const chosen = stated ? occurrences.find((o) => o.episodeId === stated.context.session.sessionId)! : counted;
  const position = cue.ordinal > 0 ? `#${cue.ordinal}` : cue.ordinal === -1 ? "the last" : `#${cue.ordinal} from the end`;
  const notes: string[] = [];
  if (!chosen) notes.push(`'${cue.evidence}': ${occurrences.length} occurrence(s) of '${cue.event}' found, too few to pick ${position}`);
  return {
    condition: {
      ordinal: cue.ordinal,
      event: cue.event,
      occurrences,
      episodeId: chosen?.episodeId ?? null,
      evidence: cue.evidence,
      confidence: chosen ? OCCURRENCE_CONFIDENCE : 0.4,
      note: stated
        ? `'${cue.event}' ${position}: the memory ${stated.id} says so itself (${chosen!.episodeId}, ${chosen!.time.slice(0, 10)})`
        : chosen
        ? `${position} of ${occurrences.length} episodes that tell of '${cue.event}' (plans left out): ${chosen.episodeId} (${chosen.time.slice(0, 10)})`
        : `${occurrences.length} episode(s) tell of '${cue.event}'`,
    },
    notes,
  };
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



/** When the told event happened: its event time when it lies before the telling, else the session's. */
function happenedAt(unit: MemoryUnit): string {
  const event = unit.context.eventTime;
  const session = unit.context.session.start;
  return event && event.start <= session ? event.start : session;
}
