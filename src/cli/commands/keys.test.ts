import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "../testing/run-cli.js";
import { openApiKeyStore } from "../../store/open-api-key-store.js";
import { hashSecret } from "../../server/auth/hash-secret.js";

test("ramem keys create | list | revoke: the secret is printed once and never listed", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ramem-keys-cli-"));
  const db = join(dir, "k.db");
  try {
    const created = await runCli(["keys", "create", "--db", db, "--name", "support-bot", "--role", "write", "--namespace", "a", "--namespace", "b", "--json"]);
    assert.equal(created.code, 0, created.stderr);
    const key = JSON.parse(created.stdout);
    assert.match(key.secret, /^rm_[A-Za-z0-9_-]{43}$/);
    assert.deepEqual([key.name, key.role, key.namespaces], ["support-bot", "write", ["a", "b"]]);

    const human = await runCli(["keys", "create", "--db", db, "--name", "reader", "--role", "read", "--namespace", "a"]);
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stdout, /shown once/);
    const humanSecret = /\b(rm_[A-Za-z0-9_-]{43})\b/.exec(human.stdout)?.[1];
    assert.ok(humanSecret, human.stdout);

    const store = await openApiKeyStore(db);
    assert.equal((await store.findActiveKey(hashSecret(key.secret)))?.id, key.id);
    await store.close();

    const list = await runCli(["keys", "list", "--db", db, "--json"]);
    assert.equal(list.code, 0, list.stderr);
    assert.ok(!list.stdout.includes(key.secret.slice(3)) && !list.stdout.includes(humanSecret!.slice(3)), "a secret was listed");
    assert.ok(!list.stdout.includes(hashSecret(key.secret)), "a hash was listed");
    assert.deepEqual(JSON.parse(list.stdout).keys.map((k: { name: string }) => k.name), ["support-bot", "reader"]);

    const revoke = await runCli(["keys", "revoke", "--db", db, key.id]);
    assert.equal(revoke.code, 0, revoke.stderr);
    const after = await openApiKeyStore(db);
    assert.ok((await after.listKeys()).find((k) => k.id === key.id)?.revokedAt, "not revoked");
    assert.equal(await after.findActiveKey(hashSecret(key.secret)), null);
    await after.close();
    const again = await runCli(["keys", "revoke", "--db", db, key.id]);
    assert.equal(again.code, 2);
    assert.match(again.stderr, /no active key/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
