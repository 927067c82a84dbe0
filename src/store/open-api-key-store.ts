import type { ApiKeyStore } from "./api-key-contract.js";
import { isPostgresUrl } from "./open-store.js";
import { openSqliteApiKeyStore } from "./sqlite/sqlite-api-keys.js";
import { openPostgresApiKeyStore } from "./postgres/postgres-api-keys.js";

/**
 * Opens the ApiKeyStore at the same location as the memory store (`--db` file
 * or `--store` URL), so keys and memory live and are backed up together.
 */
export async function openApiKeyStore(location: string): Promise<ApiKeyStore> {
  return isPostgresUrl(location) ? openPostgresApiKeyStore(location) : openSqliteApiKeyStore(location);
}
