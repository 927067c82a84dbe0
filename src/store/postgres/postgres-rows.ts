/**
 * PostgreSQL rows ↔ the model: session and unit rows as the driver returns
 * them (arrays and json already parsed), the column lists and session join
 * the reads share, the WHERE of listUnits/countUnits, and the limit clamp.
 */
import type { MemoryUnit } from "../../model/memory-unit.js";
import { RamemError } from "../../model/errors.js";
import type { Metadata } from "../../model/metadata.js";
import type { StoredSession, UnitFilter } from "../contract.js";
import { unitFromColumns, type UnitColumns } from "../unit-row.js";
import { storedSessionFromRow, type SessionRow as SessionRowOf } from "../session-row.js";
import { echoValue } from "../../model/echo-value.js";
import { postgresFilter } from "./postgres-filter.js";

export type SessionRow = SessionRowOf<string[]>;

/**
 * Joins each unit to its session's span (what UNIT_COLUMNS reads as s.*) by
 * key, one index probe per unit. For the ~100 units of a recall's pool the
 * plain join (UNITS_WITH_SESSION) let the planner hash every session of the
 * namespace first: 2.8 of getUnits' 3.8 ms at 100k units (5,000 sessions);
 * LIMIT 1 (sessions are unique by key) keeps the lookup from being flattened
 * back into that join.
 */
export const SESSION_OF_UNIT = "CROSS JOIN LATERAL (SELECT s.start_time, s.end_time FROM sessions s WHERE s.namespace = u.namespace AND s.id = u.session_id LIMIT 1) s";

/**
 * What a StoredSession is read from, and nothing else: `SELECT *` also
 * fetched start_at/end_at, which the driver parses into Dates nobody reads
 * (listSessions of 5,000 sessions: 46-60 ms p50 with `*`, 25-34 ms with these).
 */
export const SESSION_COLUMNS = "namespace, id, start_time, end_time, participants, content_hash, unit_count, metadata";

export const toStoredSession = (r: SessionRow): StoredSession => storedSessionFromRow(r, (ps) => ps);

export type UnitRow = UnitColumns<MemoryUnit | Metadata>;

export const toUnit = (r: UnitRow): MemoryUnit => unitFromColumns(r, (j) => j);

export function clampLimit(limit: number | undefined, fallback: number): number {
  if (limit === undefined || !Number.isFinite(limit)) return fallback;
  return Math.max(0, Math.floor(limit));
}

/** The WHERE of listUnits and countUnits over `units u JOIN sessions s`; parameters appended to `params`. */
export function unitWhere(namespace: string, filter: UnitFilter, params: unknown[]): string {
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const where = [`u.namespace = ${p(namespace)}`];
  if (filter.sessionId !== undefined) where.push(`u.session_id = ${p(filter.sessionId)}`);
  if (filter.participant !== undefined) where.push(`u.participants @> ARRAY[${p(filter.participant.toLowerCase())}]::text[]`);
  // Half-open overlap of [start, end) with [from, to); a session
  // with start == end is a point, and counts when from <= start < to.
  if (filter.from !== undefined) {
    const from = p(parseTime(filter.from, "from"));
    where.push(`(s.end_at > ${from}::timestamptz OR (s.end_at = s.start_at AND s.start_at >= ${from}::timestamptz))`);
  }
  if (filter.to !== undefined) where.push(`s.start_at < ${p(parseTime(filter.to, "to"))}::timestamptz`);
  if (filter.where) where.push(postgresFilter(filter.where, params));
  return where.join(" AND ");
}

function parseTime(iso: string, field: string): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) {
    throw new RamemError("INVALID_FILTER", `filter.${field} is not an ISO date-time: ${echoValue(iso)}`, {
      hint: "use e.g. 2023-05-08T00:00:00Z",
    });
  }
  return new Date(ms).toISOString();
}
