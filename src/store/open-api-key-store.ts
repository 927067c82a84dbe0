import type { ApiKeyStore } from "./api-key-contract.js";
import { RamemError } from "../model/errors.js";
import { isPostgresUrl } from "./open-store.js";
import { openSqliteApiKeyStore } from "./sqlite/sqlite-api-keys.js";

/**
 * Opens the ApiKeyStore at the same location as the memory store (`--db` file
 * or `--store` URL), so keys and memory live and are backed up together.
 */
export async function openApiKeyStore(location: string): Promise<ApiKeyStore> {
  if (isPostgresUrl(location)) {
    // The postgres dialect's key store is wired in where the postgres MemoryStore lives.
    throw new RamemError("UNSUPPORTED_STORE", "API keys on PostgreSQL are not available in this build", {
      where: location,
      hint: "use a SQLite --db file, or a build with the postgres store",
    });
  }
  return openSqliteApiKeyStore(location);
}
