import type { MemoryStore } from "./contract.js";
import { openSqliteStore } from "./sqlite/sqlite-store.js";
import { openPostgresStore } from "./postgres/postgres-store.js";

/** True for a PostgreSQL connection URL (postgres:// or postgresql://). */
export function isPostgresUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

/**
 * Opens the MemoryStore a location names: a PostgreSQL URL picks the postgres
 * dialect (`?schema=NAME` chooses the schema, default "ramem"), anything else
 * is the path of an embedded SQLite file.
 */
export async function openStore(location: string): Promise<MemoryStore> {
  return isPostgresUrl(location) ? openPostgresStore(location) : openSqliteStore(location);
}
