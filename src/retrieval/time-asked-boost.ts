import type { MemoryUnit } from "../model/memory-unit.js";
import type { RecallFrame } from "../model/recall-frame.js";
import type { ContentCandidate } from "./content-recall.js";

/**
 * When the query asks when (frame.asksFor "time"), each candidate that carries
 * a time (event time or a mentioned time) gains `bonus`: the answer to
 * "When did…" is a unit that says when, and "Which came first, A or B?" is
 * answered by the two units that say when each happened. Scores change in place.
 */
export function boostTimedUnits(
  candidates: Iterable<ContentCandidate>,
  frame: RecallFrame | null,
  unitOf: (unitId: string) => MemoryUnit | undefined,
  bonus: number,
  reasons: (unitId: string) => string[],
): void {
  if (frame?.asksFor !== "time" || !(bonus > 0)) return;
  for (const c of candidates) {
    const context = unitOf(c.unitId)?.context;
    if (!context?.eventTime && !context?.mentionedTimes.length) continue;
    c.score += bonus;
    reasons(c.unitId).push("carries a time, as the query asks when");
  }
}
