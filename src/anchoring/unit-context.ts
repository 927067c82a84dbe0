import type { Turn } from "../model/conversation.js";

/**
 * Pieces every anchorer sets the same way, whatever produced the content, so
 * that units from different anchorers (and an LLM anchorer's fallback units)
 * are indexed and displayed alike.
 */

/** How many words of the previous turn go into a unit's cue, unless an anchorer is told otherwise. */
export const DEFAULT_CUE_WORDS = 40;

/**
 * The cue of a unit is the turn before the first turn it covers (usually the
 * question it answers): it helps find the unit but is not part of what it states.
 */
export function cueFor(previous: Turn | undefined, cueWords: number = DEFAULT_CUE_WORDS): string {
  return previous && cueWords > 0 ? `${previous.speaker}: ${firstWords(previous.text, cueWords)}` : "";
}

export function firstWords(text: string, n: number): string {
  const words = text.split(/\s+/);
  return words.length <= n ? text : `${words.slice(0, n).join(" ")} …`;
}

/** Declared participants first, then anyone else who spoke, each once. */
export function orderedParticipants(declared: readonly string[], turns: readonly Turn[]): string[] {
  return dedupe([...declared, ...turns.map((t) => t.speaker)]);
}

/** Case-insensitive, first spelling wins, empty strings dropped. */
export function dedupe(values: readonly string[]): string[] {
  const seen = new Set<string>();
  return values.filter((v) => {
    const key = v.toLowerCase();
    if (!v || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The turn before, when another speaker said it: what a bare answer ("Eleven!") answers. */
export function askedBefore(previous: Turn | undefined, turn: Turn): string | undefined {
  return previous && previous.speaker !== turn.speaker ? previous.text : undefined;
}
