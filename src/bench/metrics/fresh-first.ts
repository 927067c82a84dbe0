import { mean } from "./internal.js";

export interface FreshFirstRow {
  /** Session ids, best first. */
  rankedSessions: readonly string[];
  /** The question's answer sessions with their dates (ISO). */
  answerSessions: ReadonlyArray<{ id: string; date: string }>;
}

/**
 * Knowledge-update questions ("what is my personal best now?") are answered by
 * the newest of their evidence sessions; the older ones hold a superseded
 * value. Fresh-first is the share of such questions whose newest evidence
 * session ranks above every older one (a missing session ranks last; a
 * question with one evidence session, or none found, is not counted).
 */
export function freshFirst(rows: readonly FreshFirstRow[]): { n: number; freshFirst: number } {
  const scores: number[] = [];
  for (const r of rows) {
    if (r.answerSessions.length < 2) continue;
    const rank = (id: string) => {
      const i = r.rankedSessions.indexOf(id);
      return i < 0 ? Number.POSITIVE_INFINITY : i;
    };
    const byDate = [...r.answerSessions].sort((a, b) => b.date.localeCompare(a.date));
    const newest = byDate[0]!;
    if (r.answerSessions.every((s) => rank(s.id) === Number.POSITIVE_INFINITY)) {
      scores.push(0);
      continue;
    }
    scores.push(byDate.slice(1).every((older) => rank(newest.id) < rank(older.id)) ? 1 : 0);
  }
  return { n: scores.length, freshFirst: scores.length ? mean(scores) : Number.NaN };
}
