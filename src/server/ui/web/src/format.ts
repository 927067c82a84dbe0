import type { TimeInterval } from "./types.js";

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** A date as the store keeps it (UTC), short: "8 May 2023 13:56". */
export function formatDate(iso: string, withTime = true): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const day = `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
  return withTime ? `${day} ${d.toISOString().slice(11, 16)}` : day;
}

export function formatSpan(start: string, end: string): string {
  if (start === end) return formatDate(start);
  return start.slice(0, 10) === end.slice(0, 10) ? `${formatDate(start)}–${end.slice(11, 16)}` : `${formatDate(start)} – ${formatDate(end)}`;
}

export function formatInterval(t: TimeInterval): string {
  if (t.granularity === "year") return String(new Date(t.start).getUTCFullYear());
  if (t.granularity === "month") {
    const d = new Date(t.start);
    return `${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
  }
  if (t.granularity === "day" || t.granularity === "week") return `${formatDate(t.start, false)}${t.granularity === "week" ? " (week)" : ""}`;
  return formatSpan(t.start, t.end);
}

/** "1 unit", "2 units", "0 units": a count with its noun, singular only for exactly one. */
export function countOf(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}
