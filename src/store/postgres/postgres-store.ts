import type pg from "pg";
import { inTransaction } from "./in-transaction.js";
import { toSql } from "pgvector/pg";
import type { Session } from "../../model/conversation.js";
import type { MemoryUnit } from "../../model/memory-unit.js";
import { RamemError } from "../../model/errors.js";
import type { MemoryStore, ReplaceSessionOptions, ScoredUnitId, ScrubOptions, ScrubReport, SessionRecords, StoredSession, StoreStats, UnitFilter, UnitRecord } from "../contract.js";
import { DEFAULT_SCHEMA, checkSchemaName, connectionError, createPool, parsePostgresUrl } from "./connection.js";
import { searchDenseComplete, type DenseSearchInfo } from "./dense-search.js";
import type { LexicalChannel } from "./lexical/lexical-channel.js";
import { createBm25Lexical } from "./lexical/bm25-lexical.js";
import { HNSW_MAX_DIMS, POSTINGS_SELECT, migrate, vectorTableDdl } from "./schema.js";
import { bindingFromMeta, checkEmbedderBinding, type EmbedderBinding } from "../embedder-binding.js";
import { storedSessionFromRow, type SessionRow as SessionRowOf } from "../session-row.js";
import { storeStats } from "../store-stats.js";
import { checkExpectedHash, checkNamespaceEmpty, checkRecordEmbeddings, parseNamespaceRecords, parseSessionRecords, unitIdConflict, type CheckedSession } from "../check-session-records.js";
import { echoValue } from "../../model/echo-value.js";

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

/** Measured (src/store/bench-latency.ts, 512 dims): exact 22.5 ms vs HNSW 5.1 ms p50 at 6,000 units; exact is linear, so they meet near 1,500. */
export const DEFAULT_EXACT_SEARCH_MAX_UNITS = 2_000;

/**
 * BM25 (in SQL, per namespace) rather than PostgreSQL's ts_rank_cd: on LoCoMo
 * it matches SQLite's FTS5 (lexical-only Recall@10 0.695 vs 0.461 for
 * ts_rank_cd); see README.md › Lexical channel.
 */
const DEFAULT_LEXICAL = createBm25Lexical();

/** Rows per multi-row INSERT: stays far below PostgreSQL's 65,535 parameters. */
const INSERT_CHUNK = 500;

type SessionRow = SessionRowOf<string[]>;

/** A checked session ready to write: each unit's JSON body serialised once. */
type PreparedSession = CheckedSession & { contentHash: string; bodies: string[] };

type Binding = EmbedderBinding;

/**
 * Opens (creating and migrating if needed) a MemoryStore in PostgreSQL with
 * pgvector. `url` is postgres://USER:PASSWORD@HOST:PORT/DB[?schema=NAME].
 */
export async function openPostgresStore(url: string, options: PostgresStoreOptions = {}): Promise<MemoryStore> {
  return PostgresStore.open(url, options);
}

const toStoredSession = (r: SessionRow): StoredSession => storedSessionFromRow(r, (ps) => ps);

function clampLimit(limit: number | undefined, fallback: number): number {
  if (limit === undefined || !Number.isFinite(limit)) return fallback;
  return Math.max(0, Math.floor(limit));
}

/** `$a, $b, ...` placeholders for `rows` rows of `width` parameters, with optional casts per column. */
function valuesList(rows: number, casts: readonly string[]): string {
  const width = casts.length;
  return Array.from({ length: rows }, (_, r) => `(${casts.map((c, i) => `$${r * width + i + 1}${c}`).join(", ")})`).join(", ");
}

class PostgresStore implements MemoryStore {
  readonly specificationVersion = "v1" as const;
  readonly dialect = "postgres";
  readonly location: string;
  private readonly pool: pg.Pool;
  private readonly schema: string;
  private readonly options: PostgresStoreOptions;
  private readonly lexical: LexicalChannel;
  private closed = false;

  private constructor(pool: pg.Pool, location: string, schema: string, options: PostgresStoreOptions) {
    this.pool = pool;
    this.location = location;
    this.schema = schema;
    this.options = options;
    this.lexical = options.lexical ?? DEFAULT_LEXICAL;
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

  async getSession(namespace: string, sessionId: string): Promise<StoredSession | null> {
    const { rows } = await this.q<SessionRow>("SELECT * FROM sessions WHERE namespace = $1 AND id = $2", [namespace, sessionId]);
    return rows[0] ? toStoredSession(rows[0]) : null;
  }

  async listSessions(namespace: string): Promise<StoredSession[]> {
    const { rows } = await this.q<SessionRow>('SELECT * FROM sessions WHERE namespace = $1 ORDER BY start_at, id COLLATE "C"', [namespace]);
    return rows.map(toStoredSession);
  }

  async replaceSession(session: Session, contentHash: string, units: UnitRecord[], options: ReplaceSessionOptions = {}): Promise<void> {
    this.assertOpen();
    const [prepared] = await this.prepareSessions([{ ...parseSessionRecords(session, units), contentHash }]);
    await this.inWriteTransaction(prepared!.where, (c) => this.writeSession(c, prepared!, options.expectedHash));
  }

  async restoreNamespace(namespace: string, sessions: readonly SessionRecords[]): Promise<void> {
    this.assertOpen();
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
      for (const p of prepared) await this.writeSession(c, p);
    });
  }

  /**
   * The checks before any write: vectors the binding accepts (text without
   * NUL, which PostgreSQL cannot store, is the model's rule: model/stored-text.ts).
   * Unit bodies are serialised once here, for the INSERT.
   */
  private async prepareSessions(checked: ReadonlyArray<CheckedSession & { contentHash: string }>): Promise<PreparedSession[]> {
    const prepared = checked.map((c) => ({ ...c, bodies: c.records.map(({ unit }) => JSON.stringify(unit)) }));
    const bound = prepared.some((p) => p.records.length) ? await this.binding().catch((err: unknown) => Promise.reject(this.driverError(err))) : null;
    for (const p of prepared) checkRecordEmbeddings(p, bound, this.location);
    return prepared;
  }

  /** One transaction; constraint failures become RamemErrors naming `where`. */
  private async inWriteTransaction(where: string, write: (c: pg.PoolClient) => Promise<void>): Promise<void> {
    try {
      await this.tx(write);
    } catch (cause) {
      if (cause instanceof RamemError) throw cause;
      const e = cause as { code?: string; constraint?: string; message?: string };
      if (e.code === "23505" && e.constraint === "units_pkey") throw unitIdConflict(where, cause);
      throw new RamemError("STORE_WRITE_FAILED", `writing failed: ${e.message ?? String(cause)}`, { where, cause });
    }
  }

  /** One session's rows, on the transaction's client: the hash check, the session row, the old units out, the new ones in. */
  private async writeSession(c: pg.PoolClient, p: PreparedSession, expectedHash?: string | null): Promise<void> {
    const { session: s, where, records, bodies, contentHash } = p;
    // One writer per session at a time, whether or not its row exists yet
    // (a row lock cannot cover a session that is being created): the hash
    // read next is then the one the write replaces.
    await c.query("SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))", [s.namespace, s.id]);
    const found = await c.query<{ content_hash: string }>("SELECT content_hash FROM sessions WHERE namespace = $1 AND id = $2", [s.namespace, s.id]);
    checkExpectedHash(where, expectedHash, found.rows[0]?.content_hash ?? null);
    // The session row is written first: its row lock serialises concurrent
    // replaces of one session, so the DELETE below (a new snapshot under
    // READ COMMITTED) sees the units an earlier writer committed.
    await c.query(
      `INSERT INTO sessions (namespace, id, start_time, end_time, start_at, end_at, participants, content_hash, unit_count)
       VALUES ($1, $2, $3, $4, $5::timestamptz, $6::timestamptz, $7::text[], $8, $9)
       ON CONFLICT (namespace, id) DO UPDATE SET
         start_time = excluded.start_time, end_time = excluded.end_time,
         start_at = excluded.start_at, end_at = excluded.end_at,
         participants = excluded.participants, content_hash = excluded.content_hash,
         unit_count = excluded.unit_count`,
      [s.namespace, s.id, s.startTime, s.endTime, s.startTime, s.endTime, s.participants, contentHash, records.length],
    );
    await c.query("DELETE FROM units WHERE namespace = $1 AND session_id = $2", [s.namespace, s.id]);
    for (let off = 0; off < records.length; off += INSERT_CHUNK) {
      const chunk = records.slice(off, off + INSERT_CHUNK);
      const unitParams: unknown[] = [];
      const vecParams: unknown[] = [];
      chunk.forEach(({ unit: u, embedding }, i) => {
        const ev = u.context.eventTime;
        unitParams.push(
          s.namespace, u.id, s.id, off + i, s.startTime, s.endTime, ev?.start ?? null, ev?.end ?? null,
          u.context.participants.map((p) => p.toLowerCase()), u.context.entities, u.provenance.turnIds,
          u.content, u.cue, bodies[off + i],
        );
        vecParams.push(s.namespace, u.id, toSql(Array.from(embedding)));
      });
      await c.query(
        `INSERT INTO units (namespace, id, session_id, seq, session_start, session_end, event_start, event_end,
                            participants, entities, turn_ids, content, cue, body)
         VALUES ${valuesList(chunk.length, ["", "", "", "::int", "::timestamptz", "::timestamptz", "::timestamptz", "::timestamptz", "::text[]", "::text[]", "::text[]", "", "", "::json"])}`,
        unitParams,
      );
      await c.query(`INSERT INTO unit_vectors (namespace, unit_id, embedding) VALUES ${valuesList(chunk.length, ["", "", "::vector"])}`, vecParams);
    }
    if (records.length) await c.query(POSTINGS_SELECT.replace("$WHERE", () => "u.namespace = $1 AND u.session_id = $2"), [s.namespace, s.id]);
  }

  async getUnits(namespace: string, ids: readonly string[]): Promise<MemoryUnit[]> {
    this.assertOpen();
    if (!ids.length) return [];
    const { rows } = await this.q<{ id: string; body: MemoryUnit }>("SELECT id, body FROM units WHERE namespace = $1 AND id = ANY($2::text[])", [
      namespace,
      [...ids],
    ]);
    const byId = new Map(rows.map((r) => [r.id, r.body]));
    const out: MemoryUnit[] = [];
    for (const id of ids) {
      const body = byId.get(id);
      if (body !== undefined) out.push(body);
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

  async listUnits(namespace: string, filter: UnitFilter = {}): Promise<MemoryUnit[]> {
    this.assertOpen();
    const params: unknown[] = [namespace];
    const p = (v: unknown) => {
      params.push(v);
      return `$${params.length}`;
    };
    const where = ["namespace = $1"];
    if (filter.sessionId !== undefined) where.push(`session_id = ${p(filter.sessionId)}`);
    if (filter.participant !== undefined) where.push(`participants @> ARRAY[${p(filter.participant.toLowerCase())}]::text[]`);
    // Half-open overlap of [session_start, session_end) with [from, to); a session
    // with start == end is a point, and counts when from <= start < to.
    if (filter.from !== undefined) {
      const from = p(parseTime(filter.from, "from"));
      where.push(`(session_end > ${from}::timestamptz OR (session_end = session_start AND session_start >= ${from}::timestamptz))`);
    }
    if (filter.to !== undefined) where.push(`session_start < ${p(parseTime(filter.to, "to"))}::timestamptz`);
    const limit = clampLimit(filter.limit, -1);
    const offset = clampLimit(filter.offset, 0);
    const { rows } = await this.q<{ body: MemoryUnit }>(
      `SELECT body FROM units WHERE ${where.join(" AND ")}
       ORDER BY session_start, session_id COLLATE "C", seq
       ${limit >= 0 ? `LIMIT ${p(limit)}` : ""} OFFSET ${p(offset)}`,
      params,
    );
    return rows.map((r) => r.body);
  }

  async searchLexical(namespace: string, terms: readonly string[], limit: number): Promise<ScoredUnitId[]> {
    this.assertOpen();
    const k = clampLimit(limit, 0);
    try {
      return await this.lexical.search(this.pool, namespace, terms, k);
    } catch (err) {
      throw this.driverError(err);
    }
  }

  async searchDense(namespace: string, vector: Float32Array, limit: number): Promise<ScoredUnitId[]> {
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
      });
    } catch (err) {
      throw this.driverError(err);
    }
  }

  async deleteUnit(namespace: string, unitId: string): Promise<boolean> {
    return this.tx(async (c) => {
      const { rows } = await c.query<{ session_id: string }>("DELETE FROM units WHERE namespace = $1 AND id = $2 RETURNING session_id", [
        namespace,
        unitId,
      ]);
      if (!rows[0]) return false;
      await c.query("UPDATE sessions SET unit_count = unit_count - 1 WHERE namespace = $1 AND id = $2 AND unit_count > 0", [
        namespace,
        rows[0].session_id,
      ]);
      return true;
    });
  }

  async deleteSession(namespace: string, sessionId: string): Promise<number> {
    return this.tx(async (c) => {
      const { rowCount } = await c.query("DELETE FROM units WHERE namespace = $1 AND session_id = $2", [namespace, sessionId]);
      await c.query("DELETE FROM sessions WHERE namespace = $1 AND id = $2", [namespace, sessionId]);
      return rowCount ?? 0;
    });
  }

  async deleteNamespace(namespace: string): Promise<number> {
    return this.tx(async (c) => {
      const { rowCount } = await c.query("DELETE FROM units WHERE namespace = $1", [namespace]);
      await c.query("DELETE FROM sessions WHERE namespace = $1", [namespace]);
      return rowCount ?? 0;
    });
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
      "SELECT t AS name FROM unnest(ARRAY['unit_terms', 'unit_vectors', 'units', 'sessions']) AS t WHERE to_regclass(t) IS NOT NULL",
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
      await this.pool.end();
    }
  }
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
