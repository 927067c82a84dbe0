/** Date arithmetic on UTC day-start epoch milliseconds, for time grounding (time-grounding.ts). */

export const DAY = 86_400_000;

export function utcDay(y: number, m: number, d: number): number {
  return Date.UTC(y, m - 1, d);
}
export function dayOf(ms: number): number {
  return Math.floor(ms / DAY) * DAY;
}
export function isoWeekStart(dayMs: number): number {
  const dow = new Date(dayMs).getUTCDay(); // 0 = Sunday
  return dayMs - ((dow + 6) % 7) * DAY;
}
export function monthStart(dayMs: number, addMonths = 0): number {
  const d = new Date(dayMs);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + addMonths, 1);
}
export function yearStart(dayMs: number, addYears = 0): number {
  return Date.UTC(new Date(dayMs).getUTCFullYear() + addYears, 0, 1);
}
export function addMonthsExact(dayMs: number, months: number): number {
  const d = new Date(dayMs);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, d.getUTCDate());
}
export function ymd(ms: number): { year: number; month: number; day: number } {
  const d = new Date(ms);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}
