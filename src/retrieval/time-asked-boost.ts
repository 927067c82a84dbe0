import type { MemoryUnit } from "../model/memory-unit.js";
import type { RecallFrame } from "../model/recall-frame.js";
import type { ContentCandidate } from "./content-recall.js";
import { liftUnits } from "./lift-units.js";
import { NUMBER } from "../language/state-patterns.js";

/** "How long is my commute?", "How long have I been…", "How many days did I spend…": asks for a length of time. */
const ASKS_HOW_LONG = /^\s*how\s+(?:long|many\s+(?:minutes|hours|days|weeks|months|years))\b/i;
/** A length of time stated: "25 minutes", "an hour and a half", "a couple of weeks", "six months". */
const STATES_A_DURATION = new RegExp(`\\b(?:${NUMBER}|a|an|half an?)\\s+(?:and a half\\s+)?(?:minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?)\\b`, "i");

/**
 * When the query asks when (frame.asksFor "time"), each candidate that carries
 * a time (event time or a mentioned time) gains `bonus`: the answer to
 * "When did…" is a unit that says when, and "Which came first, A or B?" is
 * answered by the two units that say when each happened. "How long…" is
 * answered by a length of time too ("25 minutes on the number 4 tram"),
 * which anchoring keeps as no time: a unit that states one gains the same.
 * Scores change in place.
 */
export function boostTimedUnits(
  candidates: Iterable<ContentCandidate>,
  frame: RecallFrame | null,
  unitOf: (unitId: string) => MemoryUnit | undefined,
  bonus: number,
  reasons: (unitId: string) => string[],
): void {
  if (frame?.asksFor !== "time") return;
  const howLong = ASKS_HOW_LONG.test(frame.need);
  liftUnits(candidates, unitOf, bonus, reasons, (unit) =>
    unit.context.eventTime || unit.context.mentionedTimes.length
      ? "carries a time, as the query asks when"
      : howLong && STATES_A_DURATION.test(unit.content)
        ? "states a duration, as the query asks how long"
        : null,
  );
}
