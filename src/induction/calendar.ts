/**
 * Calendar arithmetic the time induction needs to judge whether a relative
 * expression is unambiguous over a history range. Internal to induction.
 */
import type { Granularity, TimeInterval } from "../model/time.js";

const DAY = 86_400_000;

export interface Range {
  start: number;
  end: number;
}

/** History end is the end of the last session, a point inside the range: one millisecond past it keeps it inside a half-open range. */
export function historyRange(history: { start: string; end: string }): Range | null {
  const start = Date.parse(history.start);
  const end = Date.parse(history.end);
  if (!Number.isFinite(start) || !Number.isFinite(end) || end < start) return null;
  return { start, end: end + 1 };
}

export function overlaps(a: Range, b: Range): boolean {
  return a.start < b.end && b.start < a.end;
}

export function rangeOf(t: { start: string; end: string }): Range {
  return { start: Date.parse(t.start), end: Date.parse(t.end) };
}

function shiftYears(ms: number, years: number): number {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear() + years, d.getUTCMonth(), d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds());
}

/**
 * Every copy of a yearly-recurring window ("May", "summer", "8 May") that
 * overlaps the history, oldest first. The grounded window is one copy; the
 * others are the same calendar slot in other years.
 */
export function yearlyOccurrences(window: TimeInterval, history: Range): TimeInterval[] {
  const s = Date.parse(window.start);
  const e = Date.parse(window.end);
  const baseYear = new Date(s).getUTCFullYear();
  const firstYear = new Date(history.start).getUTCFullYear() - 1;
  const lastYear = new Date(history.end).getUTCFullYear() + 1;
  const out: TimeInterval[] = [];
  for (let y = firstYear; y <= lastYear; y++) {
    const k = y - baseYear;
    const r = { start: shiftYears(s, k), end: shiftYears(e, k) };
    if (overlaps(r, history)) {
      out.push({ start: new Date(r.start).toISOString(), end: new Date(r.end).toISOString(), granularity: window.granularity });
    }
  }
  return out;
}

function isoWeekStart(ms: number): number {
  const day = Math.floor(ms / DAY) * DAY;
  const dow = new Date(day).getUTCDay();
  return day - ((dow + 6) % 7) * DAY;
}

/** How many calendar units of this granularity the range touches ("the history spans 3 years"). */
export function unitsSpanned(range: Range, granularity: Granularity): number {
  const last = range.end - 1;
  const a = new Date(range.start);
  const b = new Date(last);
  const monthIndex = (d: Date) => d.getUTCFullYear() * 12 + d.getUTCMonth();
  switch (granularity) {
    case "year":
      return b.getUTCFullYear() - a.getUTCFullYear() + 1;
    case "season":
      // Meteorological seasons start in Mar/Jun/Sep/Dec: shift by one month so each block of three is one season.
      return Math.floor((monthIndex(b) + 1) / 3) - Math.floor((monthIndex(a) + 1) / 3) + 1;
    case "month":
      return monthIndex(b) - monthIndex(a) + 1;
    case "week":
      return Math.round((isoWeekStart(last) - isoWeekStart(range.start)) / (7 * DAY)) + 1;
    case "day":
    case "minute":
      return Math.floor(last / DAY) - Math.floor(range.start / DAY) + 1;
  }
}

const UNIT_NAMES: Record<Granularity, string> = {
  minute: "day",
  day: "day",
  week: "week",
  month: "month",
  season: "season",
  year: "year",
};

export function unitName(g: Granularity, n: number): string {
  return n === 1 ? UNIT_NAMES[g] : `${UNIT_NAMES[g]}s`;
}
