import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqliteApiKeyStore } from "../../store/sqlite/sqlite-api-keys.js";
import type { ApiKeyStore } from "../../store/api-key-contract.js";
import { RamemError } from "../../model/errors.js";
import { createApiKey } from "./create-api-key.js";
import { createAuthenticator } from "./authenticate.js";
import { LOCAL_PRINCIPAL } from "./principal.js";

const isCode = (code: string) => (err: unknown) => err instanceof RamemError && err.code === code;
const req = (authorization?: string) => new Request("http://x/", authorization ? { headers: { authorization } } : {});

describe("createAuthenticator", () => {
  let dir: string;
  let keys: ApiKeyStore;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "ramem-authn-"));
    keys = await openSqliteApiKeyStore(join(dir, "k.db"));
  });
  after(async () => {
    await keys.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("a Bearer key becomes its principal; missing, malformed, unknown or revoked keys are UNAUTHORIZED", async () => {
    const { record, secret } = await createApiKey(keys, { name: "reader", role: "read", namespaces: ["n1"] });
    const authenticate = createAuthenticator({ keys, allowOpenWhenNoKeys: true });
    assert.deepEqual(await authenticate(req(`Bearer ${secret}`)), { keyId: record.id, role: "read", namespaces: ["n1"] });
    assert.equal((await authenticate(req(`bearer   ${secret} `))).keyId, record.id);
    await assert.rejects(authenticate(req()), isCode("UNAUTHORIZED"));
    await assert.rejects(authenticate(req(`Basic ${secret}`)), isCode("UNAUTHORIZED"));
    await assert.rejects(authenticate(req("Bearer rm_nope")), isCode("UNAUTHORIZED"));
    await keys.revokeKey(record.id, new Date().toISOString());
    await assert.rejects(authenticate(req(`Bearer ${secret}`)), isCode("UNAUTHORIZED"));
  });

  it("open mode: the local principal only when allowed and while no active key exists", async () => {
    const empty = await openSqliteApiKeyStore(join(dir, "empty.db"));
    try {
      assert.equal(await createAuthenticator({ keys: empty, allowOpenWhenNoKeys: true })(req()), LOCAL_PRINCIPAL);
      await assert.rejects(createAuthenticator({ keys: empty, allowOpenWhenNoKeys: false })(req()), isCode("UNAUTHORIZED"));
      await createApiKey(empty, { name: "x", role: "read", namespaces: ["a"] });
      await assert.rejects(createAuthenticator({ keys: empty, allowOpenWhenNoKeys: true })(req()), isCode("UNAUTHORIZED"));
    } finally {
      await empty.close();
    }
  });
});
