/**
 * Post-processing of time grounding (time-grounding.ts): chrono's single
 * instant becomes an interval whose width matches what the expression
 * states ("last week" is a week, not a Monday 13:56), as a GroundedTime.
 */
import type { ParsedComponents, ParsedResult } from "chrono-node";
import type { Granularity } from "../model/time.js";
import type { GroundedTime } from "./time-grounding.js";
import { DAY, addMonthsExact, isoWeekStart, monthStart, utcDay, yearStart } from "./time-grounding-calendar.js";
import { TAG_CONF, TAG_GRAN, TAG_SPAN } from "./time-grounding-parsers.js";

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

export function toGrounded(r: ParsedResult, refDay: number): GroundedTime | null {
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
