import { test } from "node:test";
import assert from "node:assert/strict";
import pg from "pg";
import { describeWithPostgres, uniqueSchema } from "./testing/postgres-test-target.js";
import { openPostgresStore } from "./postgres-store.js";
import { bulkLoad } from "./bulk-load.js";
import { makeRecords, makeSession } from "../testing/make-unit.js";

/** The backend holding this schema's bulk-load lock, by its key (other tests may hold their own schemas' locks meanwhile); undefined when none does. */
async function bulkLockHolder(c: pg.Client, schema: string): Promise<number | undefined> {
  const { rows } = await c.query<{ pid: number }>(
    `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted
       AND ((classid::bigint << 32) | objid::bigint) = hashtextextended('ramem bulk load ' || $1, 0)`,
    [schema],
  );
  return rows[0]?.pid;
}

describeWithPostgres("bulkLoad", (url) => {
  const embedder = { id: "test-embedder@1", dimensions: 4 };
  const storeUrl = (schema: string) => {
    const target = new URL(url);
    target.searchParams.set("schema", schema);
    return target.toString();
  };

  test("binds the embedder first, writes without the index, and builds it afterwards; a failed write still gets its index back and its own error", async () => {
    const schema = uniqueSchema("bulk");
    const store = await openPostgresStore(storeUrl(schema));
    const c = new pg.Client({ connectionString: url, options: `-c search_path=${schema},public` });
    await c.connect();
    const index = async () => (await c.query<{ oid: number | null }>("SELECT to_regclass('unit_vectors_hnsw')::oid AS oid")).rows[0]!.oid;
    try {
      let seenDuringWrite: number | null | undefined;
      const { result, denseIndex } = await bulkLoad(store, embedder, async (beforeFirstWrite) => {
        // As every ingest does: binding a store that was not bound would create the index.
        await store.bindEmbedder(embedder.id, embedder.dimensions);
        await beforeFirstWrite();
        await beforeFirstWrite();
        seenDuringWrite = await index();
        const session = makeSession();
        await store.replaceSession(session, "bulk-1", makeRecords(session, 3, embedder.dimensions));
        return "written";
      });
      assert.equal(result, "written");
      assert.equal(seenDuringWrite, null, "no index while the write ran, on a store that was not bound before");
      assert.equal(denseIndex?.action, "created");
      assert.notEqual(await index(), null);
      // Analysed by the load itself, not left to autovacuum (which sets last_autoanalyze, later).
      const analysed = await c.query<{ relname: string }>(
        "SELECT relname FROM pg_stat_user_tables WHERE schemaname = $1 AND last_analyze IS NOT NULL AND relname IN ('units', 'unit_vectors', 'unit_terms', 'namespace_terms', 'sessions') ORDER BY relname",
        [schema],
      );
      assert.deepEqual(analysed.rows.map((r) => r.relname), ["namespace_terms", "sessions", "unit_terms", "unit_vectors", "units"]);
      // The postings vacuumed by the load as well (last_vacuum: autovacuum sets last_autovacuum), so the visibility
      // map lets BM25's index-only scans skip the heap. Which pages a vacuum marks is the server's affair (one just
      // after the write may leave the newest unmarked); that it ran is the load's.
      const postings = await c.query<{ vacuumed: boolean }>(
        "SELECT last_vacuum IS NOT NULL AS vacuumed FROM pg_stat_user_tables WHERE schemaname = $1 AND relname = 'unit_terms'",
        [schema],
      );
      assert.equal(postings.rows[0]?.vacuumed, true);

      // ANALYZE is advisory: its failure after a good load is reported in the note, and the load's result kept.
      const analyze = store.analyzeTables.bind(store);
      store.analyzeTables = async () => {
        throw new Error("permission denied to analyze");
      };
      const again = await bulkLoad(store, embedder, async (beforeFirstWrite) => {
        await beforeFirstWrite();
        return "written again";
      });
      store.analyzeTables = analyze;
      assert.equal(again.result, "written again");
      assert.match(again.denseIndex?.note ?? "", /not analysed \(permission denied to analyze\).*run ANALYZE/);

      await assert.rejects(
        bulkLoad(store, embedder, async (beforeFirstWrite) => {
          await beforeFirstWrite();
          throw new Error("the write broke");
        }),
        /the write broke/,
      );
      assert.notEqual(await index(), null, "the index is built again after a failed write");

      // A write that changes nothing never asks: the index is neither dropped nor built (the same index, by its oid).
      const before = await index();
      const unchanged = await bulkLoad(store, embedder, async () => "nothing to write");
      assert.deepEqual(unchanged, { result: "nothing to write", denseIndex: null });
      assert.equal(await index(), before);
      // ...and one that fails before its first change leaves it too.
      await assert.rejects(bulkLoad(store, embedder, async () => Promise.reject(new Error("bad input"))), /bad input/);
      assert.equal(await index(), before);
      // Build options no build can take are refused before the drop and the writes, not at the build after them.
      let wrote = false;
      await assert.rejects(
        bulkLoad(store, embedder, async (beforeFirstWrite) => {
          await beforeFirstWrite();
          wrote = true;
        }, { parallelWorkers: -1 }),
        (err: { code?: string; where?: string }) => err.code === "BAD_OPTION" && err.where === "parallelWorkers",
      );
      assert.equal(wrote, false);
      assert.equal(await index(), before);
      // So is a build memory the server would refuse (before, set_config failed only at the build, after the writes).
      await assert.rejects(
        bulkLoad(store, embedder, async (beforeFirstWrite) => {
          await beforeFirstWrite();
          wrote = true;
        }, { maintenanceWorkMem: "lots" }),
        (err: { code?: string; where?: string }) => err.code === "BAD_OPTION" && err.where === "maintenanceWorkMem",
      );
      assert.equal(wrote, false);
      assert.equal(await index(), before);
      // An earlier load that died between its drop and its build: the next one builds the index even with nothing to write.
      assert.equal(await store.dropDenseIndex(), true);
      assert.equal(await store.hasDenseIndex(), false);
      const healed = await bulkLoad(store, embedder, async () => "nothing to write");
      assert.equal(healed.denseIndex?.action, "created");
      assert.equal(await store.hasDenseIndex(), true);

      // A write that fails and takes the connection with it: the build cannot run, and the error says so and what to do.
      const second = await openPostgresStore(storeUrl(schema));
      await assert.rejects(
        bulkLoad(second, embedder, async (beforeFirstWrite) => {
          await beforeFirstWrite();
          await second.close();
          throw new Error("the server went away");
        }),
        (err: Error & { code?: string; hint?: string }) => {
          assert.equal(err.code, "BULK_LOAD_FAILED");
          assert.match(err.message, /the server went away/);
          assert.match(err.hint ?? "", /ramem reindex/);
          return true;
        },
      );
    } finally {
      await store.close();
      await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await c.end();
    }
  });

  test("one bulk load per schema at a time: a second one, from another store, is refused before it drops anything, and the lock is let go after each", async () => {
    const schema = uniqueSchema("bulklock");
    const first = await openPostgresStore(storeUrl(schema));
    const second = await openPostgresStore(storeUrl(schema));
    const c = new pg.Client({ connectionString: url, options: `-c search_path=${schema},public` });
    await c.connect();
    const index = async () => (await c.query<{ oid: number | null }>("SELECT to_regclass('unit_vectors_hnsw')::oid AS oid")).rows[0]!.oid;
    try {
      await first.bindEmbedder(embedder.id, embedder.dimensions);
      let letGo!: () => void;
      const writing = new Promise<void>((resolve) => (letGo = resolve));
      let inWrite!: () => void;
      const started = new Promise<void>((resolve) => (inWrite = resolve));
      const load = bulkLoad(first, embedder, async (beforeFirstWrite) => {
        await beforeFirstWrite();
        inWrite();
        await writing;
        return "first";
      });
      await started;
      let secondWrote = false;
      await assert.rejects(
        bulkLoad(second, embedder, async () => {
          secondWrote = true;
          return "second";
        }),
        (err: Error & { code?: string; hint?: string; where?: string }) => {
          assert.equal(err.code, "BULK_LOAD_BUSY");
          assert.match(err.message, new RegExp(`another bulk load into schema ${schema} is running`));
          assert.match(err.hint ?? "", /wait for it to finish.*nothing was written/);
          return true;
        },
      );
      assert.equal(secondWrote, false);
      letGo();
      assert.equal((await load).result, "first");
      assert.notEqual(await index(), null, "the first load's index survived the refused second one");
      // Let go after a load, and after a failed one: the next load (from either store) runs.
      assert.equal((await bulkLoad(second, embedder, async () => "second, later")).result, "second, later");
      await assert.rejects(
        bulkLoad(second, embedder, async (beforeFirstWrite) => {
          await beforeFirstWrite();
          throw new Error("broke");
        }),
        /broke/,
      );
      assert.equal((await bulkLoad(first, embedder, async () => "first, again")).result, "first, again");
      assert.equal(await bulkLockHolder(c, schema), undefined, "no bulk-load lock is left behind");
    } finally {
      await first.close();
      await second.close();
      await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await c.end();
    }
  });

  test("the lock has a connection of its own: a store of one connection bulk loads, and a lock connection that dies does not take the process with it", async () => {
    const schema = uniqueSchema("bulkconn");
    const store = await openPostgresStore(storeUrl(schema), { maxConnections: 1 });
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      const loaded = await bulkLoad(store, embedder, async (beforeFirstWrite) => {
        await beforeFirstWrite();
        // The server ends the lock's session mid-load (a restart, idle_session_timeout, an admin).
        const pid = await bulkLockHolder(c, schema);
        assert.ok(pid, "the lock is held during the load");
        await c.query("SELECT pg_terminate_backend($1)", [pid]);
        await new Promise((resolve) => setTimeout(resolve, 200));
        return "written";
      });
      assert.equal(loaded.result, "written");
      assert.equal(loaded.denseIndex?.action, "created");
      assert.equal(await bulkLockHolder(c, schema), undefined);
      // The lock can be taken again.
      assert.equal((await bulkLoad(store, embedder, async () => "again")).result, "again");
    } finally {
      await store.close();
      await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await c.end();
    }
  });
});
