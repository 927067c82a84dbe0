import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isPostgresUrl, openStore } from "./open-store.js";
import { describeWithPostgres, uniqueSchema } from "./postgres/testing/postgres-test-target.js";

describe("openStore", () => {
  it("recognises postgres:// and postgresql:// URLs only", () => {
    assert.equal(isPostgresUrl("postgres://u@h/db"), true);
    assert.equal(isPostgresUrl("POSTGRESQL://u@h/db"), true);
    assert.equal(isPostgresUrl("./postgres.db"), false);
    assert.equal(isPostgresUrl("sqlite://x"), false);
  });

  it("opens anything else as a SQLite file", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ramem-open-store-"));
    try {
      const store = await openStore(join(dir, "x.db"));
      assert.equal(store.dialect, "sqlite");
      await store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describeWithPostgres("openStore with a postgres URL", (url) => {
  it("opens the postgres dialect in the schema the URL names", async () => {
    const u = new URL(url);
    const schema = uniqueSchema("o");
    u.searchParams.set("schema", schema);
    const store = await openStore(u.toString());
    try {
      assert.equal(store.dialect, "postgres");
      assert.ok(store.location.includes(schema));
      assert.equal((await store.stats()).units, 0);
    } finally {
      await store.close();
      const { default: pg } = await import("pg");
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`DROP SCHEMA "${schema}" CASCADE`);
      await c.end();
    }
  });
});
