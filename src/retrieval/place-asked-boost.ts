import type { MemoryUnit } from "../model/memory-unit.js";
import type { RecallFrame } from "../model/recall-frame.js";
import type { ContentCandidate } from "./content-recall.js";
import { liftUnits } from "./lift-units.js";
import { PRONOUN_I, TIME_WORDS } from "../induction/proper-nouns.js";

// A capitalised name after a word of place or of going ("in Lisbon", "at Café Tunichtgut", "from Elba", "visited
// Kyoto"). The sentence's first word is never matched: the pattern needs the word before it.
const PLACE_NAME = /\b(?:in|at|to|from|near|around|across|visit(?:ed|ing|s)?|toured|explor(?:ed|ing))\s+(?:the\s+)?(\p{Lu}[\p{L}'’-]*)/gu;

/** Whether a unit names a place: its anchored location, or a name after a word of place that is no speaker of it, no "I" and no month or day ("in March"). */
function namesAPlace(unit: MemoryUnit): boolean {
  if (unit.context.location) return true;
  const speakers = new Set(unit.context.participants.map((p) => p.toLowerCase()));
  for (const m of unit.content.matchAll(PLACE_NAME)) {
    const name = m[1]!.toLowerCase();
    if (!PRONOUN_I.test(name) && !TIME_WORDS.has(name) && !speakers.has(name)) return true;
  }
  return false;
}

/**
 * When the query asks where (frame.asksFor "place"), each candidate that
 * names a place gains `bonus`: the answer to "Where did I go on my last
 * trip?" is the turn that names the place ("Back from Elba!"), which shares
 * few of the question's words, not the one that repeats them ("What should I
 * pack for the trip?"). Scores change in place.
 */
export function boostPlacedUnits(
  candidates: Iterable<ContentCandidate>,
  frame: RecallFrame | null,
  unitOf: (unitId: string) => MemoryUnit | undefined,
  bonus: number,
  reasons: (unitId: string) => string[],
): void {
  if (frame?.asksFor !== "place") return;
  liftUnits(candidates, unitOf, bonus, reasons, (unit) => (namesAPlace(unit) ? "names a place, as the query asks where" : null));
}
