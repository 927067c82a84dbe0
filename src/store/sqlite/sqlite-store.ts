/**
 * The SQLite store: opening a file (pragmas, migration, the per-connection
 * fts5vocab table), closing it, the embedder binding, and every read of the
 * MemoryStore contract; writes are sqlite-writes.ts's, searches
 * sqlite-search.ts's, the per-namespace caches namespace-cache.ts's, the
 * connection and its statement cache sqlite-handle.ts's. Also the SQLite-only
 * maintenance: scrubDeleted and buildDenseIndexes (`ramem reindex`).
 */
import { existsSync } from "node:fs";
import Database from "better-sqlite3";
import * as sqliteVec from "sqlite-vec";
import type { Session } from "../../model/conversation.js";
import type { MemoryUnit } from "../../model/memory-unit.js";
import { RamemError } from "../../model/errors.js";
import { checkArgs, checkFields } from "../../model/check-args.js";
import type {
  AppendUnitsOptions,
  MemoryStore,
  ReplaceSessionOptions,
  ScoredUnitId,
  ScrubOptions,
  ScrubReport,
  SearchOptions,
  SessionRecords,
  StoredSession,
  StoreStats,
  NamespaceSize,
  UnitFilter,
  UnitRecord,
  UpdateUnitsOptions,
  WriteOptions,
  DeleteUnitOptions,
} from "../contract.js";
import type { UnitHistoryEvent } from "../../model/unit-history.js";
import { UNIT_COLUMNS, UNITS_WITH_SESSION } from "../unit-row.js";
import { checkReadable, migrate, STATE_UNIT_CONDITION } from "./schema.js";
import { checkEmbedderBinding, type EmbedderBinding } from "../embedder-binding.js";
import { storeStats } from "../store-stats.js";
import { ANN_MIN_UNITS, SqliteDenseIndexes } from "./dense-index.js";
import type { SqliteDenseIndexReport } from "./dense-index-report.js";
import { SqliteLexicalIndexes } from "./lexical-index.js";
import { SqliteHandle } from "./sqlite-handle.js";
import { NamespaceCaches } from "./namespace-cache.js";
import { SqliteWriter } from "./sqlite-writes.js";
import { SqliteSearch } from "./sqlite-search.js";
import { LEXICAL_INDEX_MIN_UNITS, LEXICAL_READ_ALL_MIN_UNITS } from "./fts-query.js";
import { clampLimit, toStoredSession, toUnit, unitWhere, type SessionRow, type UnitRow } from "./sqlite-rows.js";

export { LEXICAL_INDEX_MIN_UNITS, LEXICAL_PRUNE_MIN_UNITS, toFtsQuery } from "./fts-query.js";
export { namespaceToken } from "./sqlite-rows.js";

export interface SqliteStoreOptions {
  readonly?: boolean;
  /** Refuse (STORE_NOT_FOUND) rather than create an empty file: for commands that only read. */
  mustExist?: boolean;
  /** How long a writer waits for another process's lock, in ms. */
  busyTimeoutMs?: number;
  /** Namespaces with at least this many units are searched through an HNSW index (default ANN_MIN_UNITS); tests set it low. */
  annMinUnits?: number;
  /** The dense index's shards: at least this many vectors each (default SHARD_MIN_VECTORS), at most `threads` of them (default: the cores). */
  annShards?: { minVectors?: number; threads?: number };
  /** Namespaces with at least this many units read their whole lexical index at once (default LEXICAL_READ_ALL_MIN_UNITS); tests set it low. */
  lexicalReadAllMinUnits?: number;
}

type Binding = EmbedderBinding;

/** The SQLite store: the contract, and the build of its approximate dense indexes (`ramem reindex`). */
export interface SqliteMemoryStore extends MemoryStore {
  buildDenseIndexes(options?: BuildDenseIndexesOptions): Promise<SqliteDenseIndexReport>;
}

export interface BuildDenseIndexesOptions {
  /** Only these namespaces (default: every one). */
  namespaces?: readonly string[];
  /** Build each index again from the stored vectors, even one on disk that is current. */
  rebuild?: boolean;
  /** Build only the indexes that are neither loaded nor on disk (`ramem ingest`): a fitting one is left for the next search to catch up from the log, not read and written whole. */
  ifMissing?: boolean;
  onProgress?: (done: number, total: number, namespace: string) => void;
}

/** True for a store opened by openSqliteStore (the CLI's `reindex` asks). */
export function isSqliteMemoryStore(store: MemoryStore): store is SqliteMemoryStore {
  checkArgs("isSqliteMemoryStore", { store: [store, "object"] });
  return store.dialect === "sqlite" && typeof (store as Partial<SqliteMemoryStore>).buildDenseIndexes === "function";
}

export async function openSqliteStore(path: string, opts: SqliteStoreOptions = {}): Promise<SqliteMemoryStore> {
  checkArgs("openSqliteStore", { path: [path, "string"] });
  checkFields("openSqliteStore", "opts", opts, "object?", { readonly: "boolean?", mustExist: "boolean?", busyTimeoutMs: "number?", annMinUnits: "number?", annShards: "object?", lexicalReadAllMinUnits: "number?" });
  return SqliteStore.open(path, opts);
}

class SqliteStore implements SqliteMemoryStore {
  readonly specificationVersion = "v1" as const;
  readonly dialect = "sqlite";
  readonly location: string;
  private readonly db: Database.Database;
  private readonly readonly: boolean;
  /** The connection and its prepared-statement cache, shared with the writer and the searches. */
  private readonly handle: SqliteHandle;
  private closed = false;
  private readonly dense: SqliteDenseIndexes;
  private readonly lexical: SqliteLexicalIndexes;
  private readonly caches: NamespaceCaches;
  private readonly writer: SqliteWriter;
  private readonly search: SqliteSearch;

  private constructor(db: Database.Database, location: string, readonly: boolean, private readonly annMinUnits: number, annShards: SqliteStoreOptions["annShards"] = {}, lexicalReadAllMinUnits = LEXICAL_READ_ALL_MIN_UNITS) {
    this.db = db;
    this.location = location;
    this.readonly = readonly;
    const persisted = readonly || location === ":memory:" || location === "" ? null : SqliteDenseIndexes.dirFor(location);
    this.dense = new SqliteDenseIndexes(db, persisted, annMinUnits, annShards);
    this.lexical = new SqliteLexicalIndexes(db, Math.min(LEXICAL_INDEX_MIN_UNITS, annMinUnits), lexicalReadAllMinUnits);
    this.handle = new SqliteHandle(db, location);
    this.caches = new NamespaceCaches(db);
    this.writer = new SqliteWriter(this.handle, this.caches, this.lexical);
    this.search = new SqliteSearch(this.handle, this.caches, this.lexical, this.dense, annMinUnits);
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
      // Per connection (temp): the terms' document counts, read by searchLexical.
      db.exec("CREATE VIRTUAL TABLE temp.fts_vocab USING fts5vocab(main, fts, 'row')");
    } catch (err) {
      db.close();
      throw err;
    }
    return new SqliteStore(db, path, readonly, opts.annMinUnits ?? ANN_MIN_UNITS, opts.annShards, opts.lexicalReadAllMinUnits);
  }

  private stmt(sql: string): Database.Statement {
    return this.handle.stmt(sql);
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

  private binding(): Binding | null {
    return this.handle.binding();
  }

  private storeId(): string {
    return this.handle.storeId();
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

  /**
   * The generation of the namespace's cache entry: every write drops the
   * entry (this handle's through forget(), another process's through
   * data_version), so a new one — with a new number — stands for a
   * namespace that may have changed.
   */
  async namespaceVersion(namespace: string): Promise<string> {
    this.assertOpen();
    return String(this.caches.entryOf(namespace).generation);
  }

  /** Recall reads the session list on every query: it is read from the file once per change of the namespace. Callers get their own array. */
  async listSessions(namespace: string): Promise<StoredSession[]> {
    this.assertOpen();
    const entry = this.caches.entryOf(namespace);
    if (!entry.sessions) {
      const rows = this.stmt("SELECT * FROM sessions WHERE namespace = ? ORDER BY start_ms, id").all(namespace) as SessionRow[];
      entry.sessions = rows.map(toStoredSession);
    }
    return entry.sessions.map((s) => ({ ...s, participants: [...s.participants], ...(s.metadata ? { metadata: structuredClone(s.metadata) } : {}) }));
  }

  async replaceSession(session: Session, contentHash: string, units: UnitRecord[], options: ReplaceSessionOptions = {}): Promise<void> {
    this.assertWritable();
    this.writer.replaceSession(session, contentHash, units, options);
  }

  async restoreNamespace(namespace: string, sessions: readonly SessionRecords[], options: WriteOptions = {}): Promise<void> {
    this.assertWritable();
    this.writer.restoreNamespace(namespace, sessions, options);
  }

  async appendUnits(session: Session, contentHash: string, units: UnitRecord[], options: AppendUnitsOptions): Promise<void> {
    this.assertWritable();
    this.writer.appendUnits(session, contentHash, units, options);
  }

  async updateUnits(namespace: string, sessionId: string, contentHash: string, units: UnitRecord[], options: UpdateUnitsOptions): Promise<void> {
    this.assertWritable();
    const stored = await this.getSession(namespace, sessionId);
    this.writer.updateUnits(stored, namespace, sessionId, contentHash, units, options);
  }

  async deleteUnit(namespace: string, unitId: string, options: DeleteUnitOptions = {}): Promise<boolean> {
    this.assertWritable();
    return this.writer.deleteUnit(namespace, unitId, options);
  }

  async deleteSession(namespace: string, sessionId: string, options: WriteOptions = {}): Promise<number> {
    this.assertWritable();
    return this.writer.deleteSession(namespace, sessionId, options);
  }

  async deleteNamespace(namespace: string, options: WriteOptions = {}): Promise<number> {
    this.assertWritable();
    return this.writer.deleteNamespace(namespace, options);
  }

  async unitHistory(namespace: string, unitId: string): Promise<UnitHistoryEvent[]> {
    this.assertOpen();
    const rows = this.stmt(
      "SELECT unit_id, session_id, event, at, actor, text, previous_text FROM unit_history WHERE namespace = ? AND unit_id = ? ORDER BY rowid",
    ).all(namespace, unitId) as Array<{ unit_id: string; session_id: string; event: UnitHistoryEvent["event"]; at: string; actor: string; text: string | null; previous_text: string | null }>;
    return rows.map((r) => ({ unitId: r.unit_id, sessionId: r.session_id, event: r.event, at: r.at, actor: r.actor, text: r.text, previousText: r.previous_text }));
  }

  async getUnits(namespace: string, ids: readonly string[]): Promise<MemoryUnit[]> {
    this.assertOpen();
    if (!ids.length) return [];
    const rows = this.stmt(`SELECT u.id AS id, ${UNIT_COLUMNS} FROM ${UNITS_WITH_SESSION} WHERE u.namespace = ? AND u.id IN (SELECT value FROM json_each(?))`).all(
      namespace,
      JSON.stringify(ids),
    ) as Array<UnitRow & { id: string }>;
    const byId = new Map(rows.map((r) => [r.id, r]));
    const out: MemoryUnit[] = [];
    for (const id of ids) {
      const row = byId.get(id);
      if (row !== undefined) out.push(toUnit(row));
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
    const params: unknown[] = [];
    const where = unitWhere(namespace, filter, params);
    const limit = clampLimit(filter.limit, -1);
    const offset = clampLimit(filter.offset, 0);
    params.push(limit, offset);
    // One session's units are read through units_ns_session in seq order (recall asks
    // for them several times per query); ordering by the session's start as well
    // could let the planner walk the namespace's sessions in time order instead.
    const order = filter.sessionId !== undefined ? "u.seq" : "s.start_ms, u.session_id, u.seq";
    const units = filter.sessionId !== undefined ? "units u INDEXED BY units_ns_session JOIN sessions s ON s.namespace = u.namespace AND s.id = u.session_id" : UNITS_WITH_SESSION;
    // Few distinct filter shapes exist without `where`; with one, each shape is prepared once per handle.
    const rows = this.stmt(
      `SELECT ${UNIT_COLUMNS} FROM ${units} WHERE ${where}
       ORDER BY ${order} LIMIT ? OFFSET ?`,
    ).all(...params) as UnitRow[];
    return rows.map(toUnit);
  }

  /** Through the partial index units_ns_state: the namespace's other units are neither read nor parsed. */
  async listStateUnits(namespace: string): Promise<MemoryUnit[]> {
    this.assertOpen();
    const rows = this.stmt(
      `WITH stating AS (SELECT rowid, json_extract(body, '$.supersession.supersededBy') AS successor
                        FROM units INDEXED BY units_ns_state WHERE namespace = ? AND ${STATE_UNIT_CONDITION})
       SELECT ${UNIT_COLUMNS} FROM ${UNITS_WITH_SESSION}
       WHERE u.rowid IN (SELECT rowid FROM stating
                         UNION SELECT n.rowid FROM stating t JOIN units n ON n.namespace = ? AND n.id = t.successor)
       ORDER BY s.start_ms, u.session_id, u.seq`,
    ).all(namespace, namespace) as UnitRow[];
    return rows.map(toUnit);
  }

  /** One statement for all of them, through units_ns_session: not every unit of each question's session read and parsed. */
  async nextUnits(namespace: string, unitIds: readonly string[]): Promise<Map<string, MemoryUnit>> {
    this.assertOpen();
    if (!unitIds.length) return new Map();
    const rows = this.stmt(
      `SELECT q.id AS after, ${UNIT_COLUMNS} FROM json_each(?) j
       CROSS JOIN units q ON q.namespace = ? AND q.id = j.value
       JOIN units u INDEXED BY units_ns_session ON u.namespace = q.namespace AND u.session_id = q.session_id
         AND u.seq = (SELECT min(n.seq) FROM units n INDEXED BY units_ns_session WHERE n.namespace = q.namespace AND n.session_id = q.session_id AND n.seq > q.seq)
       JOIN sessions s ON s.namespace = u.namespace AND s.id = u.session_id`,
    ).all(JSON.stringify(unitIds), namespace) as Array<UnitRow & { after: string }>;
    return new Map(rows.map((r) => [r.after, toUnit(r)]));
  }

  /** From the turn_ids column (schema 5), through units_ns_session: no unit body is parsed but of a row written without it. */
  async listTurnIds(namespace: string, sessionId: string): Promise<string[]> {
    this.assertOpen();
    return this.stmt(
      "SELECT t.value FROM units u INDEXED BY units_ns_session, json_each(coalesce(u.turn_ids, json_extract(u.body, '$.provenance.turnIds'))) t WHERE u.namespace = ? AND u.session_id = ? ORDER BY u.seq, t.key",
    )
      .pluck()
      .all(namespace, sessionId) as string[];
  }

  async countUnits(namespace: string, filter: UnitFilter = {}): Promise<number> {
    this.assertOpen();
    const params: unknown[] = [];
    const where = unitWhere(namespace, filter, params);
    return Number(this.stmt(`SELECT count(*) FROM ${UNITS_WITH_SESSION} WHERE ${where}`).pluck().get(...params));
  }

  async searchLexical(namespace: string, terms: readonly string[], limit: number, options: SearchOptions = {}): Promise<ScoredUnitId[]> {
    this.assertOpen();
    return this.search.searchLexical(namespace, terms, limit, options);
  }

  async searchDense(namespace: string, vector: Float32Array, limit: number, options: SearchOptions = {}): Promise<ScoredUnitId[]> {
    this.assertOpen();
    return this.search.searchDense(namespace, vector, limit, options);
  }

  async scrubDeleted(options: ScrubOptions = {}): Promise<ScrubReport> {
    this.assertWritable();
    const steps: string[] = [];
    // FTS5 keeps index segments and their split keys: a rebuild into one segment drops every deleted term.
    this.db.exec("INSERT INTO fts(fts) VALUES ('optimize')");
    steps.push("fts optimize");
    if (this.dense.scrub().length) steps.push("dense index files of changed namespaces removed");
    // The lexical indexes hold the tokens of the units they were built from (as map keys): a forgotten unit's words go with them.
    this.lexical.drop();
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

  /**
   * Builds the HNSW index of every namespace at or above the index threshold
   * now (`ramem reindex`), so that no recall pays for it: a search builds a
   * missing one itself, and at 100k units that first search took ~2 min here.
   * Without `rebuild`, an index already on disk is caught up from the log and
   * kept; with it, every index is built again from the stored vectors.
   */
  async buildDenseIndexes(options: BuildDenseIndexesOptions = {}): Promise<SqliteDenseIndexReport> {
    this.assertWritable();
    const started = performance.now();
    const bound = this.binding();
    const namespaces: SqliteDenseIndexReport["namespaces"] = [];
    if (bound) {
      for (const namespace of options.namespaces ?? (await this.listNamespaces())) {
        const done = this.dense.prepare(namespace, { ...bound, storeId: this.storeId() }, {
          ...(options.rebuild ? { rebuild: true } : {}),
          ...(options.ifMissing ? { ifMissing: true } : {}),
          ...(options.onProgress ? { onProgress: (d: number, t: number) => options.onProgress!(d, t, namespace) } : {}),
        });
        if (done) namespaces.push({ namespace, ...done });
      }
    }
    const seconds = (performance.now() - started) / 1000;
    const vectors = namespaces.reduce((sum, n) => sum + n.vectors, 0);
    if (!namespaces.length) {
      return {
        action: "none",
        vectors: 0,
        seconds,
        namespaces,
        note: `no namespace has ${this.annMinUnits.toLocaleString("en-US")} units or more: every dense search is exact, there is no index to build`,
        ...this.dense.staleTempsReport(),
      };
    }
    // The temp files of killed index writes this open removed (dense-index-temps.ts): the space a user got back.
    return { action: namespaces.some((n) => n.built) ? "built" : "up to date", vectors, seconds, namespaces, ...this.dense.staleTempsReport() };
  }

  async listNamespaces(): Promise<string[]> {
    this.assertOpen();
    return this.stmt("SELECT namespace FROM sessions UNION SELECT namespace FROM units ORDER BY 1").pluck().all() as string[];
  }

  async namespaceSizes(limit: number): Promise<NamespaceSize[]> {
    this.assertOpen();
    return this.stmt(
      `SELECT namespace, sum(sessions) AS sessions, sum(units) AS units FROM (
         SELECT namespace, count(*) AS sessions, 0 AS units FROM sessions GROUP BY namespace
         UNION ALL SELECT namespace, 0, count(*) FROM units GROUP BY namespace)
       GROUP BY namespace ORDER BY units DESC, namespace LIMIT ?`,
    ).all(limit) as NamespaceSize[];
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
    const entry = this.caches.entryOf(namespace);
    if (entry.range === undefined) entry.range = this.readHistoryRange(namespace);
    return entry.range ? { ...entry.range } : null;
  }

  private readHistoryRange(namespace: string): { start: string; end: string } | null {
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
    try {
      if (!this.readonly) this.dense.persistAll(this.binding() && { ...this.binding()!, storeId: this.storeId() });
    } finally {
      this.handle.clearStatements();
      this.db.close();
    }
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
