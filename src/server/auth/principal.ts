import type { Role } from "../../store/api-key-contract.js";

/**
 * Who is calling: what every route and MCP tool checks before it touches a
 * namespace. Built from an API key (see authenticate), or the local principal
 * when the server runs on loopback with no keys configured, or for `ramem mcp`
 * over stdio (the local user already owns the database file).
 */
export interface Principal {
  /** The API key's public id; null for the local principal. */
  keyId: string | null;
  /** The API key's name (what history records as who made a change); absent for the local principal. */
  keyName?: string;
  role: Role;
  /** The namespaces this caller may touch; "all" only for the local principal. */
  namespaces: readonly string[] | "all";
}

const ROLE_RANK: Record<Role, number> = { read: 0, write: 1, admin: 2 };

/** read < write < admin: a write key may also read, an admin key may also delete namespaces. */
export function roleAllows(has: Role, needs: Role): boolean {
  return ROLE_RANK[has] >= ROLE_RANK[needs];
}

export function mayAccess(principal: Principal, namespace: string, needs: Role): boolean {
  if (!roleAllows(principal.role, needs)) return false;
  return principal.namespaces === "all" || principal.namespaces.includes(namespace);
}

export const LOCAL_PRINCIPAL: Principal = Object.freeze({ keyId: null, role: "admin", namespaces: "all" });

/** Who a change is recorded as in a unit's history: the key's name, else its id, else "local" (a keyless local server, stdio MCP). */
export function actorOf(principal: Principal): string {
  return principal.keyName ?? principal.keyId ?? "local";
}
