/**
 * The extra chrono parsers of time grounding (time-grounding.ts), for what
 * chrono misses: seasons, weekends, "in 2019", "recently". Each result is
 * tagged with the width it states, so post-processing
 * (time-grounding-intervals.ts) keeps it; the future cue of a sentence
 * (futureCueAt) is read here and by the past-bias refiner.
 */
import type { Parser, ParsingContext, ParsingResult } from "chrono-node";
import type { Granularity } from "../model/time.js";
import { timeCueIn, type FutureCue } from "./plan-cue.js";
import { DAY, dayOf, monthStart, utcDay, ymd } from "./time-grounding-calendar.js";

export const TAG_SPAN = "ramem/span"; // start..end are inclusive days set by our parser
export const TAG_GRAN = "ramem/gran/"; // + granularity
export const TAG_CONF = "ramem/conf/"; // + confidence * 100

export function refDayOf(context: ParsingContext): number {
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

export function makeSeasonParser(pastBias: boolean): Parser {
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

export function makeWeekendParser(pastBias: boolean): Parser {
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

const WEEKDAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];

/**
 * "Wednesday the 16th", "on Monday, the 14th": chrono reads the weekday alone
 * and grounds it to the nearest such weekday (with past bias, the one gone),
 * dropping the date. The date is the day N of the month before, of, or after
 * the reference on which that weekday falls — the nearest such; when none
 * does (a slip of the speaker), the nearest day N, less sure.
 */
export const weekdayDateParser: Parser = {
  pattern: () => /\b(sunday|monday|tuesday|wednesday|thursday|friday|saturday),?\s+the\s+(\d{1,2})(?:st|nd|rd|th)\b/i,
  extract: (context, match) => {
    const dayOfMonth = Number(match[2]);
    if (dayOfMonth < 1 || dayOfMonth > 31) return null;
    const weekday = WEEKDAYS.indexOf(match[1]!.toLowerCase());
    const refDay = refDayOf(context);
    const candidates = [-1, 0, 1]
      .map((offset) => monthStart(refDay, offset) + (dayOfMonth - 1) * DAY)
      .filter((day) => ymd(day).day === dayOfMonth);
    const nearest = (days: number[]) => days.reduce<number | null>((best, d) => (best === null || Math.abs(d - refDay) < Math.abs(best - refDay) ? d : best), null);
    const onWeekday = nearest(candidates.filter((day) => new Date(day).getUTCDay() === weekday));
    const chosen = onWeekday ?? nearest(candidates);
    if (chosen === null) return null;
    return spanResult(context, match.index ?? 0, match[0], chosen, chosen + DAY, "day", onWeekday !== null ? 0.9 : 0.6, false);
  },
};

/** "in 2019", "back in 2018", "during 2020": chrono ignores a bare year. */
export const yearParser: Parser = {
  pattern: () => /\b(?:(?:in|during|since|from|around|circa|of|throughout|early|late|mid)\s+|mid-)((?:19|20)\d{2})\b(?!\s*(?:[-/]\d|people|\w*s\b|%|km|miles|dollars|euros|words|times))/i,
  extract: (context, match) => {
    const year = Number(match[1]);
    // The preposition stays in the text: chrono's own filter drops digit-only matches.
    return spanResult(context, match.index ?? 0, match[0], utcDay(year, 1, 1), utcDay(year + 1, 1, 1), "year", 1, true);
  },
};

export const vagueRecentParser: Parser = {
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

/** The time cue of the sentence around `index` (language/plan-cue.ts, timeCueIn): "future" switches past bias off, "arranged" takes the nearer reading. */
export function futureCueAt(text: string, index: number): FutureCue | null {
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
