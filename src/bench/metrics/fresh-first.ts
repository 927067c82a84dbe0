import { mean } from "./internal.js";

export interface FreshFirstRow {
  /** Session ids, best first. */
  rankedSessions: readonly string[];
  /** The question's answer sessions with their dates (ISO). */
  answerSessions: ReadonlyArray<{ id: string; date: string }>;
}

export interface FreshFirstScore {
  n: number;
  freshFirst: number;
}

/**
 * Knowledge-update questions ("what is my personal best now?") are answered by
 * the newest of their evidence sessions; the older ones hold a superseded
 * value. Fresh-first is the share of such questions whose newest evidence
 * session ranks above every older one (a missing session ranks last; a
 * question with one evidence session, or none found, is not counted).
 */
export function freshFirst(rows: readonly FreshFirstRow[]): FreshFirstScore {
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

/**
 * Fresh-first for every question type that has questions with two or more
 * answer sessions (types without one are left out, not reported as n=0).
 * On other types it says only whether the newest session ranks first, not
 * that the older ones are stale: a multi-session question needs them all.
 */
export function freshFirstPerType(rows: ReadonlyArray<FreshFirstRow & { questionType: string }>): Record<string, FreshFirstScore> {
  const byType = new Map<string, FreshFirstRow[]>();
  for (const r of rows) byType.set(r.questionType, [...(byType.get(r.questionType) ?? []), r]);
  const out: Record<string, FreshFirstScore> = {};
  for (const type of [...byType.keys()].sort()) {
    const score = freshFirst(byType.get(type)!);
    if (score.n > 0) out[type] = score;
  }
  return out;
}

/** A hit as the older-evidence measure reads it: its session, its turns and the validity the pack gives it. */
export interface ValidityHit {
  sessionId: string;
  turnIds: readonly string[];
  /** `hit.unit.validity`; absent when the pack says nothing about the unit's validity. */
  validity?: { validTo: string | null; supersededBy: string | null } | null;
}

export interface OlderEvidenceRow {
  /** Hits best first; only the first `depth` are read. */
  hits: readonly ValidityHit[];
  /** The question's answer sessions with their dates (ISO). */
  answerSessions: ReadonlyArray<{ id: string; date: string }>;
  /** Evidence turn ids (has_answer), with the session that holds each. */
  evidence: ReadonlyArray<{ turnId: string; sessionId: string }>;
}

export interface OlderEvidenceMarked {
  /** Hits, over all questions, that cover an evidence turn of an answer session older than the newest one. */
  n: number;
  /** The share of them the pack marks as no longer valid (validTo or supersededBy set); NaN when n is 0. */
  markedEarlier: number;
}

/** Top hits read by olderEvidenceMarked: the evidence pack a caller would see. */
export const OLDER_EVIDENCE_DEPTH = 10;

/**
 * For knowledge-update questions: of the top hits that cover an evidence turn
 * in an answer session older than the newest answer session (the superseded
 * value of the same key), the share whose `unit.validity` says it no longer
 * holds. Counted per hit, so a question whose old value comes back in three
 * units weighs three; a question with one answer session adds nothing.
 */
export function olderEvidenceMarked(rows: readonly OlderEvidenceRow[], depth = OLDER_EVIDENCE_DEPTH): OlderEvidenceMarked {
  const marks: number[] = [];
  for (const r of rows) {
    if (r.answerSessions.length < 2) continue;
    const newest = r.answerSessions.reduce((a, b) => (b.date > a.date ? b : a)).date;
    const older = new Set(r.answerSessions.filter((s) => s.date < newest).map((s) => s.id));
    const olderTurns = new Set(r.evidence.filter((e) => older.has(e.sessionId)).map((e) => `${e.sessionId}\u0000${e.turnId}`));
    if (olderTurns.size === 0) continue;
    for (const h of r.hits.slice(0, depth)) {
      if (!h.turnIds.some((t) => olderTurns.has(`${h.sessionId}\u0000${t}`))) continue;
      const v = h.validity;
      marks.push(v && (v.validTo !== null || v.supersededBy !== null) ? 1 : 0);
    }
  }
  return { n: marks.length, markedEarlier: marks.length ? mean(marks) : Number.NaN };
}
