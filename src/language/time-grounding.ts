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
import * as chrono from "chrono-node";
import type { Chrono, ParsedComponents, ParsedResult, Parser, ParsingComponents, ParsingContext, ParsingResult, Refiner } from "chrono-node";
import type { Granularity, TimeInterval } from "../model/time.js";
import { timeCueIn, type FutureCue } from "./plan-cue.js";

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

const DAY = 86_400_000;

/* ------------------------------------------------------------------ */
/* date arithmetic on UTC day-start epoch milliseconds                  */
/* ------------------------------------------------------------------ */

function utcDay(y: number, m: number, d: number): number {
  return Date.UTC(y, m - 1, d);
}
function dayOf(ms: number): number {
  return Math.floor(ms / DAY) * DAY;
}
function isoWeekStart(dayMs: number): number {
  const dow = new Date(dayMs).getUTCDay(); // 0 = Sunday
  return dayMs - ((dow + 6) % 7) * DAY;
}
function monthStart(dayMs: number, addMonths = 0): number {
  const d = new Date(dayMs);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + addMonths, 1);
}
function yearStart(dayMs: number, addYears = 0): number {
  return Date.UTC(new Date(dayMs).getUTCFullYear() + addYears, 0, 1);
}
function addMonthsExact(dayMs: number, months: number): number {
  const d = new Date(dayMs);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, d.getUTCDate());
}
function ymd(ms: number): { year: number; month: number; day: number } {
  const d = new Date(ms);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/* ------------------------------------------------------------------ */
/* extra parsers (tagged so post-processing knows the stated width)    */
/* ------------------------------------------------------------------ */

const TAG_SPAN = "ramem/span"; // start..end are inclusive days set by our parser
const TAG_GRAN = "ramem/gran/"; // + granularity
const TAG_CONF = "ramem/conf/"; // + confidence * 100

function refDayOf(context: ParsingContext): number {
  return dayOf(context.reference.instant.getTime());
}

/** A result covering whole days [startDay, endDayExclusive). */
function spanResult(
  context: ParsingContext,
  index: number,
  text: string,
  startDay: number,
  endDayExclusive: number,
  granularity: Granularity,
  confidence: number,
  yearStated: boolean,
): ParsingResult {
  const s = ymd(startDay);
  const e = ymd(endDayExclusive - DAY);
  const start = context.createParsingComponents({ month: s.month, day: s.day });
  const end = context.createParsingComponents({ month: e.month, day: e.day });
  // A stated year is certain; a computed one is only implied, so past bias and
  // the absolute/relative decision read it correctly.
  if (yearStated) {
    start.assign("year", s.year);
    end.assign("year", e.year);
  } else {
    start.imply("year", s.year);
    end.imply("year", e.year);
  }
  const result = context.createParsingResult(index, text, start, end);
  result.addTag(TAG_SPAN);
  result.addTag(TAG_GRAN + granularity);
  result.addTag(TAG_CONF + Math.round(confidence * 100));
  return result;
}

const SEASON_START_MONTH: Record<string, number> = { spring: 3, summer: 6, fall: 9, autumn: 9, winter: 12 };

function seasonSpan(season: string, startYear: number): [number, number] {
  const m = SEASON_START_MONTH[season] ?? 6;
  const start = utcDay(startYear, m, 1);
  return [start, monthStart(start, 3)];
}

function makeSeasonParser(pastBias: boolean): Parser {
  return {
    pattern: () =>
      /\b(?:(last|this|next|past|previous|coming)\s+|(?:in|during|over|by|through)\s+(?:the\s+)?)?(summer|spring|winter|fall|autumn)(?:\s+(?:of\s+)?((?:19|20)\d{2}))?\b/i,
    extract: (context, match) => {
      const modifier = match[1]?.toLowerCase();
      const season = (match[2] ?? "").toLowerCase();
      const yearText = match[3];
      const prefixed = /^(in|during|over|by|through)\b/i.test(match[0]);
      // "fall" and "spring" are common verbs/nouns; without a modifier or a year it is not a time.
      if (!modifier && !yearText && !prefixed) return null;
      const refDay = refDayOf(context);
      const refYear = new Date(refDay).getUTCFullYear();
      if (yearText) {
        const [s, e] = seasonSpan(season, Number(yearText));
        return spanResult(context, match.index ?? 0, match[0], s, e, "season", 1, true);
      }
      // Candidate occurrences around the reference, by start year.
      const occ = [refYear - 2, refYear - 1, refYear, refYear + 1].map((y) => seasonSpan(season, y));
      const containing = occ.find(([s, e]) => s <= refDay && refDay < e);
      let chosen: [number, number] | undefined;
      let confidence = 0.85;
      if (modifier === "last" || modifier === "past" || modifier === "previous") {
        chosen = [...occ].reverse().find(([, e]) => e <= refDay);
      } else if (modifier === "next" || modifier === "coming") {
        chosen = occ.find(([s]) => s > refDay);
      } else if (modifier === "this") {
        chosen = containing ?? occ.find(([s]) => s > refDay && new Date(s).getUTCFullYear() === refYear) ?? occ.find(([s]) => s > refDay);
      } else {
        confidence = 0.7;
        const future = isFutureContext(context.text, match.index ?? 0);
        chosen =
          pastBias && !future
            ? [...occ].reverse().find(([s]) => s <= refDay)
            : (containing ?? occ.find(([s]) => s > refDay));
      }
      if (!chosen) return null;
      return spanResult(context, match.index ?? 0, match[0], chosen[0], chosen[1], "season", confidence, false);
    },
  };
}

const COUNT_WORDS: Record<string, number> = {
  a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  "a couple of": 2, "a couple": 2, couple: 2, "a few": 3, few: 3,
};

function makeWeekendParser(pastBias: boolean): Parser {
  return {
    pattern: () =>
      /\b(?:(last|this|next|past|previous|coming)\s+weekend|(the\s+weekend\s+before\s+last)|(a|an|one|two|three|four|five|six|\d{1,2}|a\s+couple(?:\s+of)?|a\s+few)\s+weekends?\s+ago|(?:over|on|at|during)\s+the\s+weekend)\b/i,
    extract: (context, match) => {
      const refDay = refDayOf(context);
      const dow = new Date(refDay).getUTCDay();
      // Saturday of the weekend that contains, or most recently preceded, the reference.
      const recentSat = refDay - ((dow + 1) % 7) * DAY;
      const inWeekend = dow === 6 || dow === 0;
      // The latest weekend that is over (a weekend still running is "this weekend").
      const lastSat = inWeekend ? recentSat - 7 * DAY : recentSat;
      const upcomingSat = inWeekend ? recentSat : recentSat + 7 * DAY;
      const modifier = match[1]?.toLowerCase();
      let sat: number;
      let confidence = 0.9;
      let vague = false;
      if (match[2]) {
        sat = lastSat - 7 * DAY;
      } else if (match[3]) {
        const countText = match[3].toLowerCase().replace(/\s+/g, " ");
        const n = COUNT_WORDS[countText] ?? Number(countText);
        if (!Number.isFinite(n) || n < 1) return null;
        vague = /few|couple/.test(countText);
        sat = lastSat - (n - 1) * 7 * DAY;
        if (vague) confidence = 0.5;
      } else if (modifier === "last" || modifier === "past" || modifier === "previous") {
        sat = lastSat;
      } else if (modifier === "this") {
        sat = upcomingSat;
      } else if (modifier === "next" || modifier === "coming") {
        sat = inWeekend ? upcomingSat + 7 * DAY : upcomingSat;
      } else {
        confidence = 0.6;
        sat = pastBias && !isFutureContext(context.text, match.index ?? 0) ? (inWeekend ? recentSat : lastSat) : upcomingSat;
      }
      if (vague) {
        // "a few weekends ago": any of the weekends n±1 back.
        return spanResult(context, match.index ?? 0, match[0], sat - 7 * DAY, sat + 9 * DAY, "week", confidence, false);
      }
      return spanResult(context, match.index ?? 0, match[0], sat, sat + 2 * DAY, "day", confidence, false);
    },
  };
}

/** "in 2019", "back in 2018", "during 2020": chrono ignores a bare year. */
const yearParser: Parser = {
  pattern: () => /\b(?:(?:in|during|since|from|around|circa|of|throughout|early|late|mid)\s+|mid-)((?:19|20)\d{2})\b(?!\s*(?:[-/]\d|people|\w*s\b|%|km|miles|dollars|euros|words|times))/i,
  extract: (context, match) => {
    const year = Number(match[1]);
    // The preposition stays in the text: chrono's own filter drops digit-only matches.
    return spanResult(context, match.index ?? 0, match[0], utcDay(year, 1, 1), utcDay(year + 1, 1, 1), "year", 1, true);
  },
};

const vagueRecentParser: Parser = {
  pattern: () => /\b(recently|lately|the other day)\b/i,
  extract: (context, match) => {
    const refDay = refDayOf(context);
    const text = match[0];
    if (/other day/i.test(text)) {
      return spanResult(context, match.index ?? 0, text, refDay - 14 * DAY, refDay, "week", 0.4, false);
    }
    return spanResult(context, match.index ?? 0, text, refDay - 30 * DAY, refDay + DAY, "month", 0.3, false);
  },
};

/* ------------------------------------------------------------------ */
/* refiners                                                            */
/* ------------------------------------------------------------------ */

function isOurs(r: ParsedResult): boolean {
  return r.tags().has(TAG_SPAN);
}

/** Our parsers state the width explicitly; prefer them over chrono's reading of the same words. */
const preferOursRefiner: Refiner = {
  refine: (_context, results) => {
    const ours = results.filter(isOurs);
    if (ours.length === 0) return results;
    return results.filter((r) => {
      if (isOurs(r)) return true;
      return !ours.some((o) => r.index < o.index + o.text.length && o.index < r.index + r.text.length && o.text.length >= r.text.length);
    });
  },
};

/** The time cue of the sentence around `index` (language/plan-cue.ts, timeCueIn): "future" switches past bias off, "arranged" takes the nearer reading. */
function futureCueAt(text: string, index: number): FutureCue | null {
  const before = text.slice(0, index);
  const startCut = Math.max(before.lastIndexOf("."), before.lastIndexOf("!"), before.lastIndexOf("?"), before.lastIndexOf("\n"));
  const after = text.slice(index);
  const endRel = after.search(/[.!?\n]/);
  return timeCueIn(text.slice(startCut + 1, endRel < 0 ? text.length : index + endRel));
}

/** Future cues in the sentence around `index`: they switch past bias off. */
function isFutureContext(text: string, index: number): boolean {
  return futureCueAt(text, index) !== null;
}

const AMBIGUOUS_MONTHS = new Set(["may", "march", "june", "april", "august", "jan", "mar", "jun", "aug", "sept", "sep"]);
const MONTH_CONTEXT_BEFORE =
  /\b(in|last|this|next|since|until|till|til|of|early|late|mid|by|during|before|after|from|through|throughout|every|each|whole|all|past|previous|coming|around)\s+(the\s+)?(month\s+of\s+)?$/i;
const WEEKDAY_ABBREV = /^(sat|sun|mon|tue|tues|wed|thu|thur|thurs|fri)\.?$/i;

function hasDateComponent(c: ParsingComponents): boolean {
  return c.isCertain("day") || c.isCertain("month") || c.isCertain("year") || c.isCertain("weekday");
}

/** Drops chrono matches that are words or numbers but not dates. */
const falsePositiveRefiner: Refiner = {
  refine: (context, results) =>
    results.filter((r) => {
      if (isOurs(r)) return true;
      const text = r.text.trim().replace(/[\s.,;:!?]+$/, "");
      const lower = text.toLowerCase();
      // "now" is the reference itself: it adds nothing and would copy the session time into event time.
      if (/^(right\s+)?now$/.test(lower)) return false;
      // "- 25 minutes" (a list), "this a few years" (chrono reads "this <duration>" as the future).
      if (/^[-+]/.test(lower) || /^this\s+(a|an|one|two|few|several|couple|\d)\b/.test(lower)) return false;
      // chrono reads a bare "weekend" ("a great weekend", "once a weekend") as one weekday; our parser handles the dated forms.
      if (/\bweekends?\b/.test(lower)) return false;
      const tags = r.tags();
      const before = context.text.slice(Math.max(0, r.index - 40), r.index);
      const after = context.text.slice(r.index + r.text.length, r.index + r.text.length + 12);
      // Durations: "for two weeks", "within a week" say how long, not when.
      // "after 3 years" counts from an unstated moment, not from the reference.
      if (/^(for|within|over|after)\b/.test(lower) || /\b(for|after)\s+(the\s+)?$/i.test(before)) return false;
      // Ratings and fractions ("5/10", "24/7", "1/2 cup") look like yearless slash dates.
      if (tags.has("parser/SlashDateFormatParser") && !r.start.isCertain("year")) return false;
      // Times of day alone ("at 5pm") are not a date; "this morning" is today.
      if (!hasDateComponent(r.start) && !/^(this|last|next|past|coming)\s+(week|month|year)$/.test(lower)) {
        if (/^this\s+(morning|afternoon|evening|noon)$/.test(lower)) return true;
        return false;
      }
      // Month names that are also verbs/names ("we march on", "May I", "June said") need date context.
      const onlyMonth = r.start.isCertain("month") && !r.start.isCertain("day") && !r.start.isCertain("year") && !r.end;
      if (onlyMonth && AMBIGUOUS_MONTHS.has(lower) && !MONTH_CONTEXT_BEFORE.test(before)) return false;
      // "I sat down", "the sun": abbreviated weekdays are almost always ordinary words in chat.
      const weekdayWord = lower.replace(/^(on|last|next|this|past|coming)\s+/, "");
      if (r.start.isOnlyWeekdayComponent() && WEEKDAY_ABBREV.test(weekdayWord)) return false;
      return true;
    }),
};

function makePastBiasRefiner(): Refiner {
  return {
    refine: (context, results) => {
      const refDay = refDayOf(context);
      for (const r of results) {
        if (isOurs(r)) continue;
        const lower = r.text.toLowerCase();
        const before = context.text.slice(Math.max(0, r.index - 12), r.index).toLowerCase();
        if (/\b(next|this|coming|upcoming)\s*$/.test(before) || /^(next|this|coming)\b/.test(lower)) continue;
        const cue = futureCueAt(context.text, r.index);
        if (cue === "future") continue;
        // An arrangement ("I booked a trip in May") names the event's time or the booking's: the nearer reading.
        const nearer = (ahead: number, back: number) => cue === "arranged" && ahead - refDay <= refDay - back;
        const s = r.start;
        if (s.isCertain("month") && !s.isCertain("year") && !r.tags().has("result/relativeDate")) {
          // Compare the start of the stated unit: "in May" said on 8 May is this May.
          const unitStart = utcDay(s.get("year") ?? 0, s.get("month") ?? 1, s.isCertain("day") ? (s.get("day") ?? 1) : 1);
          const yearBack = utcDay((s.get("year") ?? 0) - 1, s.get("month") ?? 1, s.isCertain("day") ? (s.get("day") ?? 1) : 1);
          if (unitStart > refDay && !nearer(unitStart, yearBack)) {
            s.imply("year", (s.get("year") ?? 0) - 1);
            if (r.end && !r.end.isCertain("year")) r.end.imply("year", (r.end.get("year") ?? 0) - 1);
            r.addTag("ramem/pastBias");
          }
        } else if (s.isOnlyWeekdayComponent() && !/^last\b/.test(lower)) {
          const day = utcDay(s.get("year") ?? 0, s.get("month") ?? 1, s.get("day") ?? 1);
          if (day > refDay && !nearer(day, day - 7 * DAY)) {
            const moved = ymd(day - 7 * DAY);
            s.imply("year", moved.year);
            s.imply("month", moved.month);
            s.imply("day", moved.day);
            r.addTag("ramem/pastBias");
          }
        }
      }
      return results;
    },
  };
}

let cached: { past: Chrono; neutral: Chrono } | undefined;

function build(pastBias: boolean): Chrono {
  const parser = chrono.casual.clone();
  parser.parsers.push(makeSeasonParser(pastBias), makeWeekendParser(pastBias), yearParser, vagueRecentParser);
  parser.refiners.unshift(preferOursRefiner);
  parser.refiners.push(falsePositiveRefiner);
  if (pastBias) parser.refiners.push(makePastBiasRefiner());
  return parser;
}

function parserFor(pastBias: boolean): Chrono {
  cached ??= { past: build(true), neutral: build(false) };
  return pastBias ? cached.past : cached.neutral;
}

/* ------------------------------------------------------------------ */
/* post-processing: instant → interval with the stated granularity     */
/* ------------------------------------------------------------------ */

interface Span {
  start: number;
  end: number;
  granularity: Granularity;
  confidence: number;
}

function componentsDay(c: ParsedComponents): number {
  return utcDay(c.get("year") ?? 1970, c.get("month") ?? 1, c.get("day") ?? 1);
}

const UNIT_RE = /\b(day|week|fortnight|month|year|hour|minute)s?\b/;

/** Width of the thing a single chrono point refers to, read from certain components. */
function pointSpan(c: ParsedComponents): Span {
  const y = c.get("year") ?? 1970;
  const m = c.get("month") ?? 1;
  if (c.isCertain("day") || c.isCertain("weekday")) {
    const d = componentsDay(c);
    return { start: d, end: d + DAY, granularity: "day", confidence: 0.9 };
  }
  if (c.isCertain("month")) {
    return { start: utcDay(y, m, 1), end: utcDay(y, m + 1, 1), granularity: "month", confidence: 0.9 };
  }
  return { start: utcDay(y, 1, 1), end: utcDay(y + 1, 1, 1), granularity: "year", confidence: 0.9 };
}

function relativeSpan(r: ParsedResult, refDay: number): Span | null {
  const lower = r.text.toLowerCase();
  const unitMatch = UNIT_RE.exec(lower);
  if (!unitMatch) return null;
  let unit = unitMatch[1] ?? "day";
  const point = componentsDay(r.start);
  if (unit === "hour" || unit === "minute") {
    return { start: point, end: point + DAY, granularity: "day", confidence: 0.9 };
  }
  if (unit === "fortnight") unit = "week";

  // "the week before 9 June": the unit that ends (or starts) at the anchor date.
  const around = /\b(day|week|month|year)s?\s+(before|after)\b/.exec(lower);
  if (around) {
    const gran = unit as Granularity;
    if (around[2] === "before") {
      const anchor = unit === "month" ? addMonthsExact(point, 1) : unit === "year" ? addMonthsExact(point, 12) : point + (unit === "week" ? 7 : 1) * DAY;
      return { start: point, end: anchor, granularity: gran, confidence: 0.85 };
    }
    const anchorNext = point + DAY;
    const start = unit === "month" ? addMonthsExact(anchorNext, -1) : unit === "year" ? addMonthsExact(anchorNext, -12) : anchorNext - (unit === "week" ? 7 : 1) * DAY;
    return { start, end: anchorNext, granularity: gran, confidence: 0.85 };
  }

  const calendar = /\b(last|this|next|previous|coming)\s+(week|month|year)\b/.exec(lower);
  if (calendar) {
    const which = calendar[1];
    const shift = which === "last" || which === "previous" ? -1 : which === "this" ? 0 : 1;
    if (unit === "week") {
      const s = isoWeekStart(refDay) + shift * 7 * DAY;
      return { start: s, end: s + 7 * DAY, granularity: "week", confidence: 0.9 };
    }
    if (unit === "month") return { start: monthStart(refDay, shift), end: monthStart(refDay, shift + 1), granularity: "month", confidence: 0.9 };
    return { start: yearStart(refDay, shift), end: yearStart(refDay, shift + 1), granularity: "year", confidence: 0.9 };
  }

  if (unit === "day") {
    const vague = /\b(few|couple|several|some)\b/.test(lower);
    if (!vague) return { start: point, end: point + DAY, granularity: "day", confidence: 0.9 };
  }

  // "the past two weeks": a rolling window up to the reference.
  if (/\b(past|last)\s+(\w+\s+)?(days?|weeks?|months?|years?)\b/.test(lower) && point < refDay) {
    return { start: point, end: refDay + DAY, granularity: unit as Granularity, confidence: 0.8 };
  }

  const vague = /\b(few|couple|several|some)\b/.test(lower);
  const stepDays = unit === "day" ? 1 : unit === "week" ? 7 : unit === "month" ? 30.44 : 365.25;
  const signedDays = (point - refDay) / DAY;
  if (vague) {
    // n ± ceil(n/2) units, so "a couple of days ago" is 1–3 days back.
    const n = Math.max(1, Math.round(Math.abs(signedDays) / stepDays));
    const half = Math.ceil(n / 2);
    const dir = signedDays < 0 ? -1 : 1;
    const near = refDay + dir * Math.round((n - half) * stepDays) * DAY;
    const far = refDay + dir * Math.round((n + half) * stepDays) * DAY;
    const start = Math.min(near, far);
    const end = Math.max(near, far);
    return { start, end: end === start ? start + DAY : end, granularity: unit as Granularity, confidence: 0.5 };
  }
  // "two weeks ago", "3 years ago": one unit wide, centred on the point.
  const halfDays = Math.floor(stepDays / 2);
  return { start: point - halfDays * DAY, end: point + (Math.ceil(stepDays) - halfDays) * DAY, granularity: unit as Granularity, confidence: 0.7 };
}

function toSpan(r: ParsedResult, refDay: number): Span | null {
  const tags = r.tags();
  if (tags.has(TAG_SPAN) && r.end) {
    let granularity: Granularity = "day";
    let confidence = 0.8;
    for (const t of tags) {
      if (t.startsWith(TAG_GRAN)) granularity = t.slice(TAG_GRAN.length) as Granularity;
      if (t.startsWith(TAG_CONF)) confidence = Number(t.slice(TAG_CONF.length)) / 100;
    }
    return { start: componentsDay(r.start), end: componentsDay(r.end) + DAY, granularity, confidence };
  }
  const lower = r.text.toLowerCase().trim();
  // chrono reads "last night" through the host time zone; here it is always the evening before.
  if (/^last\s+night$/.test(lower)) {
    return { start: refDay - DAY, end: refDay, granularity: "day", confidence: 0.95 };
  }
  if (/^this\s+(morning|afternoon|evening|noon)$/.test(lower)) {
    return { start: refDay, end: refDay + DAY, granularity: "day", confidence: 0.95 };
  }
  if (r.end) {
    const a = pointSpan(r.start);
    const b = pointSpan(r.end);
    return { start: a.start, end: Math.max(b.end, a.end), granularity: a.granularity, confidence: 0.9 };
  }
  const isRelative = tags.has("result/relativeDate") || /^(this|last|next|past|coming)\s+(week|month|year)$/.test(lower);
  const span = (isRelative ? relativeSpan(r, refDay) : null) ?? pointSpan(r.start);
  if (tags.has("ramem/pastBias")) span.confidence = Math.min(span.confidence, 0.8);
  if (tags.has("casualReference/yesterday") || tags.has("casualReference/today")) span.confidence = 0.95;
  return span;
}

const STATED_YEAR = /\b(1[89]|20)\d{2}\b/;

function toGrounded(r: ParsedResult, refDay: number): GroundedTime | null {
  const span = toSpan(r, refDay);
  if (!span || !(span.start < span.end) || !Number.isFinite(span.start) || !Number.isFinite(span.end)) return null;
  const absolute = STATED_YEAR.test(r.text) && !/\bago\b/i.test(r.text);
  return {
    // chrono sometimes keeps the trailing comma ("last Friday,").
    text: r.text.replace(/[\s.,;:!?]+$/, ""),
    index: r.index,
    kind: absolute ? "absolute" : "relative",
    confidence: absolute ? 1 : span.confidence,
    interval: { start: new Date(span.start).toISOString(), end: new Date(span.end).toISOString(), granularity: span.granularity },
  };
}

/** All time expressions in `text`, grounded against `reference` (an ISO datetime read as UTC wall clock). */
export function groundTimeExpressions(text: string, reference: string, opts: GroundingOptions = {}): GroundedTime[] {
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
 * "early 2022", "late January", "mid-August", "the beginning of November",
 * "the end of summer", "the first half of September": a part of the period
 * chrono grounds whole. Early/start/beginning is its first third, mid/middle
 * the middle one, late/end the last; a half is a half. Only months, seasons
 * and years: a part of a day or a week is no coordinate worth narrowing.
 */
const PART_OF_PERIOD = /\b(early|late|mid-?|the\s+(?:very\s+)?(?:start|beginning|end|middle)\s+of|the\s+(?:first|second|latter)\s+half\s+of)\s*(?:in\s+)?$/i;
const NARROWER: Partial<Record<Granularity, Granularity>> = { year: "season", season: "month", month: "week" };

function partOfPeriod(text: string, g: GroundedTime): GroundedTime {
  const narrower = NARROWER[g.interval.granularity];
  if (!narrower) return g;
  // The year parser keeps its own word ("early 2022") or preposition ("of 2022"); chrono
  // keeps "end of" ("the end of next month") but grounds the whole period.
  const own = /^(early|late|mid-?|(?:the\s+)?(?:very\s+)?(?:start|beginning|end|middle)\s+of)\s*/i.exec(g.text);
  const lead = own ? null : /^(?:of|in)\s+/i.exec(g.text);
  const before = own ? null : PART_OF_PERIOD.exec(text.slice(0, g.index + (lead?.[0].length ?? 0)));
  const word = (own?.[1] ?? before?.[1])?.toLowerCase().replace(/\s+/g, " ").replace(/^(?!the )(?=(?:very )?(?:start|beginning|end|middle) of)/, "the ");
  if (!word) return g;
  const start = Date.parse(g.interval.start);
  const end = Date.parse(g.interval.end);
  const span = end - start;
  // A part of a year or a season ends on a month's first day, a part of a month on a day's.
  const byMonth = g.interval.granularity !== "month";
  const at = (share: number) => (byMonth ? monthStart(dayOf(start + span * share + 15 * DAY)) : dayOf(start + span * share));
  const [from, to] = /^(?:early|the (?:very )?(?:start|beginning) of)$/.test(word)
    ? [start, at(1 / 3)]
    : /^(?:late|the (?:very )?end of)$/.test(word)
      ? [at(2 / 3), end]
      : /first half/.test(word)
        ? [start, at(1 / 2)]
        : /(?:second|latter) half/.test(word)
          ? [at(1 / 2), end]
          : [at(1 / 3), at(2 / 3)];
  if (!(from < to)) return g;
  return {
    ...g,
    text: before ? text.slice(before.index, g.index) + g.text : g.text,
    index: before ? before.index : g.index,
    interval: { start: new Date(from).toISOString(), end: new Date(to).toISOString(), granularity: narrower },
  };
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
  let best: GroundedTime | null = null;
  for (const g of groundTimeExpressions(expression, reference, opts)) {
    if (!best || g.text.length > best.text.length) best = g;
  }
  return best;
}
