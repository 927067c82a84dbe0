import type pg from "pg";
import { RamemError } from "../../model/errors.js";
import { ROLES, type ApiKeyRecord, type ApiKeyStore } from "../api-key-contract.js";
import { DEFAULT_SCHEMA, checkSchemaName, connectionError, createPool, parsePostgresUrl } from "./connection.js";
import { inTransaction } from "./in-transaction.js";
import { MIGRATION_LOCK } from "./schema.js";
import { apiKeyFromRow, type ApiKeyRow } from "../api-key-row.js";
import { echoValue } from "../../model/echo-value.js";

/**
 * The API keys live in the same schema as the memory store (one `--store`
 * URL holds both), in their own table with their own version (table
 * `api_key_schema`), so the memory migrations and these never touch each
 * other's tables. Keys are not namespace-scoped rows (one key may span several
 * namespaces): on Citus `api_keys` is a reference table.
 */
const API_KEY_SCHEMA_VERSION = 1;

const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE api_keys (
    id           text        PRIMARY KEY,
    name         text        NOT NULL,
    secret_hash  text        NOT NULL UNIQUE,
    role         text        NOT NULL CHECK (role IN ('read', 'write', 'admin')),
    namespaces   text[]      NOT NULL CHECK (cardinality(namespaces) > 0),
    created_at   text        NOT NULL,
    revoked_at   text,
    seq          bigserial   NOT NULL  -- insertion order: ties in created_at list oldest first
  );
  `,
];

export interface PostgresApiKeyStoreOptions {
  /** Default: the URL's `?schema=`, else "ramem" (the memory store's default). */
  schema?: string;
  dropSchemaOnClose?: boolean;
  connectTimeoutMs?: number;
}

type KeyRow = ApiKeyRow<string[]>;

const COLUMNS = "id, name, secret_hash, role, namespaces, created_at, revoked_at";

const toRecord = (r: KeyRow): ApiKeyRecord => apiKeyFromRow(r, (ns) => ns);

/** Opens (creating if needed) the ApiKeyStore v1 in a PostgreSQL schema. */
export async function openPostgresApiKeyStore(url: string, options: PostgresApiKeyStoreOptions = {}): Promise<ApiKeyStore> {
  const target = parsePostgresUrl(url);
  const schema = checkSchemaName(options.schema ?? target.schema ?? DEFAULT_SCHEMA, target.redacted);
  const where = `${target.redacted} (schema ${schema})`;
  const pool = createPool(target, {
    searchPath: [schema, "public"],
    maxConnections: 2,
    ...(options.connectTimeoutMs ? { connectTimeoutMs: options.connectTimeoutMs } : {}),
  });
  try {
    await migrate(pool, schema, where);
  } catch (err) {
    await pool.end().catch(() => {});
    throw connectionError(err, where);
  }
  return new PostgresApiKeyStore(pool, schema, where, options.dropSchemaOnClose === true);
}

async function migrate(pool: pg.Pool, schema: string, where: string): Promise<void> {
  await inTransaction(pool, async (client) => {
    // The same lock as the memory store's migrations: both may create the schema.
    await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [MIGRATION_LOCK]);
    await client.query("SET LOCAL client_min_messages = warning");
    await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    await client.query(`CREATE TABLE IF NOT EXISTS "${schema}".api_key_schema (version integer NOT NULL)`);
    const { rows } = await client.query<{ version: number }>(`SELECT version FROM "${schema}".api_key_schema`);
    let version = rows[0]?.version ?? 0;
    if (version > API_KEY_SCHEMA_VERSION) {
      throw new RamemError("SCHEMA_TOO_NEW", `key store schema version ${version} is newer than this ramem supports (${API_KEY_SCHEMA_VERSION})`, {
        where,
        hint: "upgrade ramem",
      });
    }
    if (version < API_KEY_SCHEMA_VERSION) {
      for (; version < API_KEY_SCHEMA_VERSION; version++) await client.query(MIGRATIONS[version]!);
      await client.query(`DELETE FROM "${schema}".api_key_schema`);
      await client.query(`INSERT INTO "${schema}".api_key_schema (version) VALUES ($1)`, [API_KEY_SCHEMA_VERSION]);
    }
  });
}

class PostgresApiKeyStore implements ApiKeyStore {
  readonly specificationVersion = "v1" as const;
  #closed = false;

  constructor(
    private readonly pool: pg.Pool,
    private readonly schema: string,
    private readonly where: string,
    private readonly dropSchemaOnClose: boolean,
  ) {}

  async #query<R extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<pg.QueryResult<R>> {
    if (this.#closed) throw new RamemError("STORE_CLOSED", "the key store is closed", { where: this.where });
    try {
      return await this.pool.query<R>(sql, params);
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code) && !code.startsWith("08")) throw err;
      throw connectionError(err, this.where);
    }
  }

  async insertKey(key: ApiKeyRecord): Promise<void> {
    if (!ROLES.includes(key.role)) {
      throw new RamemError("INVALID_KEY", `unknown role ${echoValue(key.role)}`, { hint: `use one of ${ROLES.join(", ")}` });
    }
    if (!Array.isArray(key.namespaces) || key.namespaces.length === 0) {
      throw new RamemError("INVALID_KEY", "a key needs at least one namespace");
    }
    if (JSON.stringify(key).includes("\\u0000")) throw new RamemError("INVALID_KEY", "a key field contains a NUL character");
    try {
      await this.#query(`INSERT INTO api_keys (${COLUMNS}) VALUES ($1, $2, $3, $4, $5::text[], $6, $7)`, [
        key.id,
        key.name,
        key.secretHash,
        key.role,
        key.namespaces,
        key.createdAt,
        key.revokedAt,
      ]);
    } catch (cause) {
      if ((cause as { code?: string }).code === "23505") {
        throw new RamemError("DUPLICATE_KEY", `a key with id ${key.id} or the same secret already exists`, { cause });
      }
      throw cause;
    }
  }

  async listKeys(): Promise<ApiKeyRecord[]> {
    const { rows } = await this.#query<KeyRow>(`SELECT ${COLUMNS} FROM api_keys ORDER BY created_at COLLATE "C", seq`);
    return rows.map(toRecord);
  }

  async revokeKey(id: string, at: string): Promise<boolean> {
    const { rowCount } = await this.#query("UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL", [at, id]);
    return (rowCount ?? 0) > 0;
  }

  async findActiveKey(secretHash: string): Promise<ApiKeyRecord | null> {
    const { rows } = await this.#query<KeyRow>(`SELECT ${COLUMNS} FROM api_keys WHERE secret_hash = $1 AND revoked_at IS NULL`, [secretHash]);
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    try {
      if (this.dropSchemaOnClose) {
        await this.pool.query("SET client_min_messages = warning");
        await this.pool.query(`DROP SCHEMA IF EXISTS "${this.schema}" CASCADE`);
      }
    } finally {
      this.#closed = true;
      await this.pool.end();
    }
  }
}
