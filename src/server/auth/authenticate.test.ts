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
    const authenticate = createAuthenticator({ keys, open: "until-first-key" });
    assert.deepEqual(await authenticate(req(`Bearer ${secret}`)), { keyId: record.id, keyName: "reader", role: "read", namespaces: ["n1"] });
    assert.equal((await authenticate(req(`bearer   ${secret} `))).keyId, record.id);
    await assert.rejects(authenticate(req()), isCode("UNAUTHORIZED"));
    await assert.rejects(authenticate(req(`Basic ${secret}`)), isCode("UNAUTHORIZED"));
    await assert.rejects(authenticate(req("Bearer rm_nope")), isCode("UNAUTHORIZED"));
    await keys.revokeKey(record.id, new Date().toISOString());
    await assert.rejects(authenticate(req(`Bearer ${secret}`)), isCode("UNAUTHORIZED"));
  });

  it("open mode: until the first key, the local principal; never again after, even with every key revoked", async () => {
    const empty = await openSqliteApiKeyStore(join(dir, "empty.db"));
    try {
      const untilFirstKey = createAuthenticator({ keys: empty, open: "until-first-key" });
      assert.equal(await untilFirstKey(req()), LOCAL_PRINCIPAL);
      await assert.rejects(createAuthenticator({ keys: empty, open: "closed" })(req()), isCode("UNAUTHORIZED"));
      const { record } = await createApiKey(empty, { name: "x", role: "read", namespaces: ["a"] });
      await assert.rejects(untilFirstKey(req()), isCode("UNAUTHORIZED"));
      await empty.revokeKey(record.id, new Date().toISOString());
      await assert.rejects(untilFirstKey(req()), isCode("UNAUTHORIZED"), "revoking the last key reopened it");
      await assert.rejects(createAuthenticator({ keys: empty, open: "until-first-key" })(req()), isCode("UNAUTHORIZED"), "a store that held a key is not a never-keyed store");
      assert.equal(await createAuthenticator({ keys: empty, open: "explicit" })(req()), LOCAL_PRINCIPAL, "--open is the operator's decision");
    } finally {
      await empty.close();
    }
  });
});
