import type pg from "pg";
import { toSql } from "pgvector/pg";
import type { Session } from "../../model/conversation.js";
import type { UnitHistoryEvent, ChangeStamp } from "../../model/unit-history.js";
import type { UnitRecord } from "../contract.js";
import { metadataColumn } from "../unit-row.js";
import { postingsInsert } from "./schema.js";

/**
 * The PostgreSQL store's write statements (postgres-store.ts runs them in
 * its transactions): the namespace's write lock, the session row's upsert,
 * the multi-row INSERTs of units with their vectors and postings, and of
 * their history.
 */

/** Rows per multi-row INSERT: stays far below PostgreSQL's 65,535 parameters. */
const INSERT_CHUNK = 500;

/** `$a, $b, ...` placeholders for `rows` rows of `width` parameters after the first `skip`, with optional casts per column. */
function valuesList(rows: number, casts: readonly string[], skip = 0): string {
  const width = casts.length;
  return Array.from({ length: rows }, (_, r) => `(${casts.map((c, i) => `$${skip + r * width + i + 1}${c}`).join(", ")})`).join(", ");
}

/**
 * One writer per namespace at a time, until its transaction ends. Every write
 * of units updates the namespace's rows in namespace_stats and namespace_terms
 * (statement triggers), one lexeme's row at a time in no fixed order: two
 * writers of one namespace that each held some of those rows deadlocked
 * (the contract suite's concurrent ingest, once the postings went into the
 * units INSERT's statement). They already waited for each other at the
 * namespace_stats row until commit, so this costs them little; writers of
 * different namespaces still run side by side. The lock also covers a session
 * being created, which no row lock can.
 */
export async function lockNamespaceWrites(c: pg.PoolClient, namespace: string): Promise<void> {
  await c.query("SELECT pg_advisory_xact_lock(hashtext('ramem:write'), hashtext($1))", [namespace]);
}

/** The session row's INSERT … ON CONFLICT; `$1` is the namespace and `$2` the id, so a statement around it can use them. */
export function sessionUpsert(s: Session, contentHash: string, unitCount: number): { text: string; values: unknown[] } {
  return {
    text: `INSERT INTO sessions (namespace, id, start_time, end_time, start_at, end_at, participants, content_hash, unit_count, metadata)
     VALUES ($1, $2, $3, $4, $5::timestamptz, $6::timestamptz, $7::text[], $8, $9, $10::jsonb)
     ON CONFLICT (namespace, id) DO UPDATE SET
       start_time = excluded.start_time, end_time = excluded.end_time,
       start_at = excluded.start_at, end_at = excluded.end_at,
       participants = excluded.participants, content_hash = excluded.content_hash,
       unit_count = excluded.unit_count, metadata = excluded.metadata`,
    values: [s.namespace, s.id, s.startTime, s.endTime, s.startTime, s.endTime, s.participants, contentHash, unitCount, metadataColumn(s)],
  };
}

export async function upsertSession(c: pg.PoolClient, s: Session, contentHash: string, unitCount: number): Promise<void> {
  const { text, values } = sessionUpsert(s, contentHash, unitCount);
  await c.query(text, values);
}

/** Column casts of one row of the units INSERT. */
const UNIT_CASTS = ["", "", "", "::int", "::timestamptz", "::timestamptz", "::text[]", "::text[]", "::text[]", "", "", "::json", "::jsonb", "", "::timestamptz", "", "::timestamptz"];

/**
 * Units, their vectors and their BM25 postings, at positions first, first + 1,
 * ...: one statement per chunk. The postings are unnested from the lexemes the
 * units INSERT returns, so the new rows are not looked up again; unit_vectors'
 * foreign key is checked at the end of the statement, when the units are in.
 */
export async function insertUnits(
  c: pg.PoolClient,
  namespace: string,
  sessionId: string,
  first: number,
  records: readonly UnitRecord[],
  bodies: readonly string[],
  times: ReadonlyArray<{ createdAt: string; updatedAt: string }>,
): Promise<void> {
  for (let off = 0; off < records.length; off += INSERT_CHUNK) {
    const chunk = records.slice(off, off + INSERT_CHUNK);
    const unitParams: unknown[] = [];
    const vecParams: unknown[] = [];
    chunk.forEach(({ unit: u, embedding }, i) => {
      const ev = u.context.eventTime;
      const t = times[off + i]!;
      unitParams.push(
        namespace, u.id, sessionId, first + off + i, ev?.start ?? null, ev?.end ?? null,
        u.context.participants.map((p) => p.toLowerCase()), u.context.entities, u.provenance.turnIds,
        u.content, u.cue, bodies[off + i], metadataColumn(u), t.createdAt, t.createdAt, t.updatedAt, t.updatedAt,
      );
      vecParams.push(namespace, u.id, toSql(Array.from(embedding)));
    });
    await c.query(
      `WITH inserted AS (
         INSERT INTO units (namespace, id, session_id, seq, event_start, event_end,
                            participants, entities, turn_ids, content, cue, body, metadata, created_at, created_ts, updated_at, updated_ts)
         VALUES ${valuesList(chunk.length, UNIT_CASTS)}
         RETURNING namespace, id, lexemes, doc_len
       ), vectors AS (
         INSERT INTO unit_vectors (namespace, unit_id, embedding) VALUES ${valuesList(chunk.length, ["", "", "::vector"], unitParams.length)}
       )
       ${postingsInsert("inserted", "true")}`,
      [...unitParams, ...vecParams],
    );
  }
}

export interface HistoryRow {
  unitId: string;
  event: UnitHistoryEvent["event"];
  text: string | null;
  previous: string | null;
}

export async function insertHistory(c: pg.PoolClient, namespace: string, sessionId: string, stamp: ChangeStamp, events: readonly HistoryRow[]): Promise<void> {
  for (let off = 0; off < events.length; off += INSERT_CHUNK) {
    const chunk = events.slice(off, off + INSERT_CHUNK);
    const params = chunk.flatMap((e) => [namespace, e.unitId, sessionId, e.event, stamp.at, stamp.actor, e.text, e.previous]);
    await c.query(
      `INSERT INTO unit_history (namespace, unit_id, session_id, event, at, actor, text, previous_text) VALUES ${valuesList(chunk.length, ["", "", "", "", "", "", "", ""])}`,
      params,
    );
  }
}
