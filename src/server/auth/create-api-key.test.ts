import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqliteApiKeyStore } from "../../store/sqlite/sqlite-api-keys.js";
import type { ApiKeyStore } from "../../store/api-key-contract.js";
import { RamemError } from "../../model/errors.js";
import { hashSecret } from "./hash-secret.js";
import { createApiKey } from "./create-api-key.js";

const isCode = (code: string) => (err: unknown) => err instanceof RamemError && err.code === code;

describe("createApiKey", () => {
  let dir: string;
  let keys: ApiKeyStore;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "ramem-create-key-"));
    keys = await openSqliteApiKeyStore(join(dir, "k.db"));
  });
  after(async () => {
    await keys.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("creates rm_<base64url of 32 random bytes> secrets and stores only their hash", async () => {
    const a = await createApiKey(keys, { name: "bot", role: "write", namespaces: ["n1", "n2", "n1"] });
    const b = await createApiKey(keys, { name: "bot", role: "write", namespaces: ["n1"] });
    assert.match(a.secret, /^rm_[A-Za-z0-9_-]{43}$/);
    assert.notEqual(a.secret, b.secret);
    assert.match(a.record.id, /^key_[0-9a-f]{12}$/);
    assert.deepEqual(a.record.namespaces, ["n1", "n2"]);
    const stored = (await keys.listKeys()).find((k) => k.id === a.record.id);
    assert.equal(stored?.secretHash, hashSecret(a.secret));
    assert.ok(!JSON.stringify(await keys.listKeys()).includes(a.secret.slice(3)), "the secret itself is stored");
  });

  it("refuses a key without a name, without namespaces, with an invalid namespace or an unknown role", async () => {
    const before = (await keys.listKeys()).length;
    await assert.rejects(createApiKey(keys, { name: " ", role: "read", namespaces: ["a"] }), isCode("INVALID_KEY"));
    await assert.rejects(createApiKey(keys, { name: "x", role: "read", namespaces: [] }), isCode("INVALID_KEY"));
    await assert.rejects(createApiKey(keys, { name: "x", role: "read", namespaces: ["bad name!"] }), isCode("INVALID_KEY"));
    await assert.rejects(createApiKey(keys, { name: "x", role: "root" as never, namespaces: ["a"] }), isCode("INVALID_KEY"));
    assert.equal((await keys.listKeys()).length, before);
  });
});
