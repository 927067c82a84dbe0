import type { MemoryUnit } from "../model/memory-unit.js";
import type { Metadata } from "../model/metadata.js";
import type { ChangeStamp } from "../model/unit-history.js";
import { LIBRARY_ACTOR } from "../model/unit-history.js";

/**
 * What both dialects keep beside a unit's JSON body and lay over it on every
 * read, so that one write of the session row or of these columns is seen by
 * every unit at once: the session span (an append widens it without
 * rewriting the session's units), the unit's metadata (a filter column) and
 * its created/updated times.
 */
export interface UnitOverlay {
  sessionStart: string;
  sessionEnd: string;
  metadata: Metadata | null;
  createdAt: string | null;
  updatedAt: string | null;
}

export function unitFromRow(body: MemoryUnit, o: UnitOverlay): MemoryUnit {
  const { metadata: _m, createdAt: _c, updatedAt: _u, ...rest } = body;
  return {
    ...rest,
    context: { ...body.context, session: { sessionId: body.context.session.sessionId, start: o.sessionStart, end: o.sessionEnd } },
    ...(o.metadata && Object.keys(o.metadata).length ? { metadata: o.metadata } : {}),
    ...(o.createdAt ? { createdAt: o.createdAt } : {}),
    ...(o.updatedAt ? { updatedAt: o.updatedAt } : {}),
  };
}

/** The JSON body as stored: without what the columns hold. */
export function unitBody(unit: MemoryUnit): string {
  const { metadata: _m, createdAt: _c, updatedAt: _u, ...rest } = unit;
  return JSON.stringify(rest);
}

/** A unit's metadata as its column holds it (null for none). */
export function metadataColumn(unit: { metadata?: Metadata | undefined }): string | null {
  return unit.metadata && Object.keys(unit.metadata).length ? JSON.stringify(unit.metadata) : null;
}

export function stampOrNow(change: ChangeStamp | undefined): ChangeStamp {
  return change ?? { actor: LIBRARY_ACTOR, at: new Date().toISOString() };
}

/**
 * The created/updated times of a unit being written: a unit the session held
 * keeps its created time (and its updated time unless its content changed);
 * a new one takes what the caller gave (an import) or the change's time.
 */
export function unitTimes(
  unit: MemoryUnit,
  before: { content: string; createdAt: string | null; updatedAt: string | null } | undefined,
  at: string,
): { createdAt: string; updatedAt: string; event: "created" | "updated" | null } {
  if (!before) return { createdAt: unit.createdAt ?? at, updatedAt: unit.updatedAt ?? unit.createdAt ?? at, event: "created" };
  const changed = before.content !== unit.content;
  return {
    createdAt: before.createdAt ?? unit.createdAt ?? at,
    updatedAt: changed ? at : (before.updatedAt ?? before.createdAt ?? at),
    event: changed ? "updated" : null,
  };
}

/** Every read of a unit joins its session: the span a unit shows is the session's current one (both dialects). */
export const UNITS_WITH_SESSION = "units u JOIN sessions s ON s.namespace = u.namespace AND s.id = u.session_id";
export const UNIT_COLUMNS = "u.body AS body, s.start_time AS start_time, s.end_time AS end_time, u.metadata AS metadata, u.created_at AS created_at, u.updated_at AS updated_at";

/** A row of UNIT_COLUMNS; `Json` is how the driver hands JSON back (text in SQLite, parsed in PostgreSQL). */
export interface UnitColumns<Json> {
  body: Json;
  start_time: string;
  end_time: string;
  metadata: Json | null;
  created_at: string | null;
  updated_at: string | null;
}

export function unitFromColumns<Json>(r: UnitColumns<Json>, parse: (json: Json) => unknown): MemoryUnit {
  return unitFromRow(parse(r.body) as MemoryUnit, {
    sessionStart: r.start_time,
    sessionEnd: r.end_time,
    metadata: r.metadata === null ? null : (parse(r.metadata) as Metadata),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  });
}
