import Database from "better-sqlite3";
import { RamemError } from "../../model/errors.js";
import { ROLES, type ApiKeyRecord, type ApiKeyStore } from "../api-key-contract.js";
import { apiKeyFromRow, type ApiKeyRow } from "../api-key-row.js";
import { echoValue } from "../../model/echo-value.js";

/**
 * The API keys live in the same SQLite file as the memory store, in their own
 * table with their own schema version (table `api_key_schema`), so the memory
 * schema's migrations and this one never touch each other's tables.
 */
const API_KEY_SCHEMA_VERSION = 1;

const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE IF NOT EXISTS api_keys (
    id          TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    secret_hash TEXT NOT NULL UNIQUE,
    role        TEXT NOT NULL,
    namespaces  TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    revoked_at  TEXT
  );
  `,
];

type KeyRow = ApiKeyRow<string>;

const toRecord = (r: KeyRow): ApiKeyRecord => apiKeyFromRow(r, (ns) => JSON.parse(ns) as string[]);

export async function openSqliteApiKeyStore(path: string): Promise<ApiKeyStore> {
  let db: Database.Database;
  try {
    db = new Database(path);
  } catch (cause) {
    throw new RamemError("STORE_OPEN_FAILED", `cannot open the key store: ${(cause as Error).message}`, {
      where: path,
      hint: "check the --db path and its directory permissions",
      cause,
    });
  }
  try {
    db.pragma("busy_timeout = 5000");
    db.pragma("journal_mode = WAL");
    migrate(db);
  } catch (err) {
    db.close();
    throw err;
  }
  return new SqliteApiKeyStore(db);
}

function migrate(db: Database.Database): void {
  db.transaction(() => {
    db.exec("CREATE TABLE IF NOT EXISTS api_key_schema (version INTEGER NOT NULL)");
    const row = db.prepare("SELECT version FROM api_key_schema").get() as { version: number } | undefined;
    let version = row?.version ?? 0;
    if (version > API_KEY_SCHEMA_VERSION) {
      throw new RamemError("SCHEMA_TOO_NEW", `key store schema version ${version} is newer than this ramem supports (${API_KEY_SCHEMA_VERSION})`, {
        hint: "upgrade ramem",
      });
    }
    for (; version < API_KEY_SCHEMA_VERSION; version++) db.exec(MIGRATIONS[version]!);
    db.exec("DELETE FROM api_key_schema");
    db.prepare("INSERT INTO api_key_schema (version) VALUES (?)").run(API_KEY_SCHEMA_VERSION);
  }).immediate();
}

class SqliteApiKeyStore implements ApiKeyStore {
  readonly specificationVersion = "v1" as const;
  #closed = false;
  constructor(private readonly db: Database.Database) {}

  #open(): void {
    if (this.#closed) throw new RamemError("STORE_CLOSED", "the key store is closed");
  }

  async insertKey(key: ApiKeyRecord): Promise<void> {
    this.#open();
    if (!ROLES.includes(key.role)) throw new RamemError("INVALID_KEY", `unknown role ${echoValue(key.role)}`, { hint: `use one of ${ROLES.join(", ")}` });
    if (!key.namespaces.length) throw new RamemError("INVALID_KEY", "a key needs at least one namespace");
    try {
      this.db
        .prepare("INSERT INTO api_keys (id, name, secret_hash, role, namespaces, created_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?, ?)")
        .run(key.id, key.name, key.secretHash, key.role, JSON.stringify(key.namespaces), key.createdAt, key.revokedAt);
    } catch (cause) {
      if (/UNIQUE|PRIMARY KEY/i.test((cause as Error).message)) {
        throw new RamemError("DUPLICATE_KEY", `a key with id ${key.id} or the same secret already exists`, { cause });
      }
      throw cause;
    }
  }

  async listKeys(): Promise<ApiKeyRecord[]> {
    this.#open();
    return (this.db.prepare("SELECT * FROM api_keys ORDER BY created_at, rowid").all() as KeyRow[]).map(toRecord);
  }

  async revokeKey(id: string, at: string): Promise<boolean> {
    this.#open();
    return this.db.prepare("UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL").run(at, id).changes > 0;
  }

  async findActiveKey(secretHash: string): Promise<ApiKeyRecord | null> {
    this.#open();
    const r = this.db.prepare("SELECT * FROM api_keys WHERE secret_hash = ? AND revoked_at IS NULL").get(secretHash) as KeyRow | undefined;
    return r ? toRecord(r) : null;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.db.close();
  }
}
