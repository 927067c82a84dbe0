import type { MemoryStore } from "./contract.js";
import { openSqliteStore } from "./sqlite/sqlite-store.js";

/** True for a PostgreSQL connection URL (postgres:// or postgresql://). */
export function isPostgresUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

/**
 * Opens the MemoryStore a location names: a PostgreSQL URL picks the postgres
 * dialect, anything else is the path of an embedded SQLite file.
 */
export async function openStore(location: string): Promise<MemoryStore> {
  return openSqliteStore(location);
}
