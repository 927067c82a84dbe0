/**
 * Every write of the SQLite store, each in one `BEGIN IMMEDIATE` transaction:
 * replaceSession / restoreNamespace / appendUnits / updateUnits, the three
 * deletes, and the rows they write beside the units — `fts`, `vec`,
 * `vec_log` (what the in-memory indexes catch up from) and `unit_history`.
 * The store (sqlite-store.ts) checks the handle is writable, then calls in.
 */
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
import type { ChangeStamp, UnitHistoryEvent } from "../../model/unit-history.js";
import { metadataColumn, stampOrNow, unitBody, unitTimes } from "../unit-row.js";
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
import type { SqliteHandle } from "./sqlite-handle.js";
import type { NamespaceCaches } from "./namespace-cache.js";
import type { SqliteLexicalIndexes } from "./lexical-index.js";
import { namespaceToken } from "./sqlite-rows.js";

export class SqliteWriter {
  constructor(
    private readonly handle: SqliteHandle,
    private readonly caches: NamespaceCaches,
    private readonly lexical: SqliteLexicalIndexes,
  ) {}

  private stmt(sql: string) {
    return this.handle.stmt(sql);
  }

  private get db() {
    return this.handle.db;
  }

  replaceSession(session: Session, contentHash: string, units: UnitRecord[], options: ReplaceSessionOptions): void {
    const checked = parseSessionRecords(session, units);
    checkRecordEmbeddings(checked, checked.records.length ? this.handle.binding() : null, this.handle.location);
    // IMMEDIATE: the write lock is held from here, so no other process can change the session between the hash check and the write.
    this.inWriteTransaction(checked.where, () => this.writeSession(checked, contentHash, options.expectedHash, options.change, options.removedAs));
  }

  restoreNamespace(namespace: string, sessions: readonly SessionRecords[], options: WriteOptions): void {
    const checked = parseNamespaceRecords(namespace, sessions);
    const bound = checked.some((c) => c.records.length) ? this.handle.binding() : null;
    for (const c of checked) checkRecordEmbeddings(c, bound, this.handle.location);
    // One transaction for the whole namespace: a crash before COMMIT leaves none of it in the file.
    this.inWriteTransaction(`namespace ${namespace}`, () => {
      const one = (sql: string) => Number(this.stmt(sql).pluck().get(namespace));
      checkNamespaceEmpty(namespace, { sessions: one("SELECT count(*) FROM sessions WHERE namespace = ?"), units: one("SELECT count(*) FROM units WHERE namespace = ?") });
      for (const c of checked) this.writeSession(c, c.contentHash, undefined, options.change);
    });
  }

  /** Runs `write` in a BEGIN IMMEDIATE transaction; driver failures become RamemErrors naming `where`. */
  private inWriteTransaction(where: string, write: () => void): void {
    try {
      this.caches.forget();
      this.db.transaction(write).immediate();
    } catch (cause) {
      if (cause instanceof RamemError) throw cause;
      const msg = (cause as Error).message ?? String(cause);
      if (/UNIQUE constraint failed: units/.test(msg)) throw unitIdConflict(where, cause);
      throw new RamemError("STORE_WRITE_FAILED", `writing failed: ${msg}`, { where, cause });
    }
  }

  /** One session's rows (inside a write transaction): the hash check, the old units out, the session and its units in, the history. */
  private writeSession(checked: CheckedSession, contentHash: string, expectedHash?: string | null, change?: ChangeStamp, removedAs: "superseded" | "forgotten" = "superseded"): void {
    const { session: s, where, records: parsed } = checked;
    const stamp = stampOrNow(change);
    const found = this.stmt("SELECT content_hash FROM sessions WHERE namespace = ? AND id = ?").pluck().get(s.namespace, s.id) as string | undefined;
    checkExpectedHash(where, expectedHash, found ?? null);
    const before = new Map(
      (
        this.stmt("SELECT id, json_extract(body, '$.content') AS content, created_at, updated_at FROM units WHERE namespace = ? AND session_id = ?").all(s.namespace, s.id) as Array<{
          id: string;
          content: string;
          created_at: string | null;
          updated_at: string | null;
        }>
      ).map((r) => [r.id, { content: r.content, createdAt: r.created_at, updatedAt: r.updated_at }]),
    );
    this.deleteSessionUnits(s.namespace, s.id);
    this.upsertSession(s, contentHash, parsed.length);
    parsed.forEach((rec, seq) => {
      const prior = before.get(rec.unit.id);
      const times = unitTimes(rec.unit, prior, stamp.at);
      this.insertUnit(s.namespace, s.id, seq, rec, times);
      if (times.event) this.recordHistory(s.namespace, rec.unit.id, s.id, times.event, stamp, rec.unit.content, prior?.content ?? null);
    });
    const kept = new Set(parsed.map((r) => r.unit.id));
    for (const [id, prior] of before) {
      if (kept.has(id)) continue;
      this.recordHistory(s.namespace, id, s.id, removedAs, stamp, null, removedAs === "forgotten" ? null : prior.content);
      if (removedAs === "forgotten") this.eraseHistoryText(s.namespace, { unitId: id });
    }
  }

  private upsertSession(s: Session, contentHash: string, unitCount: number): void {
    this.stmt(
      `INSERT INTO sessions (namespace, id, start_time, end_time, start_ms, end_ms, participants, content_hash, unit_count, metadata)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (namespace, id) DO UPDATE SET
         start_time = excluded.start_time, end_time = excluded.end_time,
         start_ms = excluded.start_ms, end_ms = excluded.end_ms,
         participants = excluded.participants, content_hash = excluded.content_hash,
         unit_count = excluded.unit_count, metadata = excluded.metadata`,
    ).run(s.namespace, s.id, s.startTime, s.endTime, Date.parse(s.startTime), Date.parse(s.endTime), JSON.stringify(s.participants), contentHash, unitCount, metadataColumn(s));
  }

  private insertUnit(namespace: string, sessionId: string, seq: number, { unit: u, embedding }: UnitRecord, times: { createdAt: string; updatedAt: string }): void {
    const participants = JSON.stringify(u.context.participants.map((p) => p.toLowerCase()));
    const info = this.stmt(
      `INSERT INTO units (namespace, id, session_id, seq, participants, body, turn_ids, metadata, created_at, created_ms, updated_at, updated_ms)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      namespace, u.id, sessionId, seq, participants, unitBody(u), JSON.stringify(u.provenance.turnIds), metadataColumn(u),
      times.createdAt, Date.parse(times.createdAt), times.updatedAt, Date.parse(times.updatedAt),
    );
    // vec0 rejects a JS number as rowid (bound as REAL): it must be a BigInt.
    const rowid = BigInt(info.lastInsertRowid);
    this.stmt("INSERT INTO fts (rowid, content, cue, namespace, ns_key) VALUES (?, ?, ?, ?, ?)").run(rowid, u.content, u.cue, namespace, namespaceToken(namespace));
    this.stmt("INSERT INTO vec (rowid, namespace, embedding) VALUES (?, ?, ?)").run(rowid, namespace, embedding);
    this.logVector(namespace, rowid, true);
  }

  /** In the write's transaction: what an approximate index has to apply (dense-index.ts). */
  private logVector(namespace: string, rowid: bigint, added: boolean): void {
    this.stmt("INSERT INTO vec_log (namespace, unit_rowid, added) VALUES (?, ?, ?)").run(namespace, rowid, added ? 1 : 0);
  }

  private recordHistory(namespace: string, unitId: string, sessionId: string, event: UnitHistoryEvent["event"], stamp: ChangeStamp, text: string | null, previous: string | null): void {
    this.stmt("INSERT INTO unit_history (namespace, unit_id, session_id, event, at, actor, text, previous_text) VALUES (?, ?, ?, ?, ?, ?, ?, ?)").run(
      namespace,
      unitId,
      sessionId,
      event,
      stamp.at,
      stamp.actor,
      text,
      previous,
    );
  }

  /** Deletion deletes: the text of every event of the forgotten units goes too (their events stay, without text). */
  private eraseHistoryText(namespace: string, scope: { unitId?: string; sessionId?: string }): void {
    if (scope.unitId !== undefined) {
      this.stmt("UPDATE unit_history SET text = NULL, previous_text = NULL WHERE namespace = ? AND unit_id = ? AND (text IS NOT NULL OR previous_text IS NOT NULL)").run(namespace, scope.unitId);
    } else if (scope.sessionId !== undefined) {
      this.stmt("UPDATE unit_history SET text = NULL, previous_text = NULL WHERE namespace = ? AND session_id = ? AND (text IS NOT NULL OR previous_text IS NOT NULL)").run(namespace, scope.sessionId);
    } else {
      this.stmt("UPDATE unit_history SET text = NULL, previous_text = NULL WHERE namespace = ? AND (text IS NOT NULL OR previous_text IS NOT NULL)").run(namespace);
    }
  }

  /**
   * "forgotten" for each unit a delete is about to remove, then their text
   * out of the history. A forgotten session takes its id out of the history
   * too (the events stay, with sessionId ""), a forgotten namespace its whole
   * history: ids and names are what a user deletes as well.
   */
  private recordForgotten(namespace: string, stamp: ChangeStamp, scope: { unitId?: string; sessionId?: string }): void {
    if (scope.unitId === undefined && scope.sessionId === undefined) {
      this.stmt("DELETE FROM unit_history WHERE namespace = ?").run(namespace);
      return;
    }
    const where = scope.unitId !== undefined ? "AND id = ?" : scope.sessionId !== undefined ? "AND session_id = ?" : "";
    const params = [stamp.at, stamp.actor, namespace, ...(scope.unitId !== undefined ? [scope.unitId] : scope.sessionId !== undefined ? [scope.sessionId] : [])];
    this.stmt(
      `INSERT INTO unit_history (namespace, unit_id, session_id, event, at, actor)
       SELECT namespace, id, session_id, 'forgotten', ?, ? FROM units WHERE namespace = ? ${where} ORDER BY session_id, seq`,
    ).run(...params);
    this.eraseHistoryText(namespace, scope);
    if (scope.sessionId !== undefined) this.stmt("UPDATE unit_history SET session_id = '' WHERE namespace = ? AND session_id = ?").run(namespace, scope.sessionId);
  }

  appendUnits(session: Session, contentHash: string, units: UnitRecord[], options: AppendUnitsOptions): void {
    const checked = parseSessionRecords(session, units);
    checkRecordEmbeddings(checked, checked.records.length ? this.handle.binding() : null, this.handle.location);
    const stamp = stampOrNow(options.change);
    this.inWriteTransaction(checked.where, () => {
      const { session: s, where, records } = checked;
      const found = this.stmt("SELECT content_hash, unit_count FROM sessions WHERE namespace = ? AND id = ?").get(s.namespace, s.id) as
        | { content_hash: string; unit_count: number }
        | undefined;
      checkAppendable(where, options.expectedHash, found?.content_hash ?? null);
      const next = Number(this.stmt("SELECT coalesce(max(seq), -1) + 1 FROM units WHERE namespace = ? AND session_id = ?").pluck().get(s.namespace, s.id));
      this.upsertSession(s, contentHash, found!.unit_count + records.length);
      records.forEach((rec, i) => {
        const times = unitTimes(rec.unit, undefined, stamp.at);
        this.insertUnit(s.namespace, s.id, next + i, rec, times);
        this.recordHistory(s.namespace, rec.unit.id, s.id, "created", stamp, rec.unit.content, null);
      });
    });
  }

  /** `stored`: the session as read before the transaction (getSession), or null. */
  updateUnits(stored: StoredSession | null, namespace: string, sessionId: string, contentHash: string, units: UnitRecord[], options: UpdateUnitsOptions): void {
    const where = `session ${namespace}/${sessionId}`;
    const { session: _s, records } = parseSessionRecords(
      stored ?? { id: sessionId, namespace, startTime: new Date(0).toISOString(), endTime: new Date(0).toISOString(), participants: [] },
      units,
    );
    checkRecordEmbeddings({ session: _s, where, records }, records.length ? this.handle.binding() : null, this.handle.location);
    const stamp = stampOrNow(options.change);
    this.inWriteTransaction(where, () => {
      const found = this.stmt("SELECT content_hash FROM sessions WHERE namespace = ? AND id = ?").pluck().get(namespace, sessionId) as string | undefined;
      checkExpectedHash(where, options.expectedHash, found ?? null);
      for (const { unit: u, embedding } of records) {
        const row = this.stmt(
          "SELECT rowid, json_extract(body, '$.content') AS content, created_at, updated_at FROM units WHERE namespace = ? AND id = ? AND session_id = ?",
        ).get(namespace, u.id, sessionId) as { rowid: number; content: string; created_at: string | null; updated_at: string | null } | undefined;
        if (!row) throw unitNotInSession(where, u.id);
        const times = unitTimes(u, { content: row.content, createdAt: row.created_at, updatedAt: row.updated_at }, stamp.at);
        const rowid = BigInt(row.rowid);
        this.stmt("UPDATE units SET participants = ?, body = ?, turn_ids = ?, metadata = ?, updated_at = ?, updated_ms = ? WHERE rowid = ?").run(
          JSON.stringify(u.context.participants.map((p) => p.toLowerCase())),
          unitBody(u),
          JSON.stringify(u.provenance.turnIds),
          metadataColumn(u),
          times.updatedAt,
          Date.parse(times.updatedAt),
          rowid,
        );
        this.stmt("DELETE FROM fts WHERE rowid = ?").run(rowid);
        this.stmt("INSERT INTO fts (rowid, content, cue, namespace, ns_key) VALUES (?, ?, ?, ?, ?)").run(rowid, u.content, u.cue, namespace, namespaceToken(namespace));
        this.stmt("DELETE FROM vec WHERE rowid = ?").run(rowid);
        this.stmt("INSERT INTO vec (rowid, namespace, embedding) VALUES (?, ?, ?)").run(rowid, namespace, embedding);
        // Same rowid, new vector: the index replaces the point.
        this.logVector(namespace, rowid, true);
        if (times.event) this.recordHistory(namespace, u.id, sessionId, "updated", stamp, u.content, row.content);
      }
      this.stmt("UPDATE sessions SET content_hash = ? WHERE namespace = ? AND id = ?").run(contentHash, namespace, sessionId);
    });
  }

  /** Rowids are fetched first: a vec0 DELETE with a subquery scans the whole table. */
  private deleteRows(namespace: string, rowids: readonly (number | bigint)[]): void {
    if (!rowids.length) return;
    const delUnit = this.stmt("DELETE FROM units WHERE rowid = ?");
    const delFts = this.stmt("DELETE FROM fts WHERE rowid = ?");
    const delVec = this.handle.binding() ? this.stmt("DELETE FROM vec WHERE rowid = ?") : null;
    for (const r of rowids) {
      const id = BigInt(r);
      delFts.run(id);
      delVec?.run(id);
      delUnit.run(id);
      this.logVector(namespace, id, false);
    }
  }

  private deleteSessionUnits(namespace: string, sessionId: string): number {
    const rowids = this.stmt("SELECT rowid FROM units WHERE namespace = ? AND session_id = ?")
      .pluck()
      .all(namespace, sessionId) as number[];
    this.deleteRows(namespace, rowids);
    return rowids.length;
  }

  deleteUnit(namespace: string, unitId: string, options: DeleteUnitOptions): boolean {
    const stamp = stampOrNow(options.change);
    this.caches.forget(namespace);
    return this.db
      .transaction(() => {
        const row = this.stmt("SELECT rowid, session_id FROM units WHERE namespace = ? AND id = ?").get(namespace, unitId) as
          | { rowid: number; session_id: string }
          | undefined;
        if (!row) return false;
        const hash = this.stmt("SELECT content_hash FROM sessions WHERE namespace = ? AND id = ?").pluck().get(namespace, row.session_id) as string | undefined;
        if (options.expectedHash !== undefined) checkExpectedHash(`session ${namespace}/${row.session_id}`, options.expectedHash, hash ?? null);
        this.recordForgotten(namespace, stamp, { unitId });
        this.deleteRows(namespace, [row.rowid]);
        // A new hash: a writer that read the session before this delete must not write the unit back (session-hash.ts).
        this.stmt("UPDATE sessions SET unit_count = max(unit_count - 1, 0), content_hash = ? WHERE namespace = ? AND id = ?").run(
          revisedSessionHash(hash ?? "", `forget ${unitId}`),
          namespace,
          row.session_id,
        );
        return true;
      })
      .immediate();
  }

  deleteSession(namespace: string, sessionId: string, options: WriteOptions): number {
    const stamp = stampOrNow(options.change);
    this.caches.forget(namespace);
    return this.db
      .transaction(() => {
        this.recordForgotten(namespace, stamp, { sessionId });
        const n = this.deleteSessionUnits(namespace, sessionId);
        this.stmt("DELETE FROM sessions WHERE namespace = ? AND id = ?").run(namespace, sessionId);
        return n;
      })
      .immediate();
  }

  deleteNamespace(namespace: string, options: WriteOptions): number {
    const stamp = stampOrNow(options.change);
    this.caches.forget(namespace);
    return this.db
      .transaction(() => {
        this.recordForgotten(namespace, stamp, {});
        const rowids = this.stmt("SELECT rowid FROM units WHERE namespace = ?").pluck().all(namespace) as number[];
        this.deleteRows(namespace, rowids);
        // The namespace's name goes from the log too; an index of it no longer fits (dense-index.ts) and is rebuilt if the namespace grows again.
        this.stmt("DELETE FROM vec_log WHERE namespace = ?").run(namespace);
        this.lexical.drop(namespace);
        this.stmt("DELETE FROM sessions WHERE namespace = ?").run(namespace);
        return rowids.length;
      })
      .immediate();
  }
}
