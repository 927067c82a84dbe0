import { existsSync } from "node:fs";
import Database from "better-sqlite3";
import * as sqliteVec from "sqlite-vec";
import type { Session } from "../../model/conversation.js";
import type { MemoryUnit } from "../../model/memory-unit.js";
import { RamemError } from "../../model/errors.js";
import type { MemoryStore, ReplaceSessionOptions, ScoredUnitId, ScrubOptions, ScrubReport, SessionRecords, StoredSession, StoreStats, UnitFilter, UnitRecord } from "../contract.js";
import { checkReadable, migrate } from "./schema.js";
import { bindingFromMeta, checkEmbedderBinding, type EmbedderBinding } from "../embedder-binding.js";
import { storedSessionFromRow, type SessionRow as SessionRowOf } from "../session-row.js";
import { storeStats } from "../store-stats.js";
import { checkExpectedHash, checkNamespaceEmpty, checkRecordEmbeddings, parseNamespaceRecords, parseSessionRecords, unitIdConflict, type CheckedSession } from "../check-session-records.js";
import { echoValue } from "../../model/echo-value.js";

export interface SqliteStoreOptions {
  readonly?: boolean;
  /** Refuse (STORE_NOT_FOUND) rather than create an empty file: for commands that only read. */
  mustExist?: boolean;
  /** How long a writer waits for another process's lock, in ms. */
  busyTimeoutMs?: number;
}

/** sqlite-vec refuses a KNN `k` above this. */
const VEC_MAX_K = 4096;

type SessionRow = SessionRowOf<string>;

type Binding = EmbedderBinding;

export async function openSqliteStore(path: string, opts: SqliteStoreOptions = {}): Promise<MemoryStore> {
  return SqliteStore.open(path, opts);
}

const toStoredSession = (r: SessionRow): StoredSession => storedSessionFromRow(r, (ps) => JSON.parse(ps) as string[]);

/** Each term becomes a quoted FTS5 string, so user words never act as operators (AND, NEAR, column:). */
export function toFtsQuery(terms: readonly string[]): string | null {
  const parts = terms.map((t) => t.trim()).filter((t) => t.length > 0).map((t) => `"${t.replaceAll('"', '""')}"`);
  return parts.length ? parts.join(" OR ") : null;
}

function clampLimit(limit: number | undefined, fallback: number): number {
  if (limit === undefined || !Number.isFinite(limit)) return fallback;
  return Math.max(0, Math.floor(limit));
}

class SqliteStore implements MemoryStore {
  readonly specificationVersion = "v1" as const;
  readonly dialect = "sqlite";
  readonly location: string;
  private readonly db: Database.Database;
  private readonly readonly: boolean;
  private readonly statements = new Map<string, Database.Statement>();
  private closed = false;

  private constructor(db: Database.Database, location: string, readonly: boolean) {
    this.db = db;
    this.location = location;
    this.readonly = readonly;
  }

  static open(path: string, opts: SqliteStoreOptions): SqliteStore {
    const readonly = opts.readonly === true;
    let db: Database.Database;
    if ((readonly || opts.mustExist) && path !== ":memory:" && !existsSync(path)) {
      throw new RamemError("STORE_NOT_FOUND", "no store at this path", {
        where: path,
        hint: "ingest something first (ramem ingest FILE --db PATH), or pass the --db / --store of an existing store",
      });
    }
    try {
      db = new Database(path, { readonly, fileMustExist: readonly });
    } catch (cause) {
      throw new RamemError("STORE_OPEN_FAILED", `cannot open store: ${(cause as Error).message}`, {
        where: path,
        hint: readonly ? "check the --db path; a read-only store must already exist" : "check the --db path and its directory permissions",
        cause,
      });
    }
    try {
      sqliteVec.load(db);
      db.pragma(`busy_timeout = ${Math.max(0, Math.floor(opts.busyTimeoutMs ?? 5000))}`);
      db.pragma("foreign_keys = ON");
      if (readonly) {
        checkReadable(db, path);
      } else {
        // WAL lets readers in other processes proceed while one process writes.
        db.pragma("journal_mode = WAL");
        db.pragma("synchronous = NORMAL");
        // Deleted cells and freed pages are overwritten with zeros, so a forgotten turn is not left in free space.
        db.pragma("secure_delete = ON");
        migrate(db, path);
        secureDeleteFts(db);
      }
    } catch (err) {
      db.close();
      throw err;
    }
    return new SqliteStore(db, path, readonly);
  }

  // Statements are prepared lazily: the vec table only exists after bindEmbedder,
  // possibly bound by another process after this handle opened.
  private stmt(sql: string): Database.Statement {
    let s = this.statements.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s;
  }

  private assertOpen(): void {
    if (this.closed) throw new RamemError("STORE_CLOSED", "the store is closed", { where: this.location });
  }

  private assertWritable(): void {
    this.assertOpen();
    if (this.readonly) {
      throw new RamemError("STORE_READONLY", "the store was opened read-only", {
        where: this.location,
        hint: "open it without --readonly to change it",
      });
    }
  }

  /** Read each time rather than cached: another process may have bound the embedder meanwhile. */
  private binding(): Binding | null {
    const rows = this.stmt("SELECT key, value FROM meta WHERE key IN ('embedder', 'dimensions')").all() as { key: string; value: string }[];
    return bindingFromMeta(rows);
  }

  async bindEmbedder(embedderId: string, dimensions: number): Promise<void> {
    this.assertOpen();
    const check = (b: Binding | null): boolean => checkEmbedderBinding(b, embedderId, dimensions, {
      location: this.location,
      hint: "use another store file (--db or --store) for this embedder, or re-ingest everything into a new store with it",
    });
    if (check(this.binding())) return;
    this.assertWritable();
    this.db
      .transaction(() => {
        if (check(this.binding())) return;
        this.db.exec(
          `CREATE VIRTUAL TABLE vec USING vec0(namespace text partition key, embedding float[${dimensions}] distance_metric=cosine)`,
        );
        const put = this.stmt("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value");
        put.run("embedder", embedderId);
        put.run("dimensions", String(dimensions));
      })
      .immediate();
  }

  async getSession(namespace: string, sessionId: string): Promise<StoredSession | null> {
    this.assertOpen();
    const r = this.stmt("SELECT * FROM sessions WHERE namespace = ? AND id = ?").get(namespace, sessionId) as SessionRow | undefined;
    return r ? toStoredSession(r) : null;
  }

  async listSessions(namespace: string): Promise<StoredSession[]> {
    this.assertOpen();
    const rows = this.stmt("SELECT * FROM sessions WHERE namespace = ? ORDER BY start_ms, id").all(namespace) as SessionRow[];
    return rows.map(toStoredSession);
  }

  async replaceSession(session: Session, contentHash: string, units: UnitRecord[], options: ReplaceSessionOptions = {}): Promise<void> {
    this.assertWritable();
    const checked = parseSessionRecords(session, units);
    checkRecordEmbeddings(checked, checked.records.length ? this.binding() : null, this.location);
    // IMMEDIATE: the write lock is held from here, so no other process can change the session between the hash check and the write.
    this.inWriteTransaction(checked.where, () => this.writeSession(checked, contentHash, options.expectedHash));
  }

  async restoreNamespace(namespace: string, sessions: readonly SessionRecords[]): Promise<void> {
    this.assertWritable();
    const checked = parseNamespaceRecords(namespace, sessions);
    const bound = checked.some((c) => c.records.length) ? this.binding() : null;
    for (const c of checked) checkRecordEmbeddings(c, bound, this.location);
    // One transaction for the whole namespace: a crash before COMMIT leaves none of it in the file.
    this.inWriteTransaction(`namespace ${namespace}`, () => {
      const one = (sql: string) => Number(this.stmt(sql).pluck().get(namespace));
      checkNamespaceEmpty(namespace, { sessions: one("SELECT count(*) FROM sessions WHERE namespace = ?"), units: one("SELECT count(*) FROM units WHERE namespace = ?") });
      for (const c of checked) this.writeSession(c, c.contentHash);
    });
  }

  /** Runs `write` in a BEGIN IMMEDIATE transaction; driver failures become RamemErrors naming `where`. */
  private inWriteTransaction(where: string, write: () => void): void {
    try {
      this.db.transaction(write).immediate();
    } catch (cause) {
      if (cause instanceof RamemError) throw cause;
      const msg = (cause as Error).message ?? String(cause);
      if (/UNIQUE constraint failed: units/.test(msg)) throw unitIdConflict(where, cause);
      throw new RamemError("STORE_WRITE_FAILED", `writing failed: ${msg}`, { where, cause });
    }
  }

  /** One session's rows (inside a write transaction): the hash check, the old units out, the session and its units in. */
  private writeSession(checked: CheckedSession, contentHash: string, expectedHash?: string | null): void {
    const { session: s, where, records: parsed } = checked;
    const startMs = Date.parse(s.startTime);
    const endMs = Date.parse(s.endTime);
    const found = this.stmt("SELECT content_hash FROM sessions WHERE namespace = ? AND id = ?").pluck().get(s.namespace, s.id) as string | undefined;
    checkExpectedHash(where, expectedHash, found ?? null);
    this.deleteSessionUnits(s.namespace, s.id);
    this.stmt(
      `INSERT INTO sessions (namespace, id, start_time, end_time, start_ms, end_ms, participants, content_hash, unit_count)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (namespace, id) DO UPDATE SET
         start_time = excluded.start_time, end_time = excluded.end_time,
         start_ms = excluded.start_ms, end_ms = excluded.end_ms,
         participants = excluded.participants, content_hash = excluded.content_hash,
         unit_count = excluded.unit_count`,
    ).run(s.namespace, s.id, s.startTime, s.endTime, startMs, endMs, JSON.stringify(s.participants), contentHash, parsed.length);
    const insUnit = this.stmt(
      `INSERT INTO units (namespace, id, session_id, seq, session_start, session_end, participants, body)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const insFts = this.stmt("INSERT INTO fts (rowid, content, cue, namespace) VALUES (?, ?, ?, ?)");
    const insVec = parsed.length ? this.stmt("INSERT INTO vec (rowid, namespace, embedding) VALUES (?, ?, ?)") : null;
    parsed.forEach(({ unit: u, embedding }, seq) => {
      const participants = JSON.stringify(u.context.participants.map((p) => p.toLowerCase()));
      const info = insUnit.run(s.namespace, u.id, s.id, seq, startMs, endMs, participants, JSON.stringify(u));
      // vec0 rejects a JS number as rowid (bound as REAL): it must be a BigInt.
      const rowid = BigInt(info.lastInsertRowid);
      insFts.run(rowid, u.content, u.cue, s.namespace);
      insVec!.run(rowid, s.namespace, embedding);
    });
  }

  /** Rowids are fetched first: a vec0 DELETE with a subquery scans the whole table. */
  private deleteRows(rowids: readonly (number | bigint)[]): void {
    if (!rowids.length) return;
    const delUnit = this.stmt("DELETE FROM units WHERE rowid = ?");
    const delFts = this.stmt("DELETE FROM fts WHERE rowid = ?");
    const delVec = this.binding() ? this.stmt("DELETE FROM vec WHERE rowid = ?") : null;
    for (const r of rowids) {
      const id = BigInt(r);
      delFts.run(id);
      delVec?.run(id);
      delUnit.run(id);
    }
  }

  private deleteSessionUnits(namespace: string, sessionId: string): number {
    const rowids = this.stmt("SELECT rowid FROM units WHERE namespace = ? AND session_id = ?")
      .pluck()
      .all(namespace, sessionId) as number[];
    this.deleteRows(rowids);
    return rowids.length;
  }

  async getUnits(namespace: string, ids: readonly string[]): Promise<MemoryUnit[]> {
    this.assertOpen();
    if (!ids.length) return [];
    const rows = this.stmt("SELECT id, body FROM units WHERE namespace = ? AND id IN (SELECT value FROM json_each(?))").all(
      namespace,
      JSON.stringify(ids),
    ) as { id: string; body: string }[];
    const byId = new Map(rows.map((r) => [r.id, r.body]));
    const out: MemoryUnit[] = [];
    for (const id of ids) {
      const body = byId.get(id);
      if (body !== undefined) out.push(JSON.parse(body) as MemoryUnit);
    }
    return out;
  }

  async getUnitEmbeddings(namespace: string, ids: readonly string[]): Promise<Map<string, Float32Array>> {
    this.assertOpen();
    const out = new Map<string, Float32Array>();
    if (!ids.length || !this.binding()) return out;
    const rows = this.stmt(
      `SELECT u.id AS id, v.embedding AS embedding FROM units u JOIN vec v ON v.rowid = u.rowid
       WHERE u.namespace = ? AND u.id IN (SELECT value FROM json_each(?))`,
    ).all(namespace, JSON.stringify(ids)) as { id: string; embedding: Buffer }[];
    const byId = new Map(rows.map((r) => [r.id, r.embedding]));
    for (const id of ids) {
      const bytes = byId.get(id);
      // Copied out of the row buffer, whose memory SQLite may reuse.
      if (bytes) out.set(id, new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)));
    }
    return out;
  }

  async listUnits(namespace: string, filter: UnitFilter = {}): Promise<MemoryUnit[]> {
    this.assertOpen();
    const where = ["namespace = ?"];
    const params: unknown[] = [namespace];
    if (filter.sessionId !== undefined) {
      where.push("session_id = ?");
      params.push(filter.sessionId);
    }
    if (filter.participant !== undefined) {
      where.push("EXISTS (SELECT 1 FROM json_each(units.participants) WHERE value = ?)");
      params.push(filter.participant.toLowerCase());
    }
    // Half-open overlap of [session_start, session_end) with [from, to); a session
    // with start == end is a point, and counts when from <= start < to.
    if (filter.from !== undefined) {
      where.push("(session_end > ? OR (session_end = session_start AND session_start >= ?))");
      const from = parseTime(filter.from, "from");
      params.push(from, from);
    }
    if (filter.to !== undefined) {
      where.push("session_start < ?");
      params.push(parseTime(filter.to, "to"));
    }
    const limit = clampLimit(filter.limit, -1);
    const offset = clampLimit(filter.offset, 0);
    params.push(limit, offset);
    // Few distinct filter shapes exist, so the cache stays small.
    const rows = this.stmt(
      `SELECT body FROM units WHERE ${where.join(" AND ")}
       ORDER BY session_start, session_id, seq LIMIT ? OFFSET ?`,
    )
      .pluck()
      .all(...params) as string[];
    return rows.map((b) => JSON.parse(b) as MemoryUnit);
  }

  async searchLexical(namespace: string, terms: readonly string[], limit: number): Promise<ScoredUnitId[]> {
    this.assertOpen();
    const query = toFtsQuery(terms);
    const k = clampLimit(limit, 0);
    if (!query || k === 0) return [];
    // The MATCH runs alone in the CTE; joining units inside it lets SQLite drive
    // the FTS lookup once per unit row, which is seconds on a large store.
    const rows = this.stmt(
      `WITH hits AS MATERIALIZED (
         SELECT rowid, bm25(fts, 1.0, 0.5, 0.0) AS b FROM fts
         WHERE fts MATCH ? AND namespace = ?
         ORDER BY b, rowid LIMIT ?
       )
       SELECT u.id AS id, hits.b AS b FROM hits JOIN units u ON u.rowid = hits.rowid
       ORDER BY hits.b, hits.rowid`,
    ).all(query, namespace, k) as { id: string; b: number }[];
    return rows.map((r, i) => ({ id: r.id, score: -r.b, rank: i + 1 }));
  }

  async searchDense(namespace: string, vector: Float32Array, limit: number): Promise<ScoredUnitId[]> {
    this.assertOpen();
    const k = clampLimit(limit, 0);
    const bound = this.binding();
    if (!bound || k === 0) return [];
    if (vector.length !== bound.dimensions) {
      throw new RamemError(
        "EMBEDDING_DIMENSION_MISMATCH",
        `query vector has ${vector.length} dims; the store holds ${bound.dimensions}-dim vectors of ${bound.embedder}`,
        { where: this.location, hint: "embed the query with the embedder the store was built with" },
      );
    }
    // Above vec0's k cap fall back to an exact scan of the partition, so the
    // contract's min(limit, units) still holds.
    const exact = k > VEC_MAX_K;
    const sql = exact
      ? `SELECT v.rowid AS rowid, vec_distance_cosine(v.embedding, ?) AS d FROM vec v
         WHERE v.namespace = ? ORDER BY d LIMIT ?`
      : `SELECT v.rowid AS rowid, v.distance AS d FROM vec v
         WHERE v.embedding MATCH ? AND v.namespace = ? AND k = ?`;
    // MATERIALIZED keeps the outer ORDER BY from being pushed into vec0, which rejects it.
    const rows = this.stmt(
      `WITH knn AS MATERIALIZED (${sql})
       SELECT u.id AS id, knn.d AS d FROM knn JOIN units u ON u.rowid = knn.rowid
       ORDER BY knn.d, knn.rowid`,
    ).all(vector, namespace, BigInt(k)) as { id: string; d: number }[];
    return rows.map((r, i) => ({ id: r.id, score: 1 - r.d, rank: i + 1 }));
  }

  async deleteUnit(namespace: string, unitId: string): Promise<boolean> {
    this.assertWritable();
    return this.db
      .transaction(() => {
        const row = this.stmt("SELECT rowid, session_id FROM units WHERE namespace = ? AND id = ?").get(namespace, unitId) as
          | { rowid: number; session_id: string }
          | undefined;
        if (!row) return false;
        this.deleteRows([row.rowid]);
        this.stmt("UPDATE sessions SET unit_count = unit_count - 1 WHERE namespace = ? AND id = ? AND unit_count > 0").run(
          namespace,
          row.session_id,
        );
        return true;
      })
      .immediate();
  }

  async deleteSession(namespace: string, sessionId: string): Promise<number> {
    this.assertWritable();
    return this.db
      .transaction(() => {
        const n = this.deleteSessionUnits(namespace, sessionId);
        this.stmt("DELETE FROM sessions WHERE namespace = ? AND id = ?").run(namespace, sessionId);
        return n;
      })
      .immediate();
  }

  async deleteNamespace(namespace: string): Promise<number> {
    this.assertWritable();
    return this.db
      .transaction(() => {
        const rowids = this.stmt("SELECT rowid FROM units WHERE namespace = ?").pluck().all(namespace) as number[];
        this.deleteRows(rowids);
        this.stmt("DELETE FROM sessions WHERE namespace = ?").run(namespace);
        return rowids.length;
      })
      .immediate();
  }

  async scrubDeleted(options: ScrubOptions = {}): Promise<ScrubReport> {
    this.assertWritable();
    const steps: string[] = [];
    // FTS5 keeps index segments and their split keys: a rebuild into one segment drops every deleted term.
    this.db.exec("INSERT INTO fts(fts) VALUES ('optimize')");
    steps.push("fts optimize");
    if (options.vacuum) {
      this.db.exec("VACUUM");
      steps.push("vacuum");
    }
    // The WAL still holds earlier page images (the deleted text among them) until it is copied back and truncated.
    const [result] = this.db.pragma("wal_checkpoint(TRUNCATE)") as Array<{ busy: number; log: number; checkpointed: number }>;
    steps.push("wal checkpoint (truncate)");
    if (this.location === ":memory:" || !result || (result.busy === 0 && result.log <= 0)) return { steps, complete: true };
    return {
      steps,
      complete: false,
      note: "another connection (a process reading this file) kept the WAL from being checkpointed: deleted text may remain in the -wal file until it closes; forget again (or run any forget with --purge) once it has",
    };
  }

  async listNamespaces(): Promise<string[]> {
    this.assertOpen();
    return this.stmt("SELECT namespace FROM sessions UNION SELECT namespace FROM units ORDER BY 1").pluck().all() as string[];
  }

  async stats(namespace?: string): Promise<StoreStats> {
    this.assertOpen();
    const b = this.binding();
    const one = (sql: string, ...p: unknown[]) => Number(this.stmt(sql).pluck().get(...p));
    if (namespace === undefined) {
      return storeStats(
        {
          namespaces: one("SELECT count(*) FROM (SELECT namespace FROM sessions UNION SELECT namespace FROM units)"),
          sessions: one("SELECT count(*) FROM sessions"),
          units: one("SELECT count(*) FROM units"),
        },
        b,
      );
    }
    return storeStats(
      { sessions: one("SELECT count(*) FROM sessions WHERE namespace = ?", namespace), units: one("SELECT count(*) FROM units WHERE namespace = ?", namespace) },
      b,
    );
  }

  async historyRange(namespace: string): Promise<{ start: string; end: string } | null> {
    this.assertOpen();
    const start = this.stmt("SELECT start_time FROM sessions WHERE namespace = ? ORDER BY start_ms LIMIT 1").pluck().get(namespace) as
      | string
      | undefined;
    const end = this.stmt("SELECT end_time FROM sessions WHERE namespace = ? ORDER BY end_ms DESC LIMIT 1").pluck().get(namespace) as
      | string
      | undefined;
    return start !== undefined && end !== undefined ? { start, end } : null;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.statements.clear();
    this.db.close();
  }
}

/**
 * FTS5's own secure-delete: a delete removes the row's terms from the index
 * segments at once instead of appending a tombstone beside them. A setting
 * stored in the table, written once (older files get it on their next open).
 */
function secureDeleteFts(db: Database.Database): void {
  const set = db.prepare("SELECT v FROM fts_config WHERE k = 'secure-delete'").pluck().get();
  if (set === 1 || set === "1") return;
  db.exec("INSERT INTO fts(fts, rank) VALUES ('secure-delete', 1)");
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
