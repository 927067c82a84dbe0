/**
 * Grounds time expressions in conversation text to half-open UTC intervals.
 *
 * chrono-node does the parsing. This module only adds what chrono lacks for
 * memory anchoring:
 *  - a few extra chrono parsers for expressions it misses (seasons, weekends,
 *    "in 2019", "recently"),
 *  - refiners that drop false positives ("I sat down", "rated it 5/10",
 *    "for two weeks", "at 5pm") and apply past bias,
 *  - post-processing that turns chrono's single instant into an interval whose
 *    width matches what the expression states ("last week" is a week, not a
 *    Monday 13:56).
 *
 * compromise-dates was tried for seasons and weekends but is not used: it
 * makes every season two months long and costs a full compromise parse per
 * turn, while these gaps are a few lines of chrono parser each.
 *
 * Conventions (documented because callers compare intervals from different
 * expressions):
 *  - All wall-clock times are UTC; the reference is the session/turn time.
 *  - Weeks are ISO weeks (Monday 00:00 to the next Monday 00:00).
 *  - "last/this/next week|month|year" is the calendar unit; "N weeks|months|years
 *    ago" is a window one unit wide centred on the instant N units back,
 *    because people say "3 years ago" for anything from ~2.5 to ~3.5 years.
 *  - Vague counts ("a few days ago", "a couple of weeks ago") widen the window
 *    to roughly n ± n/2 units and lower confidence.
 *  - Seasons are meteorological, northern hemisphere: spring Mar–May, summer
 *    Jun–Aug, fall Sep–Nov, winter Dec–Feb. "winter 2022" is the winter that
 *    starts in Dec 2022. "last summer" is the latest summer that has ended.
 *  - A weekend is Saturday 00:00 to Monday 00:00 with granularity "day" (it is
 *    an explicit two-day span, not a fuzzy week).
 *  - "recently"/"lately" → the 30 days before the reference, confidence 0.3;
 *    "the other day" → the 14 days before, confidence 0.4. Callers that need
 *    precision should filter on confidence.
 *  - Past bias (default on): an implied year, or a bare weekday, that lands
 *    after the reference is moved back (a year / a week), unless the sentence
 *    carries a future cue ("will", "next", "going to", the arranged future
 *    "I'm going back to Tokyo in May"; language/plan-cue.ts). After an
 *    arrangement ("I booked a trip in May") the nearer of the two readings wins:
 *    May ahead said in March, January back.
 */
import type { TimeInterval } from "../model/time.js";
import { dayOf } from "./time-grounding-calendar.js";
import { parserFor } from "./time-grounding-chrono.js";
import { toGrounded } from "./time-grounding-intervals.js";
import { partOfPeriod } from "./time-grounding-part-of-period.js";
import { checkArgs, checkFields } from "../model/check-args.js";

export interface GroundedTime {
  text: string;
  interval: TimeInterval;
  kind: "absolute" | "relative";
  /** 0..1 how sure */
  confidence: number;
  /** char offset in input */
  index: number;
}

export interface GroundingOptions {
  /** Default true: conversation turns mostly talk about the past. */
  pastBias?: boolean;
}

/** All time expressions in `text`, grounded against `reference` (an ISO datetime read as UTC wall clock). */
export function groundTimeExpressions(text: string, reference: string, opts: GroundingOptions = {}): GroundedTime[] {
  checkArgs("groundTimeExpressions", { text: [text, "string"], reference: [reference, "string"] });
  checkFields("groundTimeExpressions", "opts", opts, "object?", { pastBias: "boolean?" });
  const refMs = Date.parse(reference);
  if (!Number.isFinite(refMs) || text.trim() === "") return [];
  // chrono reads no "mid-August"; the same length keeps every index.
  const readable = text.replace(/\bmid-(?=\p{L})/giu, "mid ");
  const results = parserFor(opts.pastBias ?? true).parse(readable, { instant: new Date(refMs), timezone: 0 }, { forwardDate: false });
  const refDay = dayOf(refMs);
  const out: GroundedTime[] = [];
  for (const r of results) {
    const g = toGrounded(r, refDay);
    if (g && isStorableInterval(g.interval)) out.push(partOfPeriod(text, g));
  }
  return out;
}

/**
 * Years outside 0000–9999 ("June 12, 5012 BC") have no plain ISO form (their
 * ISO string is "-005012-…", which the store's schema rightly refuses): such
 * a time belongs to a story, not to this conversation's timeline, so it is
 * not kept as a coordinate.
 */
function isStorableInterval(i: { start: string; end: string }): boolean {
  return /^\d{4}-/.test(i.start) && /^\d{4}-/.test(i.end);
}

/** The expression's own grounding: the longest time expression found in it, or null. */
export function groundTimeExpression(expression: string, reference: string, opts: GroundingOptions = {}): GroundedTime | null {
  checkArgs("groundTimeExpression", { expression: [expression, "string"], reference: [reference, "string"] });
  let best: GroundedTime | null = null;
  for (const g of groundTimeExpressions(expression, reference, opts)) {
    if (!best || g.text.length > best.text.length) best = g;
  }
  return best;
}
