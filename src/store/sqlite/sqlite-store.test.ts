import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { RamemError } from "../../model/errors.js";
import { runStoreContractSuite } from "../contract-suite.js";
import { TEST_DIMS, TEST_EMBEDDER, makeRecord, makeRecords, makeSession } from "../testing/make-unit.js";
import { openSqliteStore, toFtsQuery } from "./sqlite-store.js";
import { MIGRATIONS, SCHEMA_VERSION } from "./schema.js";

const dir = mkdtempSync(join(tmpdir(), "ramem-sqlite-"));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const freshPath = () => join(dir, `store-${process.pid}-${n++}.db`);

runStoreContractSuite("sqlite (file)", () => openSqliteStore(freshPath()), { openApproximate: () => openSqliteStore(freshPath(), { annMinUnits: 1 }) });
runStoreContractSuite("sqlite (:memory:)", () => openSqliteStore(":memory:"));
// Every namespace above the threshold: each dense search is answered by the HNSW index (dense-index.ts), persisted beside the file.
runStoreContractSuite("sqlite (ANN path)", () => openSqliteStore(freshPath(), { annMinUnits: 1 }));

describe("sqlite store specifics", () => {
  it("keeps a namespace's version through reads and changes it with every write, this handle's or another connection's", async () => {
    const path = freshPath();
    const store = await openSqliteStore(path);
    const other = await openSqliteStore(path);
    try {
      await store.bindEmbedder(TEST_EMBEDDER, TEST_DIMS);
      const s1 = makeSession({ id: "s1" });
      await store.replaceSession(s1, "h1", makeRecords(s1, 3));
      const version = await store.namespaceVersion!(s1.namespace);
      await store.listSessions(s1.namespace);
      await store.searchLexical(s1.namespace, ["ordinary"], 5);
      assert.equal(await store.namespaceVersion!(s1.namespace), version, "reads leave it");
      await store.deleteUnit(s1.namespace, `${s1.namespace}:s1-u0`);
      const afterDelete = await store.namespaceVersion!(s1.namespace);
      assert.notEqual(afterDelete, version, "this handle's delete");
      const s2 = makeSession({ id: "s2", startTime: "2023-05-09T13:00:00Z" });
      await other.replaceSession(s2, "h2", makeRecords(s2, 2));
      const afterOther = await store.namespaceVersion!(s1.namespace);
      assert.notEqual(afterOther, afterDelete, "another connection's write");
      await store.replaceSession(s2, "h2b", makeRecords(s2, 1), { expectedHash: "h2" });
      assert.notEqual(await store.namespaceVersion!(s1.namespace), afterOther, "this handle's replace");
    } finally {
      await other.close();
      await store.close();
    }
  });

  it("migrates a version-1 file: its units read as before, with the session row's span and their turn ids in a column", async () => {
    const path = freshPath();
    const db = new Database(path);
    db.exec(MIGRATIONS[0]!);
    db.prepare("INSERT INTO meta (key, value) VALUES ('schema_version', '1')").run();
    const s = makeSession({ startTime: "2023-05-08T13:00:00Z", endTime: "2023-05-08T14:00:00Z" });
    const unit = makeRecord(s, 0).unit;
    db.prepare("INSERT INTO sessions VALUES (?, ?, ?, ?, ?, ?, ?, 'h1', 1)").run(s.namespace, s.id, s.startTime, s.endTime, Date.parse(s.startTime), Date.parse(s.endTime), JSON.stringify(s.participants));
    db.prepare("INSERT INTO units (namespace, id, session_id, seq, session_start, session_end, participants, body) VALUES (?, ?, ?, 0, ?, ?, '[]', ?)").run(
      s.namespace, unit.id, s.id, Date.parse(s.startTime), Date.parse(s.endTime), JSON.stringify(unit),
    );
    db.close();
    const store = await openSqliteStore(path);
    try {
      assert.deepEqual(await store.getUnits(s.namespace, [unit.id]), [unit]);
      assert.deepEqual((await store.listUnits(s.namespace)).map((u) => u.id), [unit.id]);
      assert.deepEqual(await store.unitHistory(s.namespace, unit.id), []);
      // Migration 5 copied them out of the body: an append's duplicate check sees the old turns.
      assert.ok(unit.provenance.turnIds.length > 0);
      assert.deepEqual(await store.listTurnIds(s.namespace, s.id), unit.provenance.turnIds);
      // A row an older version wrote into the open file has no turn_ids: they come from its body.
      const raw = new Database(path);
      assert.equal(raw.prepare("UPDATE units SET turn_ids = NULL").run().changes, 1);
      raw.close();
      assert.deepEqual(await store.listTurnIds(s.namespace, s.id), unit.provenance.turnIds);
    } finally {
      await store.close();
    }
  });


  it("runs in WAL mode with foreign keys and a busy timeout", async () => {
    const path = freshPath();
    const store = await openSqliteStore(path);
    await store.close();
    const db = new Database(path, { readonly: true });
    try {
      assert.equal(db.pragma("journal_mode", { simple: true }), "wal");
      assert.equal(db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").pluck().get(), String(SCHEMA_VERSION));
    } finally {
      db.close();
    }
    const again = await openSqliteStore(path);
    assert.equal(again.dialect, "sqlite");
    assert.equal(again.location, path);
    await again.close();
  });

  it("keeps the data across reopen", async () => {
    const path = freshPath();
    const s = makeSession();
    const recs = makeRecords(s, 3);
    {
      const store = await openSqliteStore(path);
      await store.bindEmbedder(TEST_EMBEDDER, TEST_DIMS);
      await store.replaceSession(s, "h", recs);
      await store.close();
    }
    const store = await openSqliteStore(path);
    try {
      await store.bindEmbedder(TEST_EMBEDDER, TEST_DIMS);
      await assert.rejects(store.bindEmbedder("other@1", TEST_DIMS), (e: unknown) => e instanceof RamemError && e.code === "EMBEDDER_MISMATCH");
      assert.deepEqual((await store.getUnits(s.namespace, recs.map((r) => r.unit.id))).map(({ createdAt: _c, updatedAt: _u, ...u }) => u), recs.map((r) => r.unit));
      assert.equal((await store.searchDense(s.namespace, recs[1]!.embedding, 1))[0]?.id, recs[1]!.unit.id);
      assert.equal((await store.searchLexical(s.namespace, ["ordinary"], 10)).length, 3);
      assert.equal((await store.getSession(s.namespace, s.id))?.contentHash, "h");
    } finally {
      await store.close();
    }
  });

  it("lets two handles on one file write in turn and see each other's writes", async () => {
    const path = freshPath();
    const a = await openSqliteStore(path);
    const b = await openSqliteStore(path);
    try {
      await a.bindEmbedder(TEST_EMBEDDER, TEST_DIMS);
      // b learns the binding made through a, without reopening.
      await assert.rejects(b.bindEmbedder("other@1", 4), (e: unknown) => e instanceof RamemError && e.code === "EMBEDDER_MISMATCH");
      const s1 = makeSession({ id: "s1" });
      const s2 = makeSession({ id: "s2", startTime: "2023-06-01T00:00:00Z" });
      await a.replaceSession(s1, "h1", makeRecords(s1, 2));
      await b.replaceSession(s2, "h2", makeRecords(s2, 3));
      await a.replaceSession(s1, "h1b", [makeRecord(s1, 7, { content: "Caroline wrote a poem about the sea." })]);
      for (const st of [a, b]) {
        assert.equal((await st.stats()).units, 4);
        assert.deepEqual((await st.listSessions(s1.namespace)).map((x) => x.contentHash), ["h1b", "h2"]);
        assert.equal((await st.searchLexical(s1.namespace, ["poem"], 5)).length, 1);
        assert.equal((await st.searchDense(s1.namespace, makeRecords(s2, 1)[0]!.embedding, 10)).length, 4);
      }
      assert.equal(await b.deleteSession(s1.namespace, "s1"), 1);
      assert.deepEqual(await a.searchLexical(s1.namespace, ["poem"], 5), []);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("opens read-only: reads work, writes fail, a missing file is an error", async () => {
    const path = freshPath();
    const s = makeSession();
    const w = await openSqliteStore(path);
    await w.bindEmbedder(TEST_EMBEDDER, TEST_DIMS);
    await w.replaceSession(s, "h", makeRecords(s, 2));
    const r = await openSqliteStore(path, { readonly: true });
    try {
      assert.equal((await r.listUnits(s.namespace)).length, 2);
      await r.bindEmbedder(TEST_EMBEDDER, TEST_DIMS);
      await assert.rejects(r.replaceSession(s, "h2", []), (e: unknown) => e instanceof RamemError && e.code === "STORE_READONLY");
      await assert.rejects(r.deleteNamespace(s.namespace), (e: unknown) => e instanceof RamemError && e.code === "STORE_READONLY");
    } finally {
      await r.close();
      await w.close();
    }
    const missing = join(dir, "missing.db");
    await assert.rejects(openSqliteStore(missing, { readonly: true }), (e: unknown) => e instanceof RamemError);
    assert.equal(existsSync(missing), false);
  });

  it("refuses a file written by a newer schema", async () => {
    const path = freshPath();
    await (await openSqliteStore(path)).close();
    const db = new Database(path);
    db.prepare("UPDATE meta SET value = '99' WHERE key = 'schema_version'").run();
    db.close();
    await assert.rejects(openSqliteStore(path), (e: unknown) => e instanceof RamemError && e.code === "SCHEMA_TOO_NEW");
  });

  it("returns min(limit, units) beyond sqlite-vec's k cap of 4096", async () => {
    const store = await openSqliteStore(":memory:");
    try {
      await store.bindEmbedder(TEST_EMBEDDER, TEST_DIMS);
      const s = makeSession();
      const recs = makeRecords(s, 4200);
      await store.replaceSession(s, "h", recs);
      const hits = await store.searchDense(s.namespace, recs[10]!.embedding, 5000);
      assert.equal(hits.length, 4200);
      assert.equal(hits[0]?.id, recs[10]!.unit.id);
      for (let i = 1; i < hits.length; i++) assert.ok(hits[i - 1]!.score >= hits[i]!.score);
      assert.equal((await store.searchDense(s.namespace, recs[10]!.embedding, 4096)).length, 4096);
    } finally {
      await store.close();
    }
  });

  it("quotes every term for FTS5", () => {
    assert.equal(toFtsQuery(["volcano", 'say "hi"', " ", "AND"]), '"volcano" OR "say ""hi""" OR "AND"');
    assert.equal(toFtsQuery([]), null);
  });
});
