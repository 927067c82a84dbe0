import type { ApiKeyRecord } from "../api-key-contract.js";

let n = 0;

/** A valid key record with a fresh id and secret hash; `over` sets any field. */
export function makeApiKey(over: Partial<ApiKeyRecord> = {}): ApiKeyRecord {
  n++;
  return {
    id: `key_${n}`,
    name: `bot-${n}`,
    secretHash: `${n}`.padStart(64, "a"),
    role: "read",
    namespaces: ["ns-a"],
    createdAt: `2026-01-01T00:00:${String(n % 60).padStart(2, "0")}.000Z`,
    revokedAt: null,
    ...over,
  };
}
