import type { MemoryUnit } from "../model/memory-unit.js";
import { stemmedTerms } from "../language/stemmed-terms.js";
import { spokenText } from "../model/spoken-text.js";
import { escapeRegExp } from "../language/text.js";
import { opensSentence } from "../induction/proper-nouns.js";

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
  /**
   * namesOnly: a shared place or name only, not shared words (for reports looked for in a whole namespace).
   * answerTo: candidate id → the question it answers; an answer to another speaker's question that
   * names the plan's place or names tells of it ("How was Enugu?" — "So good. For my mum's sixtieth…").
   */
  options: { namesOnly?: boolean; answerTo?: ReadonlyMap<string, MemoryUnit> } = {},
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
      if (!toldOfAround(r, plan)) return false;
      if (namesOf(r).some((n) => names.has(n))) return true;
      const question = options.answerTo?.get(r.id);
      if (question && question.context.participants[0] !== speaker && namesOf(question).some((n) => names.has(n))) return true;
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

/** How far from the planned time a told event may lie and still be the plan's (plans slip): at least a month, or the plan's own window. */
const SLIP_MS = 31 * 86_400_000;

/**
 * A report that dates what it tells ("I was home in Enugu again last week")
 * tells of the plan only when that date lies around the planned one ("in
 * April"): a later trip to the same place is another occurrence. Either
 * without a date (a plan with none ahead, a report told undated) passes.
 */
function toldOfAround(report: MemoryUnit, plan: MemoryUnit): boolean {
  const planned = plan.context.eventTime;
  const told = report.context.eventTime;
  if (!planned || planned.start <= plan.context.session.start || !told || told.start > report.context.session.start) return true;
  const [ps, pe, ts, te] = [planned.start, planned.end, told.start, told.end].map((t) => Date.parse(t)) as [number, number, number, number];
  const slip = Math.max(SLIP_MS, pe - ps);
  return ts < pe + slip && te > ps - slip;
}

/**
 * The place and the names a plan names (its speaker left out), lower-cased.
 * A name after "the" ("a 20k in the Vosges", "hiking in the Alps") is kept
 * by the entity tagger as a lower-case topic: it counts as a name when the
 * plan writes it capitalised inside a sentence.
 */
export function planNames(plan: MemoryUnit): Set<string> {
  const speaker = plan.context.participants[0];
  const spoken = spokenText(plan);
  const written = (e: string) => /^\p{Lu}/u.test(e) || capitalisedInside(spoken, e);
  return new Set([plan.context.location, ...plan.context.entities.filter(written)].filter((n): n is string => n !== null && n !== speaker).map((n) => n.toLowerCase()));
}

/** The phrase appears with every word capitalised where no sentence opens (proper-nouns.ts' opensSentence). */
function capitalisedInside(text: string, phrase: string): boolean {
  const words = phrase.split(/\s+/).filter(Boolean);
  if (words.length === 0 || words.some((w) => !/^\p{L}/u.test(w))) return false;
  const capitalised = words.map((w) => escapeRegExp(w[0]!.toUpperCase() + w.slice(1))).join("\\s+");
  return [...text.matchAll(new RegExp(`(?<![\\p{L}\\p{N}])${capitalised}(?![\\p{L}\\p{N}])`, "gu"))].some((m) => !opensSentence(text, m.index!));
}

/** A unit's place and the things it names, lower-cased. */
function namesOf(unit: MemoryUnit): string[] {
  return [unit.context.location, ...unit.context.entities].filter((n): n is string => n !== null).map((n) => n.toLowerCase());
}

function wordsOf(unit: MemoryUnit, speaker: string): Set<string> {
  const words = stemmedTerms(spokenText(unit));
  for (const t of stemmedTerms(speaker)) words.delete(t);
  return words;
}
