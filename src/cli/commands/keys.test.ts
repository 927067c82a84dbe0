import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "../testing/run-cli.js";
import { openApiKeyStore } from "../../store/open-api-key-store.js";
import { hashSecret } from "../../server/auth/hash-secret.js";
import { createApiKey } from "../../server/auth/create-api-key.js";
import { startServer } from "../../server/serve.js";
import { openMemory } from "../../open-memory.js";

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

test("revoking the last key leaves a running server closed (every request 401), says so, and a restart stays closed", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ramem-keys-cli-"));
  const db = join(dir, "k.db");
  const memory = await openMemory({ db, embedder: "hash", languageModel: null, env: {} });
  const keys = await openApiKeyStore(db);
  const { record, secret } = await createApiKey(keys, { name: "only", role: "admin", namespaces: ["a"] });
  const warnings: string[] = [];
  let server = await startServer({ memory, keys, port: 0, warn: (m) => warnings.push(m) });
  try {
    assert.equal(server.open, false, "a store with a key starts closed");
    const stats = (headers: Record<string, string> = {}) => fetch(`${server.url}/v1/namespaces/a/stats`, { headers }).then((r) => r.status);
    assert.equal(await stats({ authorization: `Bearer ${secret}` }), 404, "the key works (namespace a is empty)");

    const revoke = await runCli(["keys", "revoke", "--db", db, record.id]);
    assert.equal(revoke.code, 0, revoke.stderr);
    assert.match(revoke.stdout, /revoked key_/);
    assert.match(revoke.stdout, /No active key remains: a server on this store now refuses every request \(401\)/);
    assert.match(revoke.stdout, /ramem serve --open/);

    assert.equal(await stats(), 401, "revoking the last key reopened the server");
    assert.equal(await stats({ authorization: `Bearer ${secret}` }), 401);
    const mcp = await fetch(`${server.url}/mcp`, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }) });
    assert.equal(mcp.status, 401, "MCP too");

    await server.close();
    server = await startServer({ memory, keys, port: 0, warn: (m) => warnings.push(m) });
    assert.equal(server.open, false, "a restart after revoking every key does not open it");
    assert.equal(await stats(), 401);
    assert.match(warnings.join("\n"), /every API key of this store is revoked: .* refuses every request \(401\)/);
    await server.close();

    server = await startServer({ memory, keys, port: 0, open: true, warn: (m) => warnings.push(m) });
    assert.equal(server.openMode, "explicit");
    assert.equal(await stats(), 404, "--open answers without a key, as asked");
    await assert.rejects(startServer({ memory, keys, host: "0.0.0.0", port: 0, open: true, warn: () => {} }), /refusing to run open on 0\.0\.0\.0/);
  } finally {
    await server.close();
    await keys.close();
    await memory.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("ramem keys list escapes names for the terminal (one key, one line); --json stays raw; create refuses control characters", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ramem-keys-cli-"));
  const db = join(dir, "k.db");
  try {
    // Stored straight through the key store, as an older version (or another tool) could have.
    const store = await openApiKeyStore(db);
    const evil = "bot\nkey_000000000000  ADMIN\u001b[2J\u202Eesrever\\n";
    const { record } = await createApiKey(store, { name: evil, role: "read", namespaces: ["a"] });
    await store.close();

    const list = await runCli(["keys", "list", "--db", db]);
    assert.equal(list.code, 0, list.stderr);
    const lines = list.stdout.split("\n").filter(Boolean);
    assert.equal(lines.length, 1, list.stdout);
    assert.ok(lines[0]!.startsWith(`${record.id}  bot\\nkey_000000000000  ADMIN\\x1b[2J\\u202eesrever\\\\n`), lines[0]);
    assert.doesNotMatch(list.stdout, /[\u001b\u202E]/);

    const json = await runCli(["keys", "list", "--db", db, "--json"]);
    assert.equal(JSON.parse(json.stdout).keys[0].name, evil);

    for (const name of ["two\nlines", "esc\u001b[31m", "rtl\u202Eoverride"]) {
      const created = await runCli(["keys", "create", "--db", db, "--name", name, "--role", "read", "--namespace", "a"]);
      assert.equal(created.code, 2, created.stdout);
      assert.match(created.stderr, /--name: the key name holds .* a key name is one line of visible text/);
    }
    const after = await openApiKeyStore(db);
    assert.equal((await after.listKeys()).length, 1, "a refused create stored nothing");
    await after.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
