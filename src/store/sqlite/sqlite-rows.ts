/**
 * SQLite rows ↔ the model: session and unit rows as read back (JSON text
 * columns parsed), the WHERE of listUnits/countUnits, the FTS `ns_key` token
 * of a namespace, and the limit clamp every read and search applies.
 */
import type { MemoryUnit } from "../../model/memory-unit.js";
import { RamemError } from "../../model/errors.js";
import type { StoredSession, UnitFilter } from "../contract.js";
import { unitFromColumns, type UnitColumns } from "../unit-row.js";
import { storedSessionFromRow, type SessionRow as SessionRowOf } from "../session-row.js";
import { echoValue } from "../../model/echo-value.js";
import { sqliteFilter } from "./sqlite-filter.js";

export type SessionRow = SessionRowOf<string>;

export const toStoredSession = (r: SessionRow): StoredSession => storedSessionFromRow(r, (ps) => JSON.parse(ps) as string[]);

export type UnitRow = UnitColumns<string>;

export const toUnit = (r: UnitRow): MemoryUnit => unitFromColumns(r, (j) => JSON.parse(j));

/** The namespace's one FTS5 token (column ns_key): hex keeps any name one token, so no namespace's token is another's. */
export const namespaceToken = (namespace: string): string => `n${Buffer.from(namespace).toString("hex").toUpperCase()}`;

export function clampLimit(limit: number | undefined, fallback: number): number {
  if (limit === undefined || !Number.isFinite(limit)) return fallback;
  return Math.max(0, Math.floor(limit));
}

/** The WHERE of listUnits and countUnits over `units u JOIN sessions s`; parameters appended to `params`. */
export function unitWhere(namespace: string, filter: UnitFilter, params: unknown[]): string {
  const where = ["u.namespace = ?"];
  params.push(namespace);
  if (filter.sessionId !== undefined) {
    where.push("u.session_id = ?");
    params.push(filter.sessionId);
  }
  if (filter.participant !== undefined) {
    where.push("EXISTS (SELECT 1 FROM json_each(u.participants) WHERE value = ?)");
    params.push(filter.participant.toLowerCase());
  }
  // Half-open overlap of [start, end) with [from, to); a session
  // with start == end is a point, and counts when from <= start < to.
  if (filter.from !== undefined) {
    where.push("(s.end_ms > ? OR (s.end_ms = s.start_ms AND s.start_ms >= ?))");
    const from = parseTime(filter.from, "from");
    params.push(from, from);
  }
  if (filter.to !== undefined) {
    where.push("s.start_ms < ?");
    params.push(parseTime(filter.to, "to"));
  }
  if (filter.where) where.push(sqliteFilter(filter.where, params));
  return where.join(" AND ");
}

function parseTime(iso: string, field: string): number {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) {
    throw new RamemError("INVALID_FILTER", `filter.${field} is not an ISO date-time: ${echoValue(iso)}`, {
      hint: "use e.g. 2023-05-08T00:00:00Z",
    });
  }
  return ms;
}
