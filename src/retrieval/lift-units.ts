import type { MemoryUnit } from "../model/memory-unit.js";
import type { ContentCandidate } from "./content-recall.js";

/**
 * The one loop of the answer-kind cues (time-, place- and
 * quantity-asked-boost.ts): each candidate whose unit `reasonFor` gives a
 * reason gains `bonus`, and the reason is recorded; a bonus of 0 or less (a
 * cue switched off) lifts nothing and records nothing. Scores change in place.
 */
export function liftUnits(
  candidates: Iterable<ContentCandidate>,
  unitOf: (unitId: string) => MemoryUnit | undefined,
  bonus: number,
  reasons: (unitId: string) => string[],
  reasonFor: (unit: MemoryUnit) => string | null,
): void {
  if (!(bonus > 0)) return;
  for (const c of candidates) {
    const unit = unitOf(c.unitId);
    const reason = unit ? reasonFor(unit) : null;
    if (reason === null) continue;
    c.score += bonus;
    reasons(c.unitId).push(reason);
  }
}
