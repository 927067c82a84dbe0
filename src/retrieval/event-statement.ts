import type { MemoryUnit } from "../model/memory-unit.js";
import { stemmedTerms } from "../language/stemmed-terms.js";

/**
 * The unit that tells the event a query places itself around ("Where did Mia
 * live before Galway?", "…before she took the museum archives job"): among
 * the best content matches of the phrase, the first that states a value the
 * phrase names (Mia's residence "galway", a job at the museum archives) — the
 * change itself, dated by when it was said — else the best match. The best
 * match alone was as often a reply about the place ("Galway in June is
 * lovely"), dated by its own words or its session.
 */
export function eventStatement(phrase: string, matches: readonly MemoryUnit[]): MemoryUnit | null {
  const named = stemmedTerms(phrase);
  const statesNamed = (u: MemoryUnit) =>
    (u.context.states ?? []).some((s) => {
      if (s.ends || s.value === "") return false;
      const value = [...stemmedTerms(s.value)];
      return value.length > 0 && value.every((v) => named.has(v));
    });
  return matches.find(statesNamed) ?? matches[0] ?? null;
}
