import type { ApiKeyRecord, Role } from "./api-key-contract.js";

/** The api_keys columns both dialects share; only how `namespaces` is stored differs (JSON text, text[]). */
export interface ApiKeyRow<Namespaces> {
  id: string;
  name: string;
  secret_hash: string;
  role: string;
  namespaces: Namespaces;
  created_at: string;
  revoked_at: string | null;
}

export function apiKeyFromRow<N>(r: ApiKeyRow<N>, namespaces: (stored: N) => string[]): ApiKeyRecord {
  return {
    id: r.id,
    name: r.name,
    secretHash: r.secret_hash,
    // insertKey refuses any other role in both dialects.
    role: r.role as Role,
    namespaces: namespaces(r.namespaces),
    createdAt: r.created_at,
    revokedAt: r.revoked_at,
  };
}
