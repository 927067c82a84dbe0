import type { MemoryStore } from "./contract.js";
import { openSqliteStore } from "./sqlite/sqlite-store.js";
import { openPostgresStore } from "./postgres/postgres-store.js";
import { checkArgs, checkFields } from "../model/check-args.js";

/** True for a PostgreSQL connection URL (postgres:// or postgresql://). */
export function isPostgresUrl(location: string): boolean {
  checkArgs("isPostgresUrl", { location: [location, "string"] });
  return /^postgres(ql)?:\/\//i.test(location);
}

/**
 * Opens the MemoryStore a location names: a PostgreSQL URL picks the postgres
 * dialect (`?schema=NAME` chooses the schema, default "ramem"), anything else
 * is the path of an embedded SQLite file. `mustExist`: a SQLite path that
 * holds no store is refused instead of created (commands that only read).
 */
export async function openStore(location: string, options: { mustExist?: boolean } = {}): Promise<MemoryStore> {
  checkArgs("openStore", { location: [location, "string"] });
  checkFields("openStore", "options", options, "object?", { mustExist: "boolean?" });
  // A postgres schema that does not exist yet is created empty; only a file path can be a typo that leaves a stray file.
  return isPostgresUrl(location) ? openPostgresStore(location) : openSqliteStore(location, { mustExist: options.mustExist === true });
}
