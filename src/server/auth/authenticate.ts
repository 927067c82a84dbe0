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

/**
 * Whether a request without a key is the local user. Decided when the server
 * starts, never by what happens to the keys later:
 * - "closed": every request needs an active key;
 * - "until-first-key": the store has never held a key (on loopback): open
 *   until one is created, checked per request, and closed from then on — even
 *   when every key is revoked again;
 * - "explicit": the operator asked for it (`ramem serve --open`, loopback only).
 */
export type OpenMode = "closed" | "until-first-key" | "explicit";

export interface AuthenticatorOptions {
  keys: ApiKeyStore;
  open: OpenMode;
}

export function createAuthenticator(options: AuthenticatorOptions): Authenticate {
  // Latches: once a key has been seen, no later state of the key table reopens the server.
  let stillOpen = options.open !== "closed";
  const keylessIsLocal = async (): Promise<boolean> => {
    if (options.open === "until-first-key" && stillOpen && (await hasEverHeldKeys(options.keys))) stillOpen = false;
    return stillOpen;
  };
  return async (request) => {
    const header = request.headers.get("authorization");
    if (header === null) {
      if (await keylessIsLocal()) return LOCAL_PRINCIPAL;
      throw unauthorized("no API key given", "send the header Authorization: Bearer rm_... (create a key with `ramem keys create`)");
    }
    // `Token` is Mem0's scheme (its MemoryClient sends `Token <key>`): the same ramem key either way, so Mem0's clients work unchanged.
    const match = /^(?:Bearer|Token)\s+(\S+)\s*$/i.exec(header);
    if (!match) throw unauthorized("the Authorization header is not `Bearer <key>` (or Mem0's `Token <key>`)", "send the header Authorization: Bearer rm_...");
    const record = await options.keys.findActiveKey(hashSecret(match[1]!));
    if (!record) throw unauthorized("unknown or revoked API key", "check the key, or create a new one with `ramem keys create`");
    return { keyId: record.id, keyName: record.name, role: record.role, namespaces: Object.freeze([...record.namespaces]) };
  };
}

export async function hasActiveKeys(keys: ApiKeyStore): Promise<boolean> {
  return (await keys.listKeys()).some((k) => k.revokedAt === null);
}

/** Revoked keys count: a store that ever had a key was meant to be closed. */
export async function hasEverHeldKeys(keys: ApiKeyStore): Promise<boolean> {
  return (await keys.listKeys()).length > 0;
}

function unauthorized(message: string, hint: string): RamemError {
  return new RamemError("UNAUTHORIZED", message, { hint });
}
