import { createHash } from "node:crypto";

/**
 * SHA-256 (hex) of an API key secret: what the key store holds and is looked
 * up by. A lookup by hash is constant-time with respect to the secret's
 * content, so no string comparison of secrets ever happens.
 */
export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}
