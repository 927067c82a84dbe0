import pg from "pg";
import { RamemError } from "../../model/errors.js";

/** Where a store's tables live when neither the options nor the URL (?schema=) name a schema. */
export const DEFAULT_SCHEMA = "ramem";

/** What a postgres:// location names, once its ramem-only parameters are taken out. */
export interface PostgresTarget {
  /** The URL handed to `pg`, without ramem's own query parameters. */
  connectionString: string;
  /** The URL with the password masked: safe for logs, errors and `store.location`. */
  redacted: string;
  /** From `?schema=`; undefined when the URL names none. */
  schema: string | undefined;
}

/** Lower-case identifiers only: the name is also used inside quoted DDL. */
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export function checkSchemaName(schema: string, where: string): string {
  if (!SCHEMA_NAME.test(schema)) {
    throw new RamemError("BAD_STORE_URL", `schema name "${schema}" is not a plain lower-case identifier`, {
      where,
      hint: "use letters a-z, digits and _ (at most 63, not starting with a digit), e.g. ?schema=ramem",
    });
  }
  return schema;
}

/** Splits a postgres URL into what `pg` gets and what ramem reads (`schema`), masking the password. */
export function parsePostgresUrl(url: string): PostgresTarget {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Never echo the URL: it may carry a password.
    throw new RamemError("BAD_STORE_URL", "the PostgreSQL URL cannot be parsed", {
      hint: "use postgres://USER:PASSWORD@HOST:PORT/DATABASE (percent-encode special characters in the password)",
    });
  }
  const schemaParam = parsed.searchParams.get("schema");
  parsed.searchParams.delete("schema");
  const connectionString = parsed.toString();
  const masked = new URL(connectionString);
  if (masked.password) masked.password = "***";
  const redacted = masked.toString();
  const schema = schemaParam === null || schemaParam === "" ? undefined : checkSchemaName(schemaParam, redacted);
  return { connectionString, redacted, schema };
}

const UNREACHABLE = new Set(["ECONNREFUSED", "ENOTFOUND", "EHOSTUNREACH", "ETIMEDOUT", "ECONNRESET", "EAI_AGAIN"]);

/**
 * Turns a driver error met while connecting into a RamemError that says what
 * to check. Messages from `pg` never contain the password; `where` is the
 * redacted URL.
 */
export function connectionError(cause: unknown, where: string): RamemError {
  if (cause instanceof RamemError) return cause;
  const err = cause as { code?: string; message?: string };
  const code = err?.code ?? "";
  const message = err?.message || String(cause);
  if (UNREACHABLE.has(code) || /timeout|terminated/i.test(message)) {
    return new RamemError("STORE_UNREACHABLE", `cannot reach the PostgreSQL server: ${message}`, {
      where,
      hint: "is the server running? For a local test server: scripts/postgres-test-server.sh start",
      cause,
    });
  }
  if (code === "28P01" || code === "28000") {
    return new RamemError("STORE_AUTH_FAILED", `PostgreSQL refused the login: ${message}`, {
      where,
      hint: "check the user and password in the URL (the test server uses ramem/ramem)",
      cause,
    });
  }
  if (code === "3D000") {
    return new RamemError("STORE_OPEN_FAILED", `the database does not exist: ${message}`, {
      where,
      hint: "create it first (createdb), or name an existing database in the URL",
      cause,
    });
  }
  return new RamemError("STORE_OPEN_FAILED", `cannot open the PostgreSQL store: ${message}`, { where, cause });
}

export interface PoolOptions {
  /** Schemas searched, first one first; `public` is where the vector extension lives. */
  searchPath: readonly string[];
  maxConnections?: number;
  connectTimeoutMs?: number;
}

export function createPool(target: PostgresTarget, opts: PoolOptions): pg.Pool {
  const pool = new pg.Pool({
    connectionString: target.connectionString,
    max: opts.maxConnections ?? 4,
    connectionTimeoutMillis: opts.connectTimeoutMs ?? 5000,
    idleTimeoutMillis: 10_000,
    // Set at connection start, so every query of every pooled client sees the same schema.
    // Names are checked plain identifiers (checkSchemaName), so no quoting is needed.
    // JIT off: ramem's statements are short, and a chain of CTEs (BM25 by
    // MaxScore) gets row estimates so far off that JIT compiled it for seconds.
    options: `-c search_path=${opts.searchPath.join(",")} -c jit=off`,
    application_name: "ramem",
  });
  // An idle client losing its server emits 'error' on the pool; unhandled it
  // would crash the process. The next query reports the problem instead.
  pool.on("error", () => {});
  return pool;
}

/**
 * A connection to the pool's server outside the pool, for a session that is
 * held for long (a bulk load's advisory lock): its 'error' (the server gone
 * while it idles) is swallowed as the pool's are, and the next query on it
 * reports the problem. No search path: it runs no statement on the tables.
 */
export function createSessionClient(pool: pg.Pool, applicationName: string): pg.Client {
  const client = new pg.Client({
    connectionString: pool.options.connectionString,
    connectionTimeoutMillis: pool.options.connectionTimeoutMillis ?? 5000,
    application_name: applicationName,
  });
  client.on("error", () => {});
  return client;
}
