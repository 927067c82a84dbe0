// Shared helpers for the metric files; not re-exported from index.ts.
import type { QuestionRetrieval, RankedUnit } from "./types.js";

export function assertPositiveInteger(name: string, value: number): void {
  if (!Number.isInteger(value) || value < 1) {
    throw new RangeError(`${name} must be a positive integer, got ${value}`);
  }
}

/** Mean of an empty list is NaN on purpose: `n` says why, and JSON turns it into null. */
export function mean(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}

export function coversEvidence(unit: RankedUnit, evidence: ReadonlySet<string>): boolean {
  return unit.turnIds.some((t) => evidence.has(t));
}

/**
 * A wrong-episode unit: it covers no evidence turn and its session holds none
 * either. A non-covering unit from an evidence session is neutral, neither
 * ground truth nor distractor.
 */
export function isDistractor(
  unit: RankedUnit,
  evidence: ReadonlySet<string>,
  evidenceSessions: ReadonlySet<string>,
): boolean {
  return !coversEvidence(unit, evidence) && !evidenceSessions.has(unit.sessionId);
}

export function evidenceSets(q: QuestionRetrieval): { turns: Set<string>; sessions: Set<string> } {
  return { turns: new Set(q.evidenceTurnIds), sessions: new Set(q.evidenceSessionIds) };
}

/** 1-based rank of the first unit matching `pred` within the first `limit` units, or undefined. */
export function firstRank(
  ranked: readonly RankedUnit[],
  pred: (u: RankedUnit) => boolean,
  limit: number = ranked.length,
): number | undefined {
  const end = Math.min(limit, ranked.length);
  for (let i = 0; i < end; i++) {
    if (pred(ranked[i]!)) return i + 1;
  }
  return undefined;
}
