/**
 * ApiKeyStore contract, version 1: where the server keeps its API keys. Each
 * store dialect (sqlite, postgres) implements it next to its MemoryStore, in
 * the same database, so one `--db`/`--store` location holds memory and keys.
 *
 * Only a hash of the secret is ever stored; the secret is shown once, when the
 * key is created.
 */
export type Role = "read" | "write" | "admin";
export const ROLES: readonly Role[] = ["read", "write", "admin"];

export interface ApiKeyRecord {
  /** Public id, e.g. "key_3f9a1c2b": safe to print and to pass to `ramem keys revoke`. */
  id: string;
  /** A label the admin chose ("support-bot"). */
  name: string;
  /** SHA-256 (hex) of the whole secret. */
  secretHash: string;
  role: Role;
  /** Namespaces the key may touch; never empty. */
  namespaces: string[];
  createdAt: string;
  revokedAt: string | null;
}

export interface ApiKeyStore {
  readonly specificationVersion: "v1";
  /** Refuses (RamemError DUPLICATE_KEY) an id or secretHash already present. */
  insertKey(key: ApiKeyRecord): Promise<void>;
  /** All keys, revoked ones included, oldest first. */
  listKeys(): Promise<ApiKeyRecord[]>;
  /** Marks the key revoked; false when no such key or already revoked. */
  revokeKey(id: string, at: string): Promise<boolean>;
  /** The key with this secret hash, unless revoked. */
  findActiveKey(secretHash: string): Promise<ApiKeyRecord | null>;
  close(): Promise<void>;
}
