/**
 * Every write of the PostgreSQL store, each in one transaction under the
 * namespace's write lock (write-statements.ts): replaceSession /
 * restoreNamespace / appendUnits / updateUnits, the three deletes, and the
 * `unit_history` rows they record. The checks before a write (records,
 * embeddings against the binding) run before the transaction opens.
 */
import type pg from "pg";
import { toSql } from "pgvector/pg";
import type { Session } from "../../model/conversation.js";
import { RamemError } from "../../model/errors.js";
import type {
  AppendUnitsOptions,
  DeleteUnitOptions,
  ReplaceSessionOptions,
  SessionRecords,
  StoredSession,
  UnitRecord,
  UpdateUnitsOptions,
  WriteOptions,
} from "../contract.js";
import type { ChangeStamp } from "../../model/unit-history.js";
import { metadataColumn, stampOrNow, unitBody, unitTimes } from "../unit-row.js";
import { postingsInsert } from "./schema.js";
import { insertHistory, insertUnits, lockNamespaceWrites, sessionUpsert, upsertSession, type HistoryRow } from "./write-statements.js";
import type { EmbedderBinding } from "../embedder-binding.js";
import { revisedSessionHash } from "../session-hash.js";
import {
  checkAppendable,
  checkExpectedHash,
  checkNamespaceEmpty,
  checkRecordEmbeddings,
  parseNamespaceRecords,
  parseSessionRecords,
  unitIdConflict,
  unitNotInSession,
  type CheckedSession,
} from "../check-session-records.js";

/** A checked session ready to write: each unit's JSON body serialised once. */
type PreparedSession = CheckedSession & { contentHash: string; bodies: string[] };

/** What the writer needs of its store (postgres-store.ts): driver failures already turned into RamemErrors. */
export interface PostgresWriteContext {
  readonly location: string;
  /** One transaction on one client (the store's, open-checked); any failure rolls it all back. */
  tx<T>(fn: (c: pg.PoolClient) => Promise<T>): Promise<T>;
  /** The embedder binding, read on the pool. */
  binding(): Promise<EmbedderBinding | null>;
}

export class PostgresWriter {
  constructor(private readonly store: PostgresWriteContext) {}

  /** The store checked it is open. */
  async replaceSession(session: Session, contentHash: string, units: UnitRecord[], options: ReplaceSessionOptions): Promise<void> {
    const [prepared] = await this.prepareSessions([{ ...parseSessionRecords(session, units), contentHash }]);
    await this.inWriteTransaction(prepared!.where, (c) => this.writeSession(c, prepared!, options.expectedHash, options.change, options.removedAs));
  }

  /** The store checked it is open. */
  async restoreNamespace(namespace: string, sessions: readonly SessionRecords[], options: WriteOptions): Promise<void> {
    const prepared = await this.prepareSessions(parseNamespaceRecords(namespace, sessions));
    // One transaction for the whole namespace: until COMMIT no other session sees any of it, and a crash leaves none of it.
    await this.inWriteTransaction(`namespace ${namespace}`, async (c) => {
      // Two restores of one namespace at once: the second waits, then finds it not empty.
      await c.query("SELECT pg_advisory_xact_lock(hashtext('ramem:restore'), hashtext($1))", [namespace]);
      const { rows } = await c.query<{ sessions: number; units: number }>(
        "SELECT (SELECT count(*) FROM sessions WHERE namespace = $1)::int AS sessions, (SELECT count(*) FROM units WHERE namespace = $1)::int AS units",
        [namespace],
      );
      checkNamespaceEmpty(namespace, rows[0]!);
      for (const p of prepared) await this.writeSession(c, p, undefined, options.change);
    });
  }

  /**
   * The checks before any write: vectors the binding accepts (text without
   * NUL, which PostgreSQL cannot store, is the model's rule: model/stored-text.ts).
   * Unit bodies are serialised once here, for the INSERT.
   */
  private async prepareSessions(checked: ReadonlyArray<CheckedSession & { contentHash: string }>): Promise<PreparedSession[]> {
    const prepared = checked.map((c) => ({ ...c, bodies: c.records.map(({ unit }) => unitBody(unit)) }));
    const bound = prepared.some((p) => p.records.length) ? await this.store.binding() : null;
    for (const p of prepared) checkRecordEmbeddings(p, bound, this.store.location);
    return prepared;
  }

  /** One transaction; constraint failures become RamemErrors naming `where`. */
  private async inWriteTransaction(where: string, write: (c: pg.PoolClient) => Promise<void>): Promise<void> {
    try {
      await this.store.tx(write);
    } catch (cause) {
      if (cause instanceof RamemError) throw cause;
      const e = cause as { code?: string; constraint?: string; message?: string };
      if (e.code === "23505" && e.constraint === "units_pkey") throw unitIdConflict(where, cause);
      throw new RamemError("STORE_WRITE_FAILED", `writing failed: ${e.message ?? String(cause)}`, { where, cause });
    }
  }

  /** One session's rows, on the transaction's client: the hash check, the session row, the old units out, the new ones in, the history. */
  private async writeSession(c: pg.PoolClient, p: PreparedSession, expectedHash?: string | null, change?: ChangeStamp, removedAs: "superseded" | "forgotten" = "superseded"): Promise<void> {
    const { session: s, where, records, bodies, contentHash } = p;
    const stamp = stampOrNow(change);
    // One writer per namespace at a time, whether or not the session's row
    // exists yet (a row lock cannot cover a session that is being created):
    // the hash read next is then the one the write replaces.
    await lockNamespaceWrites(c, s.namespace);
    // The hash and the units being replaced in one read (a statement after the lock: a snapshot that sees what the last writer committed).
    const found = await c.query<{ content_hash: string | null; old: Array<[string, string, string | null, string | null]> }>(
      `SELECT (SELECT content_hash FROM sessions WHERE namespace = $1 AND id = $2) AS content_hash,
              (SELECT coalesce(json_agg(json_build_array(id, content, created_at, updated_at)), '[]') FROM units WHERE namespace = $1 AND session_id = $2) AS old`,
      [s.namespace, s.id],
    );
    checkExpectedHash(where, expectedHash, found.rows[0]!.content_hash);
    const before = new Map(found.rows[0]!.old.map(([id, content, createdAt, updatedAt]) => [id, { content, createdAt, updatedAt }]));
    // The session row and the old units out in one statement (sessions first: the units' foreign key).
    const upsert = sessionUpsert(s, contentHash, records.length);
    await c.query(`WITH session_row AS (${upsert.text}) DELETE FROM units WHERE namespace = $1 AND session_id = $2`, upsert.values);
    const events: HistoryRow[] = [];
    const times = records.map(({ unit }) => {
      const prior = before.get(unit.id);
      const t = unitTimes(unit, prior, stamp.at);
      if (t.event) events.push({ unitId: unit.id, event: t.event, text: unit.content, previous: prior?.content ?? null });
      return t;
    });
    await insertUnits(c, s.namespace, s.id, 0, records, bodies, times);
    const kept = new Set(records.map((r) => r.unit.id));
    const dropped = [...before].filter(([id]) => !kept.has(id));
    for (const [id, prior] of dropped) events.push({ unitId: id, event: removedAs, text: null, previous: removedAs === "forgotten" ? null : prior.content });
    await insertHistory(c, s.namespace, s.id, stamp, events);
    if (removedAs === "forgotten" && dropped.length) {
      await c.query("UPDATE unit_history SET text = NULL, previous_text = NULL WHERE namespace = $1 AND unit_id = ANY($2::text[])", [s.namespace, dropped.map(([id]) => id)]);
    }
  }

  /** The store checked it is open. */
  async appendUnits(session: Session, contentHash: string, units: UnitRecord[], options: AppendUnitsOptions): Promise<void> {
    const [prepared] = await this.prepareSessions([{ ...parseSessionRecords(session, units), contentHash }]);
    const { session: s, where, records, bodies } = prepared!;
    const stamp = stampOrNow(options.change);
    await this.inWriteTransaction(where, async (c) => {
      await lockNamespaceWrites(c, s.namespace);
      const found = await c.query<{ content_hash: string; unit_count: number; next: number }>(
        `SELECT content_hash, unit_count, (SELECT coalesce(max(seq), -1) + 1 FROM units WHERE namespace = $1 AND session_id = $2)::int AS next
         FROM sessions WHERE namespace = $1 AND id = $2`,
        [s.namespace, s.id],
      );
      const row = found.rows[0];
      checkAppendable(where, options.expectedHash, row?.content_hash ?? null);
      await upsertSession(c, s, contentHash, row!.unit_count + records.length);
      const times = records.map(({ unit }) => unitTimes(unit, undefined, stamp.at));
      await insertUnits(c, s.namespace, s.id, row!.next, records, bodies, times);
      await insertHistory(c, s.namespace, s.id, stamp, records.map(({ unit }) => ({ unitId: unit.id, event: "created", text: unit.content, previous: null })));
    });
  }

  /** The store checked it is open and read `stored` (getSession) first. */
  async updateUnits(stored: StoredSession | null, namespace: string, sessionId: string, contentHash: string, units: UnitRecord[], options: UpdateUnitsOptions): Promise<void> {
    const where = `session ${namespace}/${sessionId}`;
    const shell = stored ?? { id: sessionId, namespace, startTime: new Date(0).toISOString(), endTime: new Date(0).toISOString(), participants: [] };
    const [prepared] = await this.prepareSessions([{ ...parseSessionRecords(shell, units), contentHash }]);
    const stamp = stampOrNow(options.change);
    await this.inWriteTransaction(where, async (c) => {
      await lockNamespaceWrites(c, namespace);
      const found = await c.query<{ content_hash: string }>("SELECT content_hash FROM sessions WHERE namespace = $1 AND id = $2", [namespace, sessionId]);
      checkExpectedHash(where, options.expectedHash, found.rows[0]?.content_hash ?? null);
      const events: HistoryRow[] = [];
      for (const [i, { unit: u, embedding }] of prepared!.records.entries()) {
        const { rows } = await c.query<{ content: string; created_at: string | null; updated_at: string | null }>(
          "SELECT content, created_at, updated_at FROM units WHERE namespace = $1 AND id = $2 AND session_id = $3 FOR UPDATE",
          [namespace, u.id, sessionId],
        );
        const row = rows[0];
        if (!row) throw unitNotInSession(where, u.id);
        const t = unitTimes(u, { content: row.content, createdAt: row.created_at, updatedAt: row.updated_at }, stamp.at);
        const ev = u.context.eventTime;
        await c.query(
          `UPDATE units SET event_start = $3::timestamptz, event_end = $4::timestamptz, participants = $5::text[], entities = $6::text[],
                            turn_ids = $7::text[], content = $8, cue = $9, body = $10::json, metadata = $11::jsonb,
                            updated_at = $12::text, updated_ts = $13::timestamptz
           WHERE namespace = $1 AND id = $2`,
          [namespace, u.id, ev?.start ?? null, ev?.end ?? null, u.context.participants.map((x) => x.toLowerCase()), u.context.entities, u.provenance.turnIds, u.content, u.cue, prepared!.bodies[i], metadataColumn(u), t.updatedAt, t.updatedAt],
        );
        await c.query("DELETE FROM unit_terms WHERE namespace = $1 AND unit_id = $2", [namespace, u.id]);
        await c.query(postingsInsert("units", "u.namespace = $1 AND u.id = $2"), [namespace, u.id]);
        // Deleted and inserted, never updated: the vector table's triggers keep one first row per value (schema 11).
        await c.query("DELETE FROM unit_vectors WHERE namespace = $1 AND unit_id = $2", [namespace, u.id]);
        await c.query("INSERT INTO unit_vectors (namespace, unit_id, embedding) VALUES ($1, $2, $3::vector)", [namespace, u.id, toSql(Array.from(embedding))]);
        if (t.event) events.push({ unitId: u.id, event: "updated", text: u.content, previous: row.content });
      }
      await c.query("UPDATE sessions SET content_hash = $3 WHERE namespace = $1 AND id = $2", [namespace, sessionId, contentHash]);
      await insertHistory(c, namespace, sessionId, stamp, events);
    });
  }

  /**
   * "forgotten" for each unit a delete is about to remove, then their text
   * out of the history (same transaction). A forgotten session takes its id
   * out of the history too (sessionId ""), a forgotten namespace its whole
   * history, as SQLite does.
   */
  private async recordForgotten(c: pg.PoolClient, namespace: string, stamp: ChangeStamp, scope: { unitId?: string; sessionId?: string }): Promise<void> {
    if (scope.unitId === undefined && scope.sessionId === undefined) {
      await c.query("DELETE FROM unit_history WHERE namespace = $1", [namespace]);
      return;
    }
    const params: unknown[] = [namespace, stamp.at, stamp.actor];
    let where = "";
    if (scope.unitId !== undefined) {
      params.push(scope.unitId);
      where = "AND id = $4";
    } else if (scope.sessionId !== undefined) {
      params.push(scope.sessionId);
      where = "AND session_id = $4";
    }
    await c.query(
      `INSERT INTO unit_history (namespace, unit_id, session_id, event, at, actor)
       SELECT namespace, id, session_id, 'forgotten', $2, $3 FROM units WHERE namespace = $1 ${where} ORDER BY session_id, seq`,
      params,
    );
    const scoped = scope.unitId !== undefined ? "AND unit_id = $2" : scope.sessionId !== undefined ? "AND session_id = $2" : "";
    await c.query(
      `UPDATE unit_history SET text = NULL, previous_text = NULL WHERE namespace = $1 ${scoped} AND (text IS NOT NULL OR previous_text IS NOT NULL)`,
      scoped ? [namespace, scope.unitId ?? scope.sessionId] : [namespace],
    );
    if (scope.sessionId !== undefined) await c.query("UPDATE unit_history SET session_id = '' WHERE namespace = $1 AND session_id = $2", [namespace, scope.sessionId]);
  }

  /** On the store's transaction, which checks it is open. */
  async deleteUnit(namespace: string, unitId: string, options: DeleteUnitOptions): Promise<boolean> {
    const stamp = stampOrNow(options.change);
    return this.store.tx(async (c) => {
      await lockNamespaceWrites(c, namespace);
      // After the lock: the hash the last writer committed.
      const { rows: found } = await c.query<{ session_id: string; content_hash: string | null }>(
        "SELECT u.session_id, s.content_hash FROM units u LEFT JOIN sessions s ON s.namespace = u.namespace AND s.id = u.session_id WHERE u.namespace = $1 AND u.id = $2",
        [namespace, unitId],
      );
      const row = found[0];
      if (!row) return false;
      if (options.expectedHash !== undefined) checkExpectedHash(`session ${namespace}/${row.session_id}`, options.expectedHash, row.content_hash);
      await this.recordForgotten(c, namespace, stamp, { unitId });
      await c.query("DELETE FROM units WHERE namespace = $1 AND id = $2", [namespace, unitId]);
      // A new hash: a writer that read the session before this delete must not write the unit back (session-hash.ts).
      await c.query("UPDATE sessions SET unit_count = greatest(unit_count - 1, 0), content_hash = $3 WHERE namespace = $1 AND id = $2", [
        namespace,
        row.session_id,
        revisedSessionHash(row.content_hash ?? "", `forget ${unitId}`),
      ]);
      return true;
    });
  }

  async deleteSession(namespace: string, sessionId: string, options: WriteOptions): Promise<number> {
    const stamp = stampOrNow(options.change);
    return this.store.tx(async (c) => {
      await lockNamespaceWrites(c, namespace);
      await this.recordForgotten(c, namespace, stamp, { sessionId });
      const { rowCount } = await c.query("DELETE FROM units WHERE namespace = $1 AND session_id = $2", [namespace, sessionId]);
      await c.query("DELETE FROM sessions WHERE namespace = $1 AND id = $2", [namespace, sessionId]);
      return rowCount ?? 0;
    });
  }

  async deleteNamespace(namespace: string, options: WriteOptions): Promise<number> {
    const stamp = stampOrNow(options.change);
    return this.store.tx(async (c) => {
      await lockNamespaceWrites(c, namespace);
      await this.recordForgotten(c, namespace, stamp, {});
      const { rowCount } = await c.query("DELETE FROM units WHERE namespace = $1", [namespace]);
      await c.query("DELETE FROM sessions WHERE namespace = $1", [namespace]);
      return rowCount ?? 0;
    });
  }
}
