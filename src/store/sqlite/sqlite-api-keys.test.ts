import { describe, it, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runApiKeyStoreContractSuite } from "../api-key-contract-suite.js";
import { openSqliteApiKeyStore } from "./sqlite-api-keys.js";
import { openSqliteStore } from "./sqlite-store.js";
import { openApiKeyStore } from "../open-api-key-store.js";

const dir = mkdtempSync(join(tmpdir(), "ramem-keys-"));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
runApiKeyStoreContractSuite("sqlite", () => openSqliteApiKeyStore(join(dir, `k${++n}.db`)));

describe("sqlite api keys share the memory store's file", () => {
  it("coexist with the memory schema in one file, in either opening order", async () => {
    for (const keysFirst of [true, false]) {
      const path = join(dir, `shared-${keysFirst}.db`);
      const first = keysFirst ? await openSqliteApiKeyStore(path) : await openSqliteStore(path);
      const second = keysFirst ? await openSqliteStore(path) : await openSqliteApiKeyStore(path);
      await first.close();
      await second.close();
      const memory = await openSqliteStore(path);
      const keys = await openApiKeyStore(path);
      await keys.insertKey({ id: "key_x", name: "x", secretHash: "h", role: "admin", namespaces: ["a"], createdAt: "2026-01-01T00:00:00.000Z", revokedAt: null });
      await memory.bindEmbedder("e@1", 4);
      assert.deepEqual((await memory.stats()).units, 0);
      assert.equal((await keys.listKeys()).length, 1);
      await memory.close();
      await keys.close();
      // Reopening migrates nothing twice.
      const again = await openApiKeyStore(path);
      assert.equal((await again.listKeys()).length, 1);
      await again.close();
    }
  });

});
