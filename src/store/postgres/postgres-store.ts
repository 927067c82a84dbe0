/**
 * The PostgreSQL store: opening (pool, migration) and closing a schema, the
 * pool's error handling (`q`, `tx`), the embedder binding, the HNSW index's
 * maintenance, the bulk-load lock's connections (bulk-load-lock.ts takes
 * them), and every read and search of the MemoryStore contract; writes are
 * postgres-writes.ts's (their statements write-statements.ts's), row helpers
 * postgres-rows.ts's.
 */
import type pg from "pg";
import { inTransaction } from "./in-transaction.js";
import type { Session } from "../../model/conversation.js";
import type { MemoryUnit } from "../../model/memory-unit.js";
import { RamemError } from "../../model/errors.js";
import { checkArgs } from "../../model/check-args.js";
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
import { DEFAULT_SCHEMA, checkSchemaName, connectionError, createPool, parsePostgresUrl } from "./connection.js";
import { takeBulkLoadLock } from "./bulk-load-lock.js";
import { searchDenseComplete } from "./dense-search.js";
import { checkDenseIndexBuildOptions, dropDenseIndex, hasValidDenseIndex, rebuildDenseIndex } from "./dense-index.js";
import type { DenseIndexBuildOptions, DenseIndexReport } from "./dense-index-report.js";
import { SessionListCache } from "./session-list-cache.js";
import type { DenseSearchInfo } from "./dense-search-info.js";
import type { LexicalChannel } from "./lexical/lexical-channel.js";
import { createBm25Lexical } from "./lexical/bm25-lexical.js";
import { HNSW_MAX_DIMS, migrate, STATE_UNIT_CONDITION, vectorTableDdl } from "./schema.js";
import { bindingFromMeta, checkEmbedderBinding, type EmbedderBinding } from "../embedder-binding.js";
import { storeStats } from "../store-stats.js";
import { PostgresWriter } from "./postgres-writes.js";
import { clampLimit, SESSION_COLUMNS, SESSION_OF_UNIT, toStoredSession, toUnit, unitWhere, type SessionRow, type UnitRow } from "./postgres-rows.js";

export interface PostgresStoreOptions {
  /**
   * Schema holding the store's tables (created if missing). Default: the URL's
   * `?schema=` parameter, else "ramem". One database can hold many stores.
   */
  schema?: string;
  /** Drop the schema (and everything in it) on close: for tests and throwaway benches. */
  dropSchemaOnClose?: boolean;
  /** Pool size per store handle (default 4). */
  maxConnections?: number;
  connectTimeoutMs?: number;
  /** Namespaces with at most this many units are searched exactly, without HNSW (default 2,000). */
  exactSearchMaxUnits?: number;
  /** Reports how each dense search was answered (exact, HNSW, HNSW then exact). */
  onDenseSearch?: (info: DenseSearchInfo) => void;
  /** Tests only: answer the HNSW path from the index even when the planner would sort instead (see dense-search.ts). */
  forceHnswIndex?: boolean;
  /** The lexical ranking (default: BM25 over the english configuration; createTsRankLexical() for ts_rank_cd). */
  lexical?: LexicalChannel;
}

/** Measured (src/bench/timings/store-latency.ts, 512 dims): exact 22.5 ms vs HNSW 5.1 ms p50 at 6,000 units; exact is linear, so they meet near 1,500. */
export const DEFAULT_EXACT_SEARCH_MAX_UNITS = 2_000;

/**
 * BM25 (in SQL, per namespace) rather than PostgreSQL's ts_rank_cd: on LoCoMo
 * it matches SQLite's FTS5 (lexical-only Recall@10 0.695 vs 0.461 for
 * ts_rank_cd); see README.md › Lexical channel.
 */
const DEFAULT_LEXICAL = createBm25Lexical();

type Binding = EmbedderBinding;

/** A MemoryStore in PostgreSQL, with the HNSW index's maintenance (dense-index.ts), which SQLite has no counterpart of. */
export interface PostgresMemoryStore extends MemoryStore {
  /**
   * Builds the HNSW index again in one go (or creates it after dropDenseIndex),
   * without blocking reads or writes: a better graph than the one inserts grew,
   * and the end of a bulk load. `maintenanceWorkMem` for the build's session.
   */
  rebuildDenseIndex(options?: DenseIndexBuildOptions): Promise<DenseIndexReport>;
  /**
   * Drops the HNSW index before a bulk load; dense searches are exact scans
   * until rebuildDenseIndex. False when there is none — also on a store not
   * yet bound, whose first bindEmbedder then creates it: bulkLoad
   * (bulk-load.ts) binds first for that reason.
   */
  dropDenseIndex(): Promise<boolean>;
  /** True when the HNSW index is there and valid: false after dropDenseIndex, or after a build that was interrupted. */
  hasDenseIndex(): Promise<boolean>;
  /** Refreshes the planner's statistics of the store's tables and vacuums the postings (the end of a bulk load). */
  analyzeTables(): Promise<void>;
  /**
   * Takes the schema's bulk-load lock, or refuses with BULK_LOAD_BUSY while
   * another process (or store) holds it; resolves to its release. A
   * session-level advisory lock on a connection of its own (not the pool's),
   * so a process that dies lets go of it with its connection.
   */
  lockBulkLoad(): Promise<() => Promise<void>>;
}

/** True for a store opened by openPostgresStore (the CLI's `reindex` asks). */
export function isPostgresMemoryStore(store: MemoryStore): store is PostgresMemoryStore {
  return store.dialect === "postgres" && typeof (store as Partial<PostgresMemoryStore>).rebuildDenseIndex === "function";
}

/**
 * Opens (creating and migrating if needed) a MemoryStore in PostgreSQL with
 * pgvector. `url` is postgres://USER:PASSWORD@HOST:PORT/DB[?schema=NAME].
 */
export async function openPostgresStore(url: string, options: PostgresStoreOptions = {}): Promise<PostgresMemoryStore> {
  checkArgs("openPostgresStore", { url: [url, "string"], options: [options, "object?"], "options.schema": [options?.schema, "string?"], "options.maxConnections": [options?.maxConnections, "number?"] });
  return PostgresStore.open(url, options);
}

class PostgresStore implements PostgresMemoryStore {
  readonly specificationVersion = "v1" as const;
  readonly dialect = "postgres";
  readonly location: string;
  private readonly pool: pg.Pool;
  private readonly schema: string;
  /** The connections holding a bulk-load lock (lockBulkLoad), ended by close(). */
  private readonly lockClients = new Set<pg.Client>();
  private readonly options: PostgresStoreOptions;
  private readonly lexical: LexicalChannel;
  private readonly sessionLists = new SessionListCache();
  private readonly writer: PostgresWriter;
  private closed = false;

  private constructor(pool: pg.Pool, location: string, schema: string, options: PostgresStoreOptions) {
    this.pool = pool;
    this.location = location;
    this.schema = schema;
    this.options = options;
    this.lexical = options.lexical ?? DEFAULT_LEXICAL;
    this.writer = new PostgresWriter({
      location,
      tx: (fn) => this.tx(fn),
      binding: () => this.binding().catch((err: unknown) => Promise.reject(this.driverError(err))),
    });
  }

  static async open(url: string, options: PostgresStoreOptions): Promise<PostgresStore> {
    const target = parsePostgresUrl(url);
    const schema = checkSchemaName(options.schema ?? target.schema ?? DEFAULT_SCHEMA, target.redacted);
    const location = schema === DEFAULT_SCHEMA && !target.schema ? target.redacted : `${target.redacted} (schema ${schema})`;
    const pool = createPool(target, {
      searchPath: [schema, "public"],
      ...(options.maxConnections ? { maxConnections: options.maxConnections } : {}),
      ...(options.connectTimeoutMs ? { connectTimeoutMs: options.connectTimeoutMs } : {}),
    });
    try {
      await migrate(pool, schema, location);
    } catch (err) {
      await pool.end().catch(() => {});
      throw connectionError(err, location);
    }
    return new PostgresStore(pool, location, schema, options);
  }

  private assertOpen(): void {
    if (this.closed) throw new RamemError("STORE_CLOSED", "the store is closed", { where: this.location });
  }

  /** A query on the pool; connection failures become RamemErrors with a hint. */
  private async q<R extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<pg.QueryResult<R>> {
    this.assertOpen();
    try {
      return await this.pool.query<R>(sql, params);
    } catch (err) {
      throw this.driverError(err);
    }
  }

  private driverError(err: unknown): unknown {
    if (err instanceof RamemError) return err;
    const code = (err as { code?: string }).code;
    // SQLSTATE errors are the server's answer to a query (bugs or constraint
    // failures): passed on. Node errors mean the server could not be reached.
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code) && !code.startsWith("08") && !code.startsWith("57P")) return err;
    return connectionError(err, this.location);
  }

  /** Runs `fn` in one transaction on one client; any failure rolls it all back. */
  private async tx<T>(fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    this.assertOpen();
    try {
      return await inTransaction(this.pool, fn);
    } catch (err) {
      throw this.driverError(err);
    }
  }

  /** Read each time rather than cached: another process may have bound the embedder meanwhile. */
  private async binding(db: Pick<pg.Pool, "query"> | pg.PoolClient = this.pool): Promise<Binding | null> {
    const { rows } = await db.query<{ key: string; value: string }>("SELECT key, value FROM meta WHERE key IN ('embedder', 'dimensions')");
    return bindingFromMeta(rows);
  }

  async bindEmbedder(embedderId: string, dimensions: number): Promise<void> {
    this.assertOpen();
    const check = (b: Binding | null): boolean => checkEmbedderBinding(b, embedderId, dimensions, {
      location: this.location,
      hint: "use another schema (?schema=...) or database for this embedder, or re-ingest everything into a new store with it",
    });
    if (check(await this.binding().catch((err: unknown) => Promise.reject(this.driverError(err))))) return;
    await this.tx(async (c) => {
      // Serialises binders of this schema; the second one finds the binding made by the first.
      await c.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`ramem:bind:${this.schema}`]);
      if (check(await this.binding(c))) return;
      await c.query(vectorTableDdl(dimensions));
      await c.query(
        `INSERT INTO meta (key, value) VALUES ('embedder', $1), ('dimensions', $2)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
        [embedderId, String(dimensions)],
      );
    });
  }

  async rebuildDenseIndex(options: DenseIndexBuildOptions = {}): Promise<DenseIndexReport> {
    this.assertOpen();
    checkDenseIndexBuildOptions(options);
    const bound = await this.binding().catch((err: unknown) => Promise.reject(this.driverError(err)));
    if (bound && bound.dimensions > HNSW_MAX_DIMS) {
      return { action: "none", vectors: 0, seconds: 0, note: `${bound.dimensions}-dim vectors are above pgvector's HNSW limit (${HNSW_MAX_DIMS}): every dense search is exact` };
    }
    try {
      return await rebuildDenseIndex(this.pool, options);
    } catch (err) {
      throw this.driverError(err);
    }
  }

  /**
   * Refreshes the planner's statistics of the store's tables. After a bulk
   * load autovacuum's analyze lags by up to a minute, and until it runs the
   * planner may sort the namespace's vectors instead of walking the HNSW index:
   * the scale bench at 100k measured searchDense 66 ms p50 (R@100 0.999, an
   * exact scan's) against 14 ms in a run where the analyze came first.
   *
   * The postings are vacuumed too: BM25 reads them index-only, which skips
   * the heap only on pages a vacuum marked all-visible, and autovacuum's
   * insert threshold left the last fifth of a load unmarked (figures:
   * docs/experiments.md › A bulk load vacuums the postings). Autocommit
   * (pool.query): VACUUM cannot run in a transaction.
   */
  async analyzeTables(): Promise<void> {
    await this.q("VACUUM (ANALYZE) unit_terms");
    await this.q("ANALYZE units, unit_vectors, namespace_terms, sessions");
  }

  async lockBulkLoad(): Promise<() => Promise<void>> {
    this.assertOpen();
    const client = await takeBulkLoadLock(this.pool, this.schema, this.location, (err) => this.driverError(err));
    this.lockClients.add(client);
    return async () => {
      // close() may have let go of it already. Ending the session lets go of its advisory lock.
      if (this.lockClients.delete(client)) await client.end().catch(() => undefined);
    };
  }

  hasDenseIndex(): Promise<boolean> {
    return this.onPool(hasValidDenseIndex);
  }

  dropDenseIndex(): Promise<boolean> {
    return this.onPool(dropDenseIndex);
  }

  /** Work of dense-index.ts on the pool; connection failures become RamemErrors with a hint, as in q(). */
  private async onPool<T>(work: (pool: pg.Pool) => Promise<T>): Promise<T> {
    this.assertOpen();
    try {
      return await work(this.pool);
    } catch (err) {
      throw this.driverError(err);
    }
  }

  async getSession(namespace: string, sessionId: string): Promise<StoredSession | null> {
    const { rows } = await this.q<SessionRow>(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE namespace = $1 AND id = $2`, [namespace, sessionId]);
    return rows[0] ? toStoredSession(rows[0]) : null;
  }

  /** Read again only when the namespace's sessions version moved (session-list-cache.ts): the recall pipeline lists them on every recall. */
  async listSessions(namespace: string): Promise<StoredSession[]> {
    const { rows: at } = await this.q<{ version: string }>(
      "SELECT coalesce((SELECT version FROM namespace_sessions_version WHERE namespace = $1), 0)::text AS version",
      [namespace],
    );
    const version = at[0]!.version;
    const kept = this.sessionLists.get(namespace, version);
    if (kept) return kept;
    const { rows } = await this.q<SessionRow>(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE namespace = $1 ORDER BY start_at, id COLLATE "C"`, [namespace]);
    const sessions = rows.map(toStoredSession);
    this.sessionLists.set(namespace, version, sessions);
    return sessions;
  }

  /**
   * namespace_version's value (schema 8): a new one from a sequence for every
   * statement that writes the namespace's units or sessions, in any process;
   * "0" for a namespace that holds nothing.
   */
  async namespaceVersion(namespace: string): Promise<string> {
    const { rows } = await this.q<{ version: string }>(
      "SELECT coalesce((SELECT version FROM namespace_version WHERE namespace = $1), 0)::text AS version",
      [namespace],
    );
    return rows[0]!.version;
  }

  async replaceSession(session: Session, contentHash: string, units: UnitRecord[], options: ReplaceSessionOptions = {}): Promise<void> {
    this.assertOpen();
    await this.writer.replaceSession(session, contentHash, units, options);
  }

  async restoreNamespace(namespace: string, sessions: readonly SessionRecords[], options: WriteOptions = {}): Promise<void> {
    this.assertOpen();
    await this.writer.restoreNamespace(namespace, sessions, options);
  }

  async appendUnits(session: Session, contentHash: string, units: UnitRecord[], options: AppendUnitsOptions): Promise<void> {
    this.assertOpen();
    await this.writer.appendUnits(session, contentHash, units, options);
  }

  async updateUnits(namespace: string, sessionId: string, contentHash: string, units: UnitRecord[], options: UpdateUnitsOptions): Promise<void> {
    this.assertOpen();
    const stored = await this.getSession(namespace, sessionId);
    await this.writer.updateUnits(stored, namespace, sessionId, contentHash, units, options);
  }

  deleteUnit(namespace: string, unitId: string, options: DeleteUnitOptions = {}): Promise<boolean> {
    return this.writer.deleteUnit(namespace, unitId, options);
  }

  deleteSession(namespace: string, sessionId: string, options: WriteOptions = {}): Promise<number> {
    return this.writer.deleteSession(namespace, sessionId, options);
  }

  deleteNamespace(namespace: string, options: WriteOptions = {}): Promise<number> {
    return this.writer.deleteNamespace(namespace, options);
  }

  async unitHistory(namespace: string, unitId: string): Promise<UnitHistoryEvent[]> {
    const { rows } = await this.q<{ unit_id: string; session_id: string; event: UnitHistoryEvent["event"]; at: string; actor: string; text: string | null; previous_text: string | null }>(
      "SELECT unit_id, session_id, event, at, actor, text, previous_text FROM unit_history WHERE namespace = $1 AND unit_id = $2 ORDER BY seq",
      [namespace, unitId],
    );
    return rows.map((r) => ({ unitId: r.unit_id, sessionId: r.session_id, event: r.event, at: r.at, actor: r.actor, text: r.text, previousText: r.previous_text }));
  }

  async getUnits(namespace: string, ids: readonly string[]): Promise<MemoryUnit[]> {
    this.assertOpen();
    if (!ids.length) return [];
    const { rows } = await this.q<UnitRow & { id: string }>(`SELECT u.id AS id, ${UNIT_COLUMNS} FROM units u ${SESSION_OF_UNIT} WHERE u.namespace = $1 AND u.id = ANY($2::text[])`, [
      namespace,
      [...ids],
    ]);
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
    if (!ids.length) return out;
    const bound = await this.binding().catch((err: unknown) => Promise.reject(this.driverError(err)));
    if (!bound) return out;
    // As text: "[0.1,0.2,...]" is exact (pgvector prints float4 round-trippable) and needs no type parser.
    const { rows } = await this.q<{ id: string; embedding: string }>(
      "SELECT unit_id AS id, embedding::text AS embedding FROM unit_vectors WHERE namespace = $1 AND unit_id = ANY($2::text[])",
      [namespace, [...ids]],
    );
    const byId = new Map(rows.map((r) => [r.id, r.embedding]));
    for (const id of ids) {
      const text = byId.get(id);
      if (text !== undefined) out.set(id, Float32Array.from(JSON.parse(text) as number[]));
    }
    return out;
  }

  /** One statement for all of them, through units_ns_session (namespace, session_id, seq): not every unit of each question's session read and parsed. */
  async nextUnits(namespace: string, unitIds: readonly string[]): Promise<Map<string, MemoryUnit>> {
    this.assertOpen();
    if (!unitIds.length) return new Map();
    const { rows } = await this.q<UnitRow & { after: string }>(
      `SELECT q.id AS after, ${UNIT_COLUMNS}
       FROM units q
       CROSS JOIN LATERAL (SELECT n.id FROM units n WHERE n.namespace = q.namespace AND n.session_id = q.session_id AND n.seq > q.seq ORDER BY n.seq LIMIT 1) nx
       JOIN units u ON u.namespace = q.namespace AND u.id = nx.id ${SESSION_OF_UNIT}
       WHERE q.namespace = $1 AND q.id = ANY($2::text[])`,
      [namespace, [...unitIds]],
    );
    return new Map(rows.map((r) => [r.after, toUnit(r)]));
  }

  /** Through the partial index units_ns_state (schema 9): the namespace's other units are neither read nor sent. */
  async listStateUnits(namespace: string): Promise<MemoryUnit[]> {
    this.assertOpen();
    const { rows } = await this.q<UnitRow>(
      `WITH stating AS (SELECT id, body #>> '{supersession,supersededBy}' AS successor FROM units WHERE namespace = $1 AND ${STATE_UNIT_CONDITION})
       SELECT ${UNIT_COLUMNS} FROM ${UNITS_WITH_SESSION}
       WHERE u.namespace = $1 AND u.id IN (SELECT id FROM stating UNION SELECT successor FROM stating WHERE successor IS NOT NULL)
       ORDER BY s.start_at, u.session_id COLLATE "C", u.seq`,
      [namespace],
    );
    return rows.map(toUnit);
  }

  async listUnits(namespace: string, filter: UnitFilter = {}): Promise<MemoryUnit[]> {
    this.assertOpen();
    const params: unknown[] = [];
    const where = unitWhere(namespace, filter, params);
    const p = (v: unknown) => {
      params.push(v);
      return `$${params.length}`;
    };
    const limit = clampLimit(filter.limit, -1);
    const offset = clampLimit(filter.offset, 0);
    const { rows } = await this.q<UnitRow>(
      `SELECT ${UNIT_COLUMNS} FROM ${UNITS_WITH_SESSION} WHERE ${where}
       ORDER BY s.start_at, u.session_id COLLATE "C", u.seq
       ${limit >= 0 ? `LIMIT ${p(limit)}` : ""} OFFSET ${p(offset)}`,
      params,
    );
    return rows.map(toUnit);
  }

  async listTurnIds(namespace: string, sessionId: string): Promise<string[]> {
    const { rows } = await this.q<{ id: string }>(
      "SELECT t.id FROM units u, unnest(u.turn_ids) WITH ORDINALITY AS t (id, n) WHERE u.namespace = $1 AND u.session_id = $2 ORDER BY u.seq, t.n",
      [namespace, sessionId],
    );
    return rows.map((r) => r.id);
  }

  async countUnits(namespace: string, filter: UnitFilter = {}): Promise<number> {
    this.assertOpen();
    const params: unknown[] = [];
    const where = unitWhere(namespace, filter, params);
    const { rows } = await this.q<{ n: number }>(`SELECT count(*)::int AS n FROM ${UNITS_WITH_SESSION} WHERE ${where}`, params);
    return rows[0]?.n ?? 0;
  }

  async searchLexical(namespace: string, terms: readonly string[], limit: number, options: SearchOptions = {}): Promise<ScoredUnitId[]> {
    this.assertOpen();
    const k = clampLimit(limit, 0);
    try {
      return await this.lexical.search(this.pool, namespace, terms, k, options.where);
    } catch (err) {
      throw this.driverError(err);
    }
  }

  async searchDense(namespace: string, vector: Float32Array, limit: number, options: SearchOptions = {}): Promise<ScoredUnitId[]> {
    this.assertOpen();
    const k = clampLimit(limit, 0);
    const bound = await this.binding().catch((err: unknown) => Promise.reject(this.driverError(err)));
    if (!bound || k === 0) return [];
    if (vector.length !== bound.dimensions) {
      throw new RamemError(
        "EMBEDDING_DIMENSION_MISMATCH",
        `query vector has ${vector.length} dims; the store holds ${bound.dimensions}-dim vectors of ${bound.embedder}`,
        { where: this.location, hint: "embed the query with the embedder the store was built with" },
      );
    }
    try {
      return await searchDenseComplete(this.pool, namespace, vector, k, {
        exactMaxUnits: this.options.exactSearchMaxUnits ?? DEFAULT_EXACT_SEARCH_MAX_UNITS,
        hasIndex: bound.dimensions <= HNSW_MAX_DIMS,
        onSearch: this.options.onDenseSearch,
        forceIndex: this.options.forceHnswIndex,
        where: options.where,
      });
    } catch (err) {
      throw this.driverError(err);
    }
  }
  async scrubDeleted(options: ScrubOptions = {}): Promise<ScrubReport> {
    this.assertOpen();
    if (!options.vacuum) {
      return {
        steps: [],
        complete: false,
        note: "PostgreSQL keeps deleted rows in table and index pages until VACUUM, and in its WAL, replicas and backups until those are recycled; forget with purge (--purge) runs VACUUM FULL on the store's tables",
      };
    }
    // VACUUM cannot run in a transaction: each on the pool, in autocommit. FULL rewrites the table (and its indexes and TOAST) into new files.
    const { rows } = await this.q<{ name: string }>(
      "SELECT t AS name FROM unnest(ARRAY['unit_terms', 'namespace_terms', 'unit_vectors', 'units', 'sessions', 'namespace_sessions_version', 'namespace_version', 'unit_history']) AS t WHERE to_regclass(t) IS NOT NULL",
    );
    const steps: string[] = [];
    for (const { name } of rows) {
      await this.q(`VACUUM (FULL, ANALYZE) ${name}`);
      steps.push(`vacuum full ${name}`);
    }
    return {
      steps,
      complete: true,
      note: "the table files were rewritten without the deleted rows; PostgreSQL's WAL, replicas and backups keep them until recycled",
    };
  }

  async listNamespaces(): Promise<string[]> {
    const { rows } = await this.q<{ namespace: string }>(
      'SELECT namespace FROM (SELECT namespace FROM sessions UNION SELECT namespace FROM units) n ORDER BY namespace COLLATE "C"',
    );
    return rows.map((r) => r.namespace);
  }

  async namespaceSizes(limit: number): Promise<NamespaceSize[]> {
    const { rows } = await this.q<NamespaceSize>(
      `SELECT namespace, sum(sessions)::int AS sessions, sum(units)::int AS units FROM (
         SELECT namespace, count(*) AS sessions, 0 AS units FROM sessions GROUP BY namespace
         UNION ALL SELECT namespace, 0, count(*) FROM units GROUP BY namespace) n
       GROUP BY namespace ORDER BY units DESC, namespace COLLATE "C" LIMIT $1`,
      [limit],
    );
    return rows;
  }

  async stats(namespace?: string): Promise<StoreStats> {
    this.assertOpen();
    const b = await this.binding().catch((err: unknown) => Promise.reject(this.driverError(err)));
    if (namespace === undefined) {
      const { rows } = await this.q<{ namespaces: number; sessions: number; units: number }>(
        `SELECT (SELECT count(*) FROM (SELECT namespace FROM sessions UNION SELECT namespace FROM units) n)::int AS namespaces,
                (SELECT count(*) FROM sessions)::int AS sessions,
                (SELECT count(*) FROM units)::int AS units`,
      );
      return storeStats(rows[0]!, b);
    }
    const { rows } = await this.q<{ sessions: number; units: number }>(
      `SELECT (SELECT count(*) FROM sessions WHERE namespace = $1)::int AS sessions,
              (SELECT count(*) FROM units WHERE namespace = $1)::int AS units`,
      [namespace],
    );
    return storeStats(rows[0]!, b);
  }

  async historyRange(namespace: string): Promise<{ start: string; end: string } | null> {
    const { rows } = await this.q<{ start: string | null; end: string | null }>(
      `SELECT (SELECT start_time FROM sessions WHERE namespace = $1 ORDER BY start_at LIMIT 1) AS start,
              (SELECT end_time FROM sessions WHERE namespace = $1 ORDER BY end_at DESC LIMIT 1) AS end`,
      [namespace],
    );
    const r = rows[0];
    return r?.start != null && r.end != null ? { start: r.start, end: r.end } : null;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    try {
      if (this.options.dropSchemaOnClose) {
        await this.pool.query("SET client_min_messages = warning");
        await this.pool.query(`DROP SCHEMA IF EXISTS "${this.schema}" CASCADE`);
      }
    } finally {
      this.closed = true;
      // A bulk-load lock's connection ends here, and with it the lock.
      const locks = [...this.lockClients];
      this.lockClients.clear();
      await Promise.all(locks.map((client) => client.end().catch(() => undefined)));
      await this.pool.end();
    }
  }
}
