import type { ApiKeyStore } from "../../store/api-key-contract.js";
import { RamemError } from "../../model/errors.js";
import { LOCAL_PRINCIPAL, type Principal } from "./principal.js";
import { hashSecret } from "./hash-secret.js";

/**
 * Who is calling, from a standard Request: the shape every face shares (the
 * REST routes through middleware, the MCP HTTP sub-app directly).
 * Rejects with a RamemError UNAUTHORIZED (HTTP 401) for a missing, unknown or
 * revoked key.
 */
export type Authenticate = (request: Request) => Promise<Principal>;

export interface AuthenticatorOptions {
  keys: ApiKeyStore;
  /**
   * True only when the server listens on loopback: then a request without a
   * key is the local user, as long as no active key exists. Checked per
   * request, so creating the first key closes the open mode without a restart.
   */
  allowOpenWhenNoKeys: boolean;
}

export function createAuthenticator(options: AuthenticatorOptions): Authenticate {
  return async (request) => {
    const header = request.headers.get("authorization");
    if (header === null) {
      if (options.allowOpenWhenNoKeys && !(await hasActiveKeys(options.keys))) return LOCAL_PRINCIPAL;
      throw unauthorized("no API key given", "send the header Authorization: Bearer rm_... (create a key with `ramem keys create`)");
    }
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) throw unauthorized("the Authorization header is not `Bearer <key>`", "send the header Authorization: Bearer rm_...");
    const record = await options.keys.findActiveKey(hashSecret(match[1]!));
    if (!record) throw unauthorized("unknown or revoked API key", "check the key, or create a new one with `ramem keys create`");
    return { keyId: record.id, role: record.role, namespaces: Object.freeze([...record.namespaces]) };
  };
}

export async function hasActiveKeys(keys: ApiKeyStore): Promise<boolean> {
  return (await keys.listKeys()).some((k) => k.revokedAt === null);
}

function unauthorized(message: string, hint: string): RamemError {
  return new RamemError("UNAUTHORIZED", message, { hint });
}
