import type { MemoryUnit } from "../model/memory-unit.js";
import { stemmedTerms } from "../language/stemmed-terms.js";
import { spokenText } from "../model/spoken-text.js";

/** How many content words a report shares with a plan, besides a place or name, to tell of it. */
const SHARED_WORDS = 2;

/**
 * Which of the planned units is told as done by one of the candidates: a
 * later session's turn of the same speaker, not itself a plan, that names
 * the plan's place or one of its names — or shares SHARED_WORDS of its content
 * words — ("I'm going back to Tokyo in May" … "Tokyo was rainy, but we
 * loved it"). The earliest such turn, by session time. A heuristic read off
 * the units given: the recall's candidates, or (namesOnly) the namespace's
 * best lexical matches for the plan's names (find-plan-reports.ts).
 */
export function planOutcomes(
  plans: readonly MemoryUnit[],
  candidates: readonly MemoryUnit[],
  /** namesOnly: a shared place or name only, not shared words (for reports looked for in a whole namespace). */
  options: { namesOnly?: boolean } = {},
): Map<string, { toldAsDoneBy: string; on: string }> {
  const out = new Map<string, { toldAsDoneBy: string; on: string }>();
  if (!plans.some((u) => u.context.planned)) return out;
  const reports = candidates.filter((u) => !u.context.planned).sort((a, b) => a.context.session.start.localeCompare(b.context.session.start) || a.id.localeCompare(b.id));
  const wordsOfReport = new Map<string, Set<string>>();
  for (const plan of plans.filter((u) => u.context.planned)) {
    const speaker = plan.context.participants[0];
    if (!speaker) continue;
    const names = planNames(plan);
    const words = wordsOf(plan, speaker);
    const report = reports.find((r) => {
      if (r.context.participants[0] !== speaker || r.context.session.start <= plan.context.session.start) return false;
      const theirNames = [r.context.location, ...r.context.entities].filter((n): n is string => n !== null).map((n) => n.toLowerCase());
      if (theirNames.some((n) => names.has(n))) return true;
      if (options.namesOnly) return false;
      let shared = 0;
      if (!wordsOfReport.has(r.id)) wordsOfReport.set(r.id, wordsOf(r, speaker));
      for (const w of wordsOfReport.get(r.id)!) if (words.has(w) && ++shared >= SHARED_WORDS) return true;
      return false;
    });
    if (report) out.set(plan.id, { toldAsDoneBy: report.id, on: report.context.session.start });
  }
  return out;
}

/** The place and the names a plan names (its speaker left out), lower-cased. */
export function planNames(plan: MemoryUnit): Set<string> {
  const speaker = plan.context.participants[0];
  return new Set([plan.context.location, ...plan.context.entities.filter((e) => /^\p{Lu}/u.test(e))].filter((n): n is string => n !== null && n !== speaker).map((n) => n.toLowerCase()));
}

function wordsOf(unit: MemoryUnit, speaker: string): Set<string> {
  const words = stemmedTerms(spokenText(unit));
  for (const t of stemmedTerms(speaker)) words.delete(t);
  return words;
}
