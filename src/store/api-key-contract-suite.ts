import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { RamemError } from "../model/errors.js";
import type { ApiKeyRecord, ApiKeyStore } from "./api-key-contract.js";
import { makeApiKey } from "./testing/make-api-key.js";

/**
 * The behaviour every ApiKeyStore dialect must show. `open` returns a fresh,
 * empty store on each call; each test closes the store it opened.
 */
export function runApiKeyStoreContractSuite(name: string, open: () => Promise<ApiKeyStore>): void {
  async function withStore(fn: (store: ApiKeyStore) => Promise<void>): Promise<void> {
    const store = await open();
    try {
      await fn(store);
    } finally {
      await store.close();
    }
  }
  const key = makeApiKey;

  describe(`ApiKeyStore contract: ${name}`, () => {
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
        await store.insertKey(b);
        await store.insertKey(a);
        assert.equal(await store.revokeKey(a.id, "2026-02-01T00:00:00.000Z"), true);
        const listed = await store.listKeys();
        assert.deepEqual(listed.map((k) => k.id), [a.id, b.id]);
        assert.equal(listed[0]!.revokedAt, "2026-02-01T00:00:00.000Z");
        assert.equal(listed[1]!.revokedAt, null);
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
      });
    });

    it("refuses a duplicate id or secret hash with DUPLICATE_KEY and keeps the first", async () => {
      await withStore(async (store) => {
        const k = key();
        await store.insertKey(k);
        const isDup = (err: unknown) => err instanceof RamemError && err.code === "DUPLICATE_KEY";
        await assert.rejects(store.insertKey({ ...key(), id: k.id }), isDup);
        await assert.rejects(store.insertKey({ ...key(), secretHash: k.secretHash }), isDup);
        assert.deepEqual(await store.listKeys(), [k]);
      });
    });

    it("refuses a key without namespaces or with an unknown role (INVALID_KEY), storing nothing", async () => {
      await withStore(async (store) => {
        const invalid = (e: unknown) => e instanceof RamemError && e.code === "INVALID_KEY";
        await assert.rejects(store.insertKey(key({ namespaces: [] })), invalid);
        await assert.rejects(store.insertKey(key({ role: "owner" as ApiKeyRecord["role"] })), invalid);
        assert.deepEqual(await store.listKeys(), []);
      });
    });
  });
}
