// The `Token <key>` scheme Mem0's clients send (auth/authenticate.ts accepts it beside Bearer):
// tested here, beside the face it exists for.
import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqliteApiKeyStore } from "../../store/sqlite/sqlite-api-keys.js";
import type { ApiKeyStore } from "../../store/api-key-contract.js";
import { RamemError } from "../../model/errors.js";
import { createApiKey } from "../auth/create-api-key.js";
import { createAuthenticator } from "../auth/authenticate.js";

const req = (authorization: string) => new Request("http://x/", { headers: { authorization } });
const unauthorized = (detail: RegExp) => (err: unknown) => err instanceof RamemError && err.code === "UNAUTHORIZED" && detail.test(err.message);

describe("Authorization: Token <key> (Mem0's scheme)", () => {
  let dir: string;
  let keys: ApiKeyStore;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "ramem-token-"));
    keys = await openSqliteApiKeyStore(join(dir, "k.db"));
  });
  after(async () => {
    await keys.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("is the same key as Bearer: same principal, any case, surrounding spaces", async () => {
    const { record, secret } = await createApiKey(keys, { name: "mem0-app", role: "write", namespaces: ["alice"] });
    const authenticate = createAuthenticator({ keys, open: "closed" });
    const viaBearer = await authenticate(req(`Bearer ${secret}`));
    assert.deepEqual(await authenticate(req(`Token ${secret}`)), viaBearer);
    assert.equal((await authenticate(req(`token   ${secret} `))).keyId, record.id);
  });

  it("an unknown, revoked or missing key after Token is refused; other schemes still are", async () => {
    const { record, secret } = await createApiKey(keys, { name: "gone", role: "read", namespaces: ["alice"] });
    const authenticate = createAuthenticator({ keys, open: "closed" });
    await assert.rejects(authenticate(req("Token rm_nope")), unauthorized(/unknown or revoked/));
    await assert.rejects(authenticate(req("Token")), unauthorized(/not `Bearer <key>` \(or Mem0's `Token <key>`\)/));
    await assert.rejects(authenticate(req(`Tokens ${secret}`)), unauthorized(/not `Bearer <key>`/));
    await assert.rejects(authenticate(req(`Basic ${secret}`)), unauthorized(/not `Bearer <key>`/));
    await keys.revokeKey(record.id, new Date().toISOString());
    await assert.rejects(authenticate(req(`Token ${secret}`)), unauthorized(/unknown or revoked/));
  });
});
