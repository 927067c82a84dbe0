import type { MemoryUnit } from "../model/memory-unit.js";
import type { RecallFrame } from "../model/recall-frame.js";
import type { ContentCandidate } from "./content-recall.js";
import { liftUnits } from "./lift-units.js";
import { NUMBER_WORD_VALUES } from "../language/state-patterns.js";

// Digits, a currency sign, or a number's word. "Zero" and "one" are left out: "one of my friends", "no one".
const NUMBER_WORDS = [...Object.keys(NUMBER_WORD_VALUES).filter((w) => w !== "zero" && w !== "one"), "thousand", "dozen", "couple", "half", "once", "twice"];
const STATES_A_NUMBER = new RegExp(`\\d|[$€£¥]|\\b(?:${NUMBER_WORDS.join("|")})\\b`, "i");

/**
 * When the query asks how much or how many (frame.asksFor "quantity"), each
 * candidate that states a number gains `bonus`: "How many fish are in my
 * aquariums?" is answered by "I've got 10 neon tetras", and a count's parts
 * are in the turns that give each its number. Scores change in place.
 */
export function boostQuantifiedUnits(
  candidates: Iterable<ContentCandidate>,
  frame: RecallFrame | null,
  unitOf: (unitId: string) => MemoryUnit | undefined,
  bonus: number,
  reasons: (unitId: string) => string[],
): void {
  if (frame?.asksFor !== "quantity") return;
  liftUnits(candidates, unitOf, bonus, reasons, (unit) => (STATES_A_NUMBER.test(unit.content) ? "states a number, as the query asks how much" : null));
}
