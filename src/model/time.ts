import { z } from "zod";
import { StoredText } from "./stored-text.js";

/**
 * All times are ISO 8601 strings in UTC. Conversation data rarely carries a
 * time zone (LoCoMo does not), so wall-clock times are read as UTC and every
 * comparison happens in one frame. Intervals are half-open: [start, end).
 */
export const IsoDateTime = z.iso.datetime({ offset: true });

export const Granularity = z.enum(["minute", "day", "week", "month", "season", "year"]);
export type Granularity = z.infer<typeof Granularity>;

export const TimeInterval = z
  .object({
    start: IsoDateTime,
    end: IsoDateTime,
    granularity: Granularity,
  })
  .refine((t) => Date.parse(t.start) < Date.parse(t.end), {
    message: "interval end must be after its start",
  });
export type TimeInterval = z.infer<typeof TimeInterval>;

/** A time expression found in text, and the interval it was grounded to. */
export const MentionedTime = z.object({
  /** The expression as written ("last August", "yesterday"). */
  text: StoredText,
  interval: TimeInterval,
  /** "absolute" needs no reference date ("8 May 2023"); "relative" does ("yesterday"). */
  kind: z.enum(["absolute", "relative"]),
});
export type MentionedTime = z.infer<typeof MentionedTime>;

export function intervalsOverlap(a: { start: string; end: string }, b: { start: string; end: string }): boolean {
  return Date.parse(a.start) < Date.parse(b.end) && Date.parse(b.start) < Date.parse(a.end);
}

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** "7 May 2023", "week of 1 May 2023", "August 2022", "summer 2022", "2022": what a reader needs, at the interval's granularity. */
export function describeInterval(t: TimeInterval): string {
  const d = new Date(t.start);
  const day = `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
  switch (t.granularity) {
    case "minute":
      return `${day} ${d.toISOString().slice(11, 16)}`;
    case "day": {
      const days = Math.round((Date.parse(t.end) - Date.parse(t.start)) / 86_400_000);
      return days <= 1 ? day : `${day} – ${describeInterval({ ...t, start: new Date(Date.parse(t.end) - 86_400_000).toISOString() })}`;
    }
    case "week":
      return `week of ${day}`;
    case "month":
      return `${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
    case "season": {
      const mid = new Date((Date.parse(t.start) + Date.parse(t.end)) / 2);
      const m = mid.getUTCMonth();
      const season = m <= 1 || m === 11 ? "winter" : m <= 4 ? "spring" : m <= 7 ? "summer" : "autumn";
      return `${season} ${mid.getUTCFullYear()}`;
    }
    case "year":
      return String(d.getUTCFullYear());
  }
}

/** Calendar day of an ISO time, "2023-05-08". */
export function isoDay(iso: string): string {
  return iso.slice(0, 10);
}
