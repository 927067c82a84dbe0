import { it } from "node:test";
import assert from "node:assert/strict";
import pg from "pg";
import { RamemError } from "../../model/errors.js";
import type { ApiKeyRecord, ApiKeyStore, Role } from "../api-key-contract.js";
import { TEST_DIMS, TEST_EMBEDDER, makeRecords, makeSession } from "../testing/make-unit.js";
import { openPostgresApiKeyStore } from "./postgres-api-keys.js";
import { runApiKeyStoreContractSuite } from "../api-key-contract-suite.js";
import { openApiKeyStore } from "../open-api-key-store.js";
import { openPostgresStore } from "./postgres-store.js";
import { describeWithPostgres, uniqueSchema } from "./testing/postgres-test-target.js";

const isCode = (code: string) => (e: unknown) => e instanceof RamemError && e.code === code;

let n = 0;
function key(over: Partial<ApiKeyRecord> = {}): ApiKeyRecord {
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

describeWithPostgres("postgres ApiKeyStore", (url) => {
  // The behaviour every dialect shares (the SQLite one runs the same suite).
  runApiKeyStoreContractSuite("postgres", () => openPostgresApiKeyStore(url, { schema: uniqueSchema("kc"), dropSchemaOnClose: true }));

  it("openApiKeyStore picks the postgres key store for a postgres:// location", async () => {
    const schema = uniqueSchema("ko");
    const withSchema = `${url}${url.includes("?") ? "&" : "?"}schema=${schema}`;
    const store = await openApiKeyStore(withSchema);
    try {
      const k = key();
      await store.insertKey(k);
      assert.deepEqual(await store.findActiveKey(k.secretHash), k);
    } finally {
      await store.close();
      const raw = new pg.Client({ connectionString: url });
      await raw.connect();
      await raw.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await raw.end();
    }
  });

  async function withStore(fn: (store: ApiKeyStore) => Promise<void>): Promise<void> {
    const store = await openPostgresApiKeyStore(url, { schema: uniqueSchema("k"), dropSchemaOnClose: true });
    try {
      await fn(store);
    } finally {
      await store.close();
    }
  }

  it("stores a key and finds it by its secret hash, namespaces and role intact", async () => {
    await withStore(async (store) => {
      assert.equal(store.specificationVersion, "v1");
      const k = key({ role: "write", namespaces: ["ns-a", "ns-b"] });
      await store.insertKey(k);
      assert.deepEqual(await store.findActiveKey(k.secretHash), k);
      assert.equal(await store.findActiveKey("f".repeat(64)), null);
    });
  });

  it("lists every key oldest first, revoked ones included", async () => {
    await withStore(async (store) => {
      const a = key({ createdAt: "2026-01-01T00:00:00.000Z" });
      const b = key({ createdAt: "2026-01-02T00:00:00.000Z", role: "admin" });
      const c = key({ createdAt: "2026-01-02T00:00:00.000Z" });
      await store.insertKey(b);
      await store.insertKey(a);
      await store.insertKey(c);
      assert.equal(await store.revokeKey(a.id, "2026-02-01T00:00:00.000Z"), true);
      const listed = await store.listKeys();
      assert.deepEqual(listed.map((k) => k.id), [a.id, b.id, c.id]);
      assert.equal(listed[0]!.revokedAt, "2026-02-01T00:00:00.000Z");
      assert.deepEqual(listed[1], b);
    });
  });

  it("a revoked key is no longer found; revoking twice or an unknown id returns false", async () => {
    await withStore(async (store) => {
      const k = key();
      await store.insertKey(k);
      assert.equal(await store.revokeKey(k.id, "2026-02-01T00:00:00.000Z"), true);
      assert.equal(await store.findActiveKey(k.secretHash), null);
      assert.equal(await store.revokeKey(k.id, "2026-02-02T00:00:00.000Z"), false);
      assert.equal(await store.revokeKey("key_nope", "2026-02-02T00:00:00.000Z"), false);
      assert.equal((await store.listKeys())[0]!.revokedAt, "2026-02-01T00:00:00.000Z");
    });
  });

  it("refuses a duplicate id or secret hash with DUPLICATE_KEY and keeps the first", async () => {
    await withStore(async (store) => {
      const k = key();
      await store.insertKey(k);
      await assert.rejects(store.insertKey({ ...key(), id: k.id }), isCode("DUPLICATE_KEY"));
      await assert.rejects(store.insertKey({ ...key(), secretHash: k.secretHash }), isCode("DUPLICATE_KEY"));
      assert.deepEqual(await store.listKeys(), [k]);
    });
  });

  it("refuses a key without namespaces or with an unknown role, storing nothing", async () => {
    await withStore(async (store) => {
      await assert.rejects(store.insertKey(key({ namespaces: [] })), isCode("INVALID_KEY"));
      await assert.rejects(store.insertKey(key({ role: "owner" as Role })), isCode("INVALID_KEY"));
      assert.deepEqual(await store.listKeys(), []);
    });
  });

  it("shares a schema with the memory store: one --store URL holds memory and keys", async () => {
    const schema = uniqueSchema("k");
    const memory = await openPostgresStore(url, { schema });
    const keys = await openPostgresApiKeyStore(url, { schema, dropSchemaOnClose: true });
    try {
      await memory.bindEmbedder(TEST_EMBEDDER, TEST_DIMS);
      const s = makeSession();
      await memory.replaceSession(s, "h", makeRecords(s, 2));
      const k = key();
      await keys.insertKey(k);
      assert.equal((await memory.stats()).units, 2);
      assert.deepEqual(await keys.findActiveKey(k.secretHash), k);
    } finally {
      await memory.close();
      await keys.close();
    }
  });
});
