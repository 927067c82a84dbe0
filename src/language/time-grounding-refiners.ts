/**
 * The refiners of time grounding (time-grounding.ts): our parsers' readings
 * win over chrono's for the same words, false positives are dropped ("I sat
 * down", "rated it 5/10", "for two weeks", "at 5pm"), and past bias moves an
 * implied year or a bare weekday that lands after the reference back.
 */
import type { ParsedResult, ParsingComponents, Refiner } from "chrono-node";
import { DAY, utcDay, ymd } from "./time-grounding-calendar.js";
import { TAG_SPAN, futureCueAt, refDayOf } from "./time-grounding-parsers.js";

function isOurs(r: ParsedResult): boolean {
  return r.tags().has(TAG_SPAN);
}

/** Our parsers state the width explicitly; prefer them over chrono's reading of the same words. */
export const preferOursRefiner: Refiner = {
  refine: (_context, results) => {
    const ours = results.filter(isOurs);
    if (ours.length === 0) return results;
    return results.filter((r) => {
      if (isOurs(r)) return true;
      return !ours.some((o) => r.index < o.index + o.text.length && o.index < r.index + r.text.length && o.text.length >= r.text.length);
    });
  },
};

const AMBIGUOUS_MONTHS = new Set(["may", "march", "june", "april", "august", "jan", "mar", "jun", "aug", "sept", "sep"]);
const MONTH_CONTEXT_BEFORE =
  /\b(in|last|this|next|since|until|till|til|of|early|late|mid|by|during|before|after|from|through|throughout|every|each|whole|all|past|previous|coming|around)\s+(the\s+)?(month\s+of\s+)?$/i;
const WEEKDAY_ABBREV = /^(sat|sun|mon|tue|tues|wed|thu|thur|thurs|fri)\.?$/i;

function hasDateComponent(c: ParsingComponents): boolean {
  return c.isCertain("day") || c.isCertain("month") || c.isCertain("year") || c.isCertain("weekday");
}

/** Drops chrono matches that are words or numbers but not dates. */
export const falsePositiveRefiner: Refiner = {
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

export function makePastBiasRefiner(): Refiner {
  return {
    refine: (context, results) => {
      const refDay = refDayOf(context);
      for (const r of results) {
        if (isOurs(r)) continue;
        const lower = r.text.toLowerCase();
        const before = context.text.slice(Math.max(0, r.index - 12), r.index).toLowerCase();
        if (/\b(next|this|coming|upcoming)\s*$/.test(before) || /^(next|this|coming)\b/.test(lower)) continue;
        const cue = futureCueAt(context.text, r.index);
        if (cue === "future") {
          // Ahead, so the coming one: chrono takes the nearest weekday, which may be the one just gone ("the party is on Saturday", said on Monday).
          const s = r.start;
          const day = s.isOnlyWeekdayComponent() && !/^last\b/.test(lower) ? utcDay(s.get("year") ?? 0, s.get("month") ?? 1, s.get("day") ?? 1) : null;
          if (day !== null && day < refDay) {
            const moved = ymd(day + 7 * DAY);
            s.imply("year", moved.year);
            s.imply("month", moved.month);
            s.imply("day", moved.day);
          }
          continue;
        }
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
