import { existsSync } from "node:fs";
import Database from "better-sqlite3";
import * as sqliteVec from "sqlite-vec";
import type { Session } from "../../model/conversation.js";
import type { MemoryUnit } from "../../model/memory-unit.js";
import { RamemError } from "../../model/errors.js";
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
  UnitFilter,
  UnitRecord,
  UpdateUnitsOptions,
  WriteOptions,
  DeleteUnitOptions,
} from "../contract.js";
import type { ChangeStamp, UnitHistoryEvent } from "../../model/unit-history.js";
import { UNIT_COLUMNS, UNITS_WITH_SESSION, metadataColumn, stampOrNow, unitBody, unitFromColumns, unitTimes, type UnitColumns } from "../unit-row.js";
import { sqliteFilter } from "./sqlite-filter.js";
import { checkAppendable, unitNotInSession } from "../check-session-records.js";
import { checkReadable, migrate, STATE_UNIT_CONDITION } from "./schema.js";
import { bindingFromMeta, checkEmbedderBinding, type EmbedderBinding } from "../embedder-binding.js";
import { storedSessionFromRow, type SessionRow as SessionRowOf } from "../session-row.js";
import { storeStats } from "../store-stats.js";
import { revisedSessionHash } from "../session-hash.js";
import { checkExpectedHash, checkNamespaceEmpty, checkRecordEmbeddings, parseNamespaceRecords, parseSessionRecords, unitIdConflict, type CheckedSession } from "../check-session-records.js";
import { echoValue } from "../../model/echo-value.js";
import { ANN_MIN_UNITS, SqliteDenseIndexes } from "./dense-index.js";
import type { SqliteDenseIndexReport } from "./dense-index-report.js";
import { SqliteLexicalIndexes } from "./lexical-index.js";
import { stemmer } from "stemmer";

export interface SqliteStoreOptions {
  readonly?: boolean;
  /** Refuse (STORE_NOT_FOUND) rather than create an empty file: for commands that only read. */
  mustExist?: boolean;
  /** How long a writer waits for another process's lock, in ms. */
  busyTimeoutMs?: number;
  /** Namespaces with at least this many units are searched through an HNSW index (default ANN_MIN_UNITS); tests set it low. */
  annMinUnits?: number;
}

/** sqlite-vec refuses a KNN `k` above this. */
const VEC_MAX_K = 4096;

type SessionRow = SessionRowOf<string>;

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
  return store.dialect === "sqlite" && typeof (store as Partial<SqliteMemoryStore>).buildDenseIndexes === "function";
}

export async function openSqliteStore(path: string, opts: SqliteStoreOptions = {}): Promise<SqliteMemoryStore> {
  return SqliteStore.open(path, opts);
}

const toStoredSession = (r: SessionRow): StoredSession => storedSessionFromRow(r, (ps) => JSON.parse(ps) as string[]);

/** Each term becomes a quoted FTS5 string, so user words never act as operators (AND, NEAR, column:). */
export function toFtsQuery(terms: readonly string[]): string | null {
  const parts = terms.map((t) => t.trim()).filter((t) => t.length > 0).map((t) => `"${t.replaceAll('"', '""')}"`);
  return parts.length ? parts.join(" OR ") : null;
}

/** The namespace's one FTS5 token (column ns_key): hex keeps any name one token, so no namespace's token is another's. */
export const namespaceToken = (namespace: string): string => `n${Buffer.from(namespace).toString("hex").toUpperCase()}`;

/**
 * The terms, matched in content and cue only, of the units of one namespace:
 * the namespace's token is ANDed inside the index, so FTS5 never walks
 * another namespace's postings past what the AND skips over. The ns_key
 * column has weight 0 in bm25(), but FTS5 counts a row's length over every
 * indexed column, so each unit reads one token longer than before schema 3:
 * LoCoMo Recall@10 moved by +0.002 (README › Numbers › Scale).
 */
function namespaceFtsQuery(namespace: string, terms: string): string {
  return `ns_key : "${namespaceToken(namespace)}" AND {content cue} : (${terms})`;
}

/**
 * From this namespace size on, lexical search leaves out terms that bm25
 * weighs ~0 (informativeTerms): where their postings start to cost more than
 * the rest of a recall (measured on the scale bench: ~60 ms of a 10k
 * namespace's recall is its owner's name).
 */
export const LEXICAL_PRUNE_MIN_UNITS = 5_000;

/**
 * From this namespace size on, an unfiltered lexical search is ranked by the
 * in-memory index (lexical-index.ts: FTS5's bm25, the same order, without
 * FTS5's per-match cost); below, by FTS5 itself.
 */
export const LEXICAL_INDEX_MIN_UNITS = 5_000;

/** bm25 weights per column: content, cue, namespace (unindexed), ns_key. */
const BM25 = "bm25(fts, 1.0, 0.5, 0.0, 0.0)";

/** What listSessions and historyRange read, kept per namespace until a write. */
interface NamespaceCache {
  /** Which entry this is, never reused by the handle: the namespace's version (namespaceVersion). */
  generation: number;
  sessions?: StoredSession[];
  range?: { start: string; end: string } | null;
  units?: number;
}

function clampLimit(limit: number | undefined, fallback: number): number {
  if (limit === undefined || !Number.isFinite(limit)) return fallback;
  return Math.max(0, Math.floor(limit));
}

class SqliteStore implements SqliteMemoryStore {
  readonly specificationVersion = "v1" as const;
  readonly dialect = "sqlite";
  readonly location: string;
  private readonly db: Database.Database;
  private readonly readonly: boolean;
  private readonly statements = new Map<string, Database.Statement>();
  private closed = false;
  private readonly dense: SqliteDenseIndexes;
  private readonly lexical: SqliteLexicalIndexes;
  private readonly cached = new Map<string, NamespaceCache>();
  /** PRAGMA data_version when `cached` was last known valid: it changes when another connection commits. */
  private cachedAt = -1;
  /** The file's unit count and terms' document counts (FTS5's own statistics, for bm25's idf), cleared with `cached`. */
  private termStats: { rows?: number; docs: Map<string, number> } = { docs: new Map() };
  /** The last NamespaceCache generation handed out. */
  private generations = 0;

  private constructor(db: Database.Database, location: string, readonly: boolean, private readonly annMinUnits: number) {
    this.db = db;
    this.location = location;
    this.readonly = readonly;
    const persisted = readonly || location === ":memory:" || location === "" ? null : SqliteDenseIndexes.dirFor(location);
    this.dense = new SqliteDenseIndexes(db, persisted, annMinUnits);
    this.lexical = new SqliteLexicalIndexes(db, Math.min(LEXICAL_INDEX_MIN_UNITS, annMinUnits));
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
    return new SqliteStore(db, path, readonly, opts.annMinUnits ?? ANN_MIN_UNITS);
  }

  // Statements are prepared lazily: the vec table only exists after bindEmbedder,
  // possibly bound by another process after this handle opened.
  private stmt(sql: string): Database.Statement {
    let s = this.statements.get(sql);
    if (!s) {
      // Filters make statement shapes a caller chooses: the cache is bounded.
      if (this.statements.size >= 512) this.statements.clear();
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

  /**
   * The namespace's cache entry, emptied when anything committed since it
   * was filled: this handle's writes clear it themselves (forget()), another
   * process's show in data_version.
   */
  private cacheOf(namespace: string): NamespaceCache {
    const version = Number(this.db.pragma("data_version", { simple: true }));
    if (version !== this.cachedAt) {
      this.cached.clear();
      this.termStats = { docs: new Map() };
      this.cachedAt = version;
    }
    let entry = this.cached.get(namespace);
    if (!entry) this.cached.set(namespace, (entry = { generation: ++this.generations }));
    return entry;
  }

  /**
   * The generation of the namespace's cache entry: every write drops the
   * entry (this handle's through forget(), another process's through
   * data_version), so a new one — with a new number — stands for a
   * namespace that may have changed.
   */
  async namespaceVersion(namespace: string): Promise<string> {
    this.assertOpen();
    return String(this.cacheOf(namespace).generation);
  }

  /** Called inside every write: the caches of the namespace (all of them when it is not known) are dropped. */
  private forget(namespace?: string): void {
    if (namespace === undefined) this.cached.clear();
    else this.cached.delete(namespace);
    this.termStats = { docs: new Map() };
  }

  /**
   * The terms without those found in at least half of the file's units.
   * FTS5's bm25 gives such a term an idf of 1e-6 (its log is ≤ 0), so it adds
   * at most ~2e-6 to a unit's score, yet scoring it means walking and scoring
   * every posting: a speaker's name is in every unit they said ("Alice: …"),
   * which at 100k units is most of a search's time. Without it, units that
   * only it matched leave the lexical list (they ranked by noise) and the
   * near-ties it broke fall to rowid. Document counts come from fts5vocab by
   * the term's porter stem; a stem FTS5 spells otherwise is not found and the
   * term is kept. All terms that common: the query is left as it is. Only in
   * namespaces of LEXICAL_PRUNE_MIN_UNITS units or more: below, lexical
   * results are exactly FTS5's (LoCoMo's namespaces hold 300–700 units).
   */
  private informativeTerms(namespace: string, terms: readonly string[]): readonly string[] {
    if (!this.prunesCommonTerms(namespace)) return terms;
    const stats = this.termStats;
    stats.rows ??= Number(this.stmt("SELECT count(*) FROM units").pluck().get());
    const rows = stats.rows;
    const docsOf = (term: string): number => {
      let docs = stats.docs.get(term);
      if (docs === undefined) {
        docs = Number((this.stmt("SELECT doc FROM temp.fts_vocab WHERE term = ?").pluck().get(stemmer(term.toLowerCase())) as number | undefined) ?? 0);
        stats.docs.set(term, docs);
      }
      return docs;
    };
    const kept = terms.filter((t) => !(rows > 0 && /^[\p{L}\p{N}]+$/u.test(t) && 2 * docsOf(t) >= rows));
    return kept.length ? kept : terms;
  }

  /** Whether the namespace is large enough for lexical search to leave out terms bm25 weighs ~0 (informativeTerms). */
  private prunesCommonTerms(namespace: string): boolean {
    const entry = this.cacheOf(namespace);
    entry.units ??= Number(this.stmt("SELECT coalesce(sum(unit_count), 0) FROM sessions WHERE namespace = ?").pluck().get(namespace));
    return entry.units >= Math.min(LEXICAL_PRUNE_MIN_UNITS, this.annMinUnits);
  }

  /** Recall reads the session list on every query: it is read from the file once per change of the namespace. Callers get their own array. */
  async listSessions(namespace: string): Promise<StoredSession[]> {
    this.assertOpen();
    const entry = this.cacheOf(namespace);
    if (!entry.sessions) {
      const rows = this.stmt("SELECT * FROM sessions WHERE namespace = ? ORDER BY start_ms, id").all(namespace) as SessionRow[];
      entry.sessions = rows.map(toStoredSession);
    }
    return entry.sessions.map((s) => ({ ...s, participants: [...s.participants], ...(s.metadata ? { metadata: structuredClone(s.metadata) } : {}) }));
  }

  async replaceSession(session: Session, contentHash: string, units: UnitRecord[], options: ReplaceSessionOptions = {}): Promise<void> {
    this.assertWritable();
    const checked = parseSessionRecords(session, units);
    checkRecordEmbeddings(checked, checked.records.length ? this.binding() : null, this.location);
    // IMMEDIATE: the write lock is held from here, so no other process can change the session between the hash check and the write.
    this.inWriteTransaction(checked.where, () => this.writeSession(checked, contentHash, options.expectedHash, options.change, options.removedAs));
  }

  async restoreNamespace(namespace: string, sessions: readonly SessionRecords[], options: WriteOptions = {}): Promise<void> {
    this.assertWritable();
    const checked = parseNamespaceRecords(namespace, sessions);
    const bound = checked.some((c) => c.records.length) ? this.binding() : null;
    for (const c of checked) checkRecordEmbeddings(c, bound, this.location);
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
      this.forget();
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

  async appendUnits(session: Session, contentHash: string, units: UnitRecord[], options: AppendUnitsOptions): Promise<void> {
    this.assertWritable();
    const checked = parseSessionRecords(session, units);
    checkRecordEmbeddings(checked, checked.records.length ? this.binding() : null, this.location);
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

  async updateUnits(namespace: string, sessionId: string, contentHash: string, units: UnitRecord[], options: UpdateUnitsOptions): Promise<void> {
    this.assertWritable();
    const stored = await this.getSession(namespace, sessionId);
    const where = `session ${namespace}/${sessionId}`;
    const { session: _s, records } = parseSessionRecords(
      stored ?? { id: sessionId, namespace, startTime: new Date(0).toISOString(), endTime: new Date(0).toISOString(), participants: [] },
      units,
    );
    checkRecordEmbeddings({ session: _s, where, records }, records.length ? this.binding() : null, this.location);
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

  async unitHistory(namespace: string, unitId: string): Promise<UnitHistoryEvent[]> {
    this.assertOpen();
    const rows = this.stmt(
      "SELECT unit_id, session_id, event, at, actor, text, previous_text FROM unit_history WHERE namespace = ? AND unit_id = ? ORDER BY rowid",
    ).all(namespace, unitId) as Array<{ unit_id: string; session_id: string; event: UnitHistoryEvent["event"]; at: string; actor: string; text: string | null; previous_text: string | null }>;
    return rows.map((r) => ({ unitId: r.unit_id, sessionId: r.session_id, event: r.event, at: r.at, actor: r.actor, text: r.text, previousText: r.previous_text }));
  }

  /** Rowids are fetched first: a vec0 DELETE with a subquery scans the whole table. */
  private deleteRows(namespace: string, rowids: readonly (number | bigint)[]): void {
    if (!rowids.length) return;
    const delUnit = this.stmt("DELETE FROM units WHERE rowid = ?");
    const delFts = this.stmt("DELETE FROM fts WHERE rowid = ?");
    const delVec = this.binding() ? this.stmt("DELETE FROM vec WHERE rowid = ?") : null;
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
    if (!options.where && clampLimit(limit, 0) > 0) {
      // Ranked as FTS5 would rank it, at a cost per posting FTS5 cannot match (lexical-index.ts); the index leaves out the
      // terms informativeTerms would, counting their units itself (fts5vocab walks a term's postings to count them).
      const words = terms.map((t) => t.trim()).filter((t) => t.length > 0);
      const ranked = this.lexical.search(namespace, words, clampLimit(limit, 0), namespaceToken(namespace), this.prunesCommonTerms(namespace));
      if (ranked) {
        // In the index's order; a unit deleted since the index caught up is not in the join, so it is never returned.
        const idOf = this.unitIdsOf(namespace, ranked.map((h) => h.rowid));
        return ranked.filter((h) => idOf.has(h.rowid)).map((h, i) => ({ id: idOf.get(h.rowid)!, score: h.score, rank: i + 1 }));
      }
    }
    const query = toFtsQuery(this.informativeTerms(namespace, terms));
    const k = clampLimit(limit, 0);
    if (!query || k === 0) return [];
    if (options.where) {
      // Every match is scored first (the MATCH alone, as below), then the filter narrows them inside the same statement.
      const params: unknown[] = [namespaceFtsQuery(namespace, query), namespace];
      const filter = sqliteFilter(options.where, params);
      params.push(k);
      const rows = this.stmt(
        `WITH hits AS MATERIALIZED (
           SELECT rowid, ${BM25} AS b FROM fts WHERE fts MATCH ? AND namespace = ?
         )
         SELECT u.id AS id, hits.b AS b FROM hits JOIN units u ON u.rowid = hits.rowid JOIN sessions s ON s.namespace = u.namespace AND s.id = u.session_id
         WHERE ${filter} ORDER BY hits.b, hits.rowid LIMIT ?`,
      ).all(...params) as { id: string; b: number }[];
      return rows.map((r, i) => ({ id: r.id, score: -r.b, rank: i + 1 }));
    }
    // The MATCH runs alone in the CTE; joining units inside it lets SQLite drive
    // the FTS lookup once per unit row, which is seconds on a large store.
    const rows = this.stmt(
      `WITH hits AS MATERIALIZED (
         SELECT rowid, ${BM25} AS b FROM fts
         WHERE fts MATCH ? AND namespace = ?
         ORDER BY b, rowid LIMIT ?
       )
       SELECT u.id AS id, hits.b AS b FROM hits JOIN units u ON u.rowid = hits.rowid
       ORDER BY hits.b, hits.rowid`,
    ).all(namespaceFtsQuery(namespace, query), namespace, k) as { id: string; b: number }[];
    return rows.map((r, i) => ({ id: r.id, score: -r.b, rank: i + 1 }));
  }

  async searchDense(namespace: string, vector: Float32Array, limit: number, options: SearchOptions = {}): Promise<ScoredUnitId[]> {
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
    if (options.where) {
      // A filtered search is an exact scan of the units the filter selects: vec0's KNN cannot filter on metadata, and a KNN then filtered could come back short.
      const params: unknown[] = [vector, namespace];
      const filter = sqliteFilter(options.where, params);
      params.push(BigInt(k));
      const rows = this.stmt(
        `SELECT u.id AS id, vec_distance_cosine(v.embedding, ?) AS d FROM ${UNITS_WITH_SESSION} JOIN vec v ON v.rowid = u.rowid
         WHERE u.namespace = ? AND ${filter} ORDER BY d, u.rowid LIMIT ?`,
      ).all(...params) as { id: string; d: number }[];
      return rows.map((r, i) => ({ id: r.id, score: 1 - r.d, rank: i + 1 }));
    }
    if (k <= VEC_MAX_K) {
      const approximate = this.dense.search(namespace, vector, k, { ...bound, storeId: this.storeId() });
      if (approximate) return this.idsOfRowids(namespace, approximate);
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

  /** The index's hits as units of the namespace, best first; a unit deleted meanwhile is not in the join, so it is never returned. */
  private idsOfRowids(namespace: string, hits: ReadonlyArray<{ rowid: number; distance: number }>): ScoredUnitId[] {
    const idOf = this.unitIdsOf(namespace, hits.map((h) => h.rowid));
    const sorted = hits.filter((h) => idOf.has(h.rowid)).sort((a, b) => a.distance - b.distance || a.rowid - b.rowid);
    return sorted.map((h, i) => ({ id: idOf.get(h.rowid)!, score: 1 - h.distance, rank: i + 1 }));
  }

  /** The ids of those rowids that are units of the namespace. */
  private unitIdsOf(namespace: string, rowids: readonly number[]): Map<number, string> {
    return new Map(
      // CROSS JOIN keeps json_each outside: with `rowid IN (…) AND namespace = ?` the planner walked the namespace's index (12 ms at 100k units, against 0.3).
      (this.stmt("SELECT u.rowid AS rowid, u.id AS id FROM json_each(?) j CROSS JOIN units u ON u.rowid = j.value WHERE u.namespace = ?").all(JSON.stringify(rowids), namespace) as Array<{
        rowid: number;
        id: string;
      }>).map((r) => [r.rowid, r.id]),
    );
  }

  private storeIdValue: string | null = null;

  private storeId(): string {
    this.storeIdValue ??= (this.stmt("SELECT value FROM meta WHERE key = 'store_id'").pluck().get() as string | undefined) ?? "";
    return this.storeIdValue;
  }

  async deleteUnit(namespace: string, unitId: string, options: DeleteUnitOptions = {}): Promise<boolean> {
    this.assertWritable();
    const stamp = stampOrNow(options.change);
    this.forget(namespace);
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

  async deleteSession(namespace: string, sessionId: string, options: WriteOptions = {}): Promise<number> {
    this.assertWritable();
    const stamp = stampOrNow(options.change);
    this.forget(namespace);
    return this.db
      .transaction(() => {
        this.recordForgotten(namespace, stamp, { sessionId });
        const n = this.deleteSessionUnits(namespace, sessionId);
        this.stmt("DELETE FROM sessions WHERE namespace = ? AND id = ?").run(namespace, sessionId);
        return n;
      })
      .immediate();
  }

  async deleteNamespace(namespace: string, options: WriteOptions = {}): Promise<number> {
    this.assertWritable();
    const stamp = stampOrNow(options.change);
    this.forget(namespace);
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
    const entry = this.cacheOf(namespace);
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
      this.statements.clear();
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

type UnitRow = UnitColumns<string>;

const toUnit = (r: UnitRow): MemoryUnit => unitFromColumns(r, (j) => JSON.parse(j));

/** The WHERE of listUnits and countUnits over `units u JOIN sessions s`; parameters appended to `params`. */
function unitWhere(namespace: string, filter: UnitFilter, params: unknown[]): string {
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
