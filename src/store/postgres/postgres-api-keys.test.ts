import { it } from "node:test";
import assert from "node:assert/strict";
import pg from "pg";
import { makeApiKey } from "../testing/make-api-key.js";
import { TEST_DIMS, TEST_EMBEDDER, makeRecords, makeSession } from "../testing/make-unit.js";
import { openPostgresApiKeyStore } from "./postgres-api-keys.js";
import { runApiKeyStoreContractSuite } from "../api-key-contract-suite.js";
import { openApiKeyStore } from "../open-api-key-store.js";
import { openPostgresStore } from "./postgres-store.js";
import { describeWithPostgres, uniqueSchema } from "./testing/postgres-test-target.js";

const key = makeApiKey;

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
