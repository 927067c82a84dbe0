import { randomBytes } from "node:crypto";
import { ROLES, type ApiKeyRecord, type ApiKeyStore, type Role } from "../../store/api-key-contract.js";
import { NamespaceName } from "../../model/conversation.js";
import { RamemError } from "../../model/errors.js";
import { hashSecret } from "./hash-secret.js";
import { echoValue } from "../../model/echo-value.js";

export const SECRET_PREFIX = "rm_";

export interface NewApiKey {
  name: string;
  role: Role;
  namespaces: readonly string[];
}

export interface CreatedApiKey {
  record: ApiKeyRecord;
  /** Shown once; only its hash is stored. */
  secret: string;
}

/** Creates a key with a fresh 256-bit secret, stores only its hash, and returns the secret once. */
export async function createApiKey(store: ApiKeyStore, input: NewApiKey, now: Date = new Date()): Promise<CreatedApiKey> {
  if (!input.name.trim()) throw new RamemError("INVALID_KEY", "the key needs a name", { hint: 'pass --name, e.g. --name "support-bot"' });
  if (!ROLES.includes(input.role)) throw new RamemError("INVALID_KEY", `unknown role ${echoValue(input.role)}`, { hint: `use one of ${ROLES.join(", ")}` });
  const namespaces = [...new Set(input.namespaces)];
  if (!namespaces.length) throw new RamemError("INVALID_KEY", "the key needs at least one namespace", { hint: "pass --namespace NS (repeat it for more)" });
  for (const ns of namespaces) {
    if (!NamespaceName.safeParse(ns).success) {
      throw new RamemError("INVALID_KEY", `invalid namespace ${echoValue(ns)}`, {
        hint: "namespaces are 1-128 characters: letters, digits and . _ : - , starting with a letter or digit",
      });
    }
  }
  const secret = `${SECRET_PREFIX}${randomBytes(32).toString("base64url")}`;
  const record: ApiKeyRecord = {
    id: `key_${randomBytes(6).toString("hex")}`,
    name: input.name.trim(),
    secretHash: hashSecret(secret),
    role: input.role,
    namespaces,
    createdAt: now.toISOString(),
    revokedAt: null,
  };
  await store.insertKey(record);
  return { record, secret };
}
