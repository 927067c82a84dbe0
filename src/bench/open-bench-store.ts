import { createHash } from "node:crypto";
import type { MemoryStore } from "../store/contract.js";
import { openSqliteStore } from "../store/sqlite/sqlite-store.js";
import { isPostgresUrl } from "../store/open-store.js";
import { openPostgresStore } from "../store/postgres/postgres-store.js";
import { parsePostgresUrl } from "../store/postgres/connection.js";

/**
 * The bench store doubles as a cache, like the SQLite file: on PostgreSQL the
 * schema is named after the cache key, so a second run finds its sessions
 * unchanged and re-embeds nothing, and two data sets never share a schema.
 */
export async function openBenchStore(location: string | undefined, cachePath: string, key: string): Promise<MemoryStore> {
  if (location === undefined) return openSqliteStore(cachePath);
  if (!isPostgresUrl(location)) return openSqliteStore(location);
  const schema = parsePostgresUrl(location).schema ?? `bench_${createHash("sha256").update(key).digest("hex").slice(0, 16)}`;
  return openPostgresStore(location, { schema });
}
