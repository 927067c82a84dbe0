import { it } from "node:test";
import assert from "node:assert/strict";
import pg from "pg";
import { RamemError } from "../../model/errors.js";
import { runStoreContractSuite } from "../contract-suite.js";
import type { MemoryStore, UnitRecord } from "../contract.js";
import type { Session } from "../../model/conversation.js";
import { TEST_DIMS, TEST_EMBEDDER, cosine, makeRecord, makeRecords, makeSession, seededVector } from "../testing/make-unit.js";
import type { DenseSearchInfo } from "./dense-search.js";
import { openPostgresStore, type PostgresStoreOptions } from "./postgres-store.js";
import { describeWithPostgres, uniqueSchema } from "./testing/postgres-test-target.js";
import { SCHEMA_VERSION } from "./schema.js";
import { Memory } from "../../memory.js";
import { createHashEmbedder } from "../../providers/hash-embedder.js";
import { createBm25Lexical } from "./lexical/bm25-lexical.js";
import { createTsRankLexical } from "./lexical/ts-rank-lexical.js";
import { seededRandom } from "../../util/seeded-random.js";

const isCode = (code: string) => (e: unknown) => {
  assert.ok(e instanceof RamemError, `expected RamemError, got ${String(e)}`);
  assert.equal(e.code, code);
  return true;
};

describeWithPostgres("postgres store", (url) => {
  const fresh = (o: PostgresStoreOptions = {}) => openPostgresStore(url, { schema: uniqueSchema(), dropSchemaOnClose: true, maxConnections: 2, ...o });

  runStoreContractSuite("postgres", () => fresh(), { openApproximate: () => fresh({ exactSearchMaxUnits: 0 }) });
  // The same suite with every dense search forced through the HNSW path (its guards included).
  runStoreContractSuite("postgres (HNSW path)", () => fresh({ exactSearchMaxUnits: 0 }));
  // Both lexical channels honour the contract.
  runStoreContractSuite("postgres (ts_rank_cd lexical)", () => fresh({ lexical: createTsRankLexical() }));
  runStoreContractSuite("postgres (BM25 lexical)", () => fresh({ lexical: createBm25Lexical() }));

  async function withStore(fn: (store: MemoryStore) => Promise<void>, o: PostgresStoreOptions = {}): Promise<void> {
    const store = await fresh(o);
    try {
      await store.bindEmbedder(TEST_EMBEDDER, TEST_DIMS);
      await fn(store);
    } finally {
      await store.close();
    }
  }

  it("scrubDeleted: without vacuum says what remains; with vacuum rewrites every table's files (new relfilenode) without the deleted rows", async () => {
    const schema = uniqueSchema();
    await withStore(async (store) => {
      const s = makeSession();
      await store.replaceSession(s, "h", makeRecords(s, 3));
      await store.deleteSession(s.namespace, s.id);
      const plain = await store.scrubDeleted();
      assert.equal(plain.complete, false);
      assert.match(plain.note ?? "", /until VACUUM.*--purge/);
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      try {
        const files = async () =>
          (await c.query<{ t: string; f: string }>(`SELECT t, pg_relation_filenode(('"${schema}".' || t)::regclass)::text AS f FROM unnest(ARRAY['units','sessions','unit_terms','namespace_terms','unit_vectors','namespace_sessions_version','namespace_version','unit_history']) t`)).rows;
        const before = await files();
        const purged = await store.scrubDeleted({ vacuum: true });
        assert.deepEqual(purged.steps.sort(), ["vacuum full namespace_sessions_version", "vacuum full namespace_terms", "vacuum full namespace_version", "vacuum full sessions", "vacuum full unit_history", "vacuum full unit_terms", "vacuum full unit_vectors", "vacuum full units"]);
        const after = await files();
        for (const b of before) assert.notEqual(after.find((a) => a.t === b.t)?.f, b.f, `${b.t} was not rewritten`);
        const dead = await c.query<{ n: string }>(`SELECT count(*)::text AS n FROM "${schema}".units`);
        assert.equal(dead.rows[0]?.n, "0");
      } finally {
        await c.end();
      }
    }, { schema });
  });

  it("shows its location without the password, and honours ?schema=", async () => {
    const schema = uniqueSchema();
    const withSecret = new URL(url);
    withSecret.searchParams.set("schema", schema);
    const store = await openPostgresStore(withSecret.toString(), { dropSchemaOnClose: true });
    try {
      assert.equal(store.dialect, "postgres");
      const password = new URL(url).password;
      if (password) assert.ok(!store.location.includes(`:${password}@`), store.location);
      assert.ok(store.location.includes("***"), store.location);
      assert.ok(store.location.includes(schema), store.location);
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      try {
        const r = await c.query("SELECT value FROM " + `"${schema}"` + ".meta WHERE key = 'schema_version'");
        assert.equal(r.rows[0]?.value, String(SCHEMA_VERSION));
        // Migration 10 dropped the index no statement read.
        const entitiesIndex = await c.query("SELECT to_regclass($1) AS oid", [`"${schema}".units_ns_entities`]);
        assert.equal(entitiesIndex.rows[0]?.oid, null);
      } finally {
        await c.end();
      }
    } finally {
      await store.close();
    }
  });

  it("refuses a schema name that is not a plain identifier", async () => {
    await assert.rejects(openPostgresStore(url, { schema: 'x"; DROP TABLE units; --' }), isCode("BAD_STORE_URL"));
    const bad = new URL(url);
    bad.searchParams.set("schema", "Robert'); --");
    await assert.rejects(openPostgresStore(bad.toString()), isCode("BAD_STORE_URL"));
  });

  it("reports an unreachable server with a hint, never the password", async () => {
    const dead = new URL(url);
    dead.hostname = "127.0.0.1";
    dead.port = "1";
    dead.password = "s3cret-pw";
    await assert.rejects(openPostgresStore(dead.toString(), { connectTimeoutMs: 2000 }), (e: unknown) => {
      isCode("STORE_UNREACHABLE")(e);
      const err = e as RamemError;
      assert.match(err.hint ?? "", /postgres-test-server\.sh start/);
      assert.ok(!`${err.message} ${err.where} ${err.hint}`.includes("s3cret-pw"));
      return true;
    });
  });

  it("says which extension a superuser must create when the database lacks pgvector", async (t) => {
    const db = uniqueSchema("nodb");
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      // template0 has no extensions; the test role is not a superuser, so it cannot create vector itself.
      await admin.query(`CREATE DATABASE ${db} TEMPLATE template0`);
      const target = new URL(url);
      target.pathname = `/${db}`;
      const su = await admin.query<{ rolsuper: boolean }>("SELECT rolsuper FROM pg_roles WHERE rolname = current_user");
      if (su.rows[0]?.rolsuper) {
        t.skip("the test role is a superuser: it creates the extensions itself, so nothing is refused");
        return;
      }
      await assert.rejects(openPostgresStore(target.toString()), (e: unknown) => {
        isCode("STORE_OPEN_FAILED")(e);
        assert.match((e as RamemError).hint ?? "", /CREATE EXTENSION vector/);
        return true;
      });
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${db}`);
      await admin.end();
    }
  });

  it("keeps data across handles and reopen; a second handle sees the binding", async () => {
    const schema = uniqueSchema();
    const a = await openPostgresStore(url, { schema });
    const b = await openPostgresStore(url, { schema, dropSchemaOnClose: true });
    try {
      await a.bindEmbedder(TEST_EMBEDDER, TEST_DIMS);
      await assert.rejects(b.bindEmbedder("other@1", 4), isCode("EMBEDDER_MISMATCH"));
      const s1 = makeSession({ id: "s1" });
      const recs = makeRecords(s1, 3);
      await a.replaceSession(s1, "h1", recs);
      await a.close();
      const again = await openPostgresStore(url, { schema });
      try {
        assert.deepEqual((await again.getUnits(s1.namespace, recs.map((r) => r.unit.id))).map(({ createdAt: _c, updatedAt: _u, ...u }) => u), recs.map((r) => r.unit));
        assert.equal((await again.searchDense(s1.namespace, recs[1]!.embedding, 1))[0]?.id, recs[1]!.unit.id);
      } finally {
        await again.close();
      }
      assert.equal((await b.searchLexical(s1.namespace, ["ordinary"], 10)).length, 3);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("refuses a schema written by a newer ramem", async () => {
    const schema = uniqueSchema();
    await (await openPostgresStore(url, { schema })).close();
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      await c.query(`UPDATE "${schema}".meta SET value = '99' WHERE key = 'schema_version'`);
      await assert.rejects(openPostgresStore(url, { schema }), isCode("SCHEMA_TOO_NEW"));
    } finally {
      await c.query(`DROP SCHEMA "${schema}" CASCADE`);
      await c.end();
    }
  });

  it("migrates once when several processes open a fresh schema at the same moment", async () => {
    const schema = uniqueSchema();
    const stores = await Promise.all(Array.from({ length: 5 }, () => openPostgresStore(url, { schema, maxConnections: 1 })));
    try {
      await Promise.all(stores.map((s) => s.bindEmbedder(TEST_EMBEDDER, TEST_DIMS)));
      assert.equal((await stores[4]!.stats()).embedder, TEST_EMBEDDER);
    } finally {
      for (const [i, s] of stores.entries()) {
        if (i === stores.length - 1) await s.bindEmbedder(TEST_EMBEDDER, TEST_DIMS);
        await s.close();
      }
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`DROP SCHEMA "${schema}" CASCADE`);
      await c.end();
    }
  });

  it("filtered top-K is complete when the namespace is a small fraction of the table", async () => {
    const seen: DenseSearchInfo[] = [];
    const schema = uniqueSchema();
    // exactSearchMaxUnits 0 + forceHnswIndex: every search is answered by the HNSW
    // index, as for a namespace too large for the exact scan.
    const store = await openPostgresStore(url, {
      schema,
      dropSchemaOnClose: true,
      exactSearchMaxUnits: 0,
      forceHnswIndex: true,
      onDenseSearch: (i) => seen.push(i),
    });
    const raw = new pg.Client({ connectionString: url, options: `-c search_path=${schema},public` });
    try {
      await store.bindEmbedder(TEST_EMBEDDER, TEST_DIMS);
      for (let n = 0; n < 40; n++) {
        const s = makeSession({ namespace: `crowd-${n}`, id: "s" });
        await store.replaceSession(s, "h", Array.from({ length: 60 }, (_, i) => makeRecord(s, i, { embedding: seededVector(`crowd${n}/${i}`) })));
      }
      const target = makeSession({ namespace: "target", id: "s" });
      const targetRecs: UnitRecord[] = Array.from({ length: 25 }, (_, i) => makeRecord(target, i, { embedding: seededVector(`target/${i}`) }));
      await store.replaceSession(target, "h", targetRecs);
      // 25 of 2,425 units (1 %) belong to the target namespace.
      await raw.connect();
      let plainShort = 0;
      for (let q = 0; q < 12; q++) {
        const query = seededVector(`query/${q}`);
        // The problem being guarded against: a plain filtered HNSW scan (no iterative scan).
        await raw.query("BEGIN");
        await raw.query("SET LOCAL hnsw.iterative_scan = off; SET LOCAL enable_sort = off; SET LOCAL enable_bitmapscan = off; SET LOCAL enable_seqscan = off");
        const plain = await raw.query("SELECT unit_id FROM unit_vectors WHERE namespace = 'target' AND NOT repeats ORDER BY embedding <=> $1::vector LIMIT 10", [
          `[${Array.from(query).join(",")}]`,
        ]);
        await raw.query("COMMIT");
        if ((plain.rowCount ?? 0) < 10) plainShort++;

        const exact = targetRecs.map((r) => ({ id: r.unit.id, sim: cosine(query, r.embedding) })).sort((a, b) => b.sim - a.sim);
        for (const k of [5, 10, 25, 40]) {
          const hits = await store.searchDense("target", query, k);
          assert.equal(hits.length, Math.min(k, targetRecs.length), `k=${k}`);
          assert.deepEqual(
            hits.map((h) => h.id),
            exact.slice(0, k).map((e) => e.id),
          );
          hits.forEach((h, i) => assert.ok(Math.abs(h.score - exact[i]!.sim) < 1e-4));
        }
      }
      assert.ok(plainShort > 0, "the setup reproduces short filtered HNSW results");
      assert.equal(seen.length, 48);
      // The iterative scan alone made them complete: the exact fallback was not needed.
      assert.deepEqual(new Set(seen.map((s) => s.path)), new Set(["hnsw"]));
    } finally {
      await raw.end().catch(() => {});
      await store.close();
    }
  });

  it("searches small namespaces exactly and large ones through HNSW", async () => {
    const seen: DenseSearchInfo[] = [];
    await withStore(
      async (store) => {
        const small = makeSession({ namespace: "small" });
        const big = makeSession({ namespace: "big" });
        await store.replaceSession(small, "h", makeRecords(small, 5));
        await store.replaceSession(big, "h", makeRecords(big, 30));
        await store.searchDense("small", seededVector("q"), 3);
        await store.searchDense("big", seededVector("q"), 3);
        assert.deepEqual(
          seen.map((s) => [s.path === "exact" ? "exact" : "hnsw", s.namespaceUnits]),
          [
            ["exact", 5],
            // Counted up to one past the threshold (10): all the choice of path needs.
            ["hnsw", 11],
          ],
        );
      },
      { exactSearchMaxUnits: 10, onDenseSearch: (i) => seen.push(i) },
    );
  });

  it("listSessions keeps its answer until the namespace's sessions change, from any handle; what it returns is the caller's to change", async () => {
    const schema = uniqueSchema();
    const a = await openPostgresStore(url, { schema, maxConnections: 2 });
    const b = await openPostgresStore(url, { schema, maxConnections: 2 });
    const raw = new pg.Client({ connectionString: url, options: `-c search_path=${schema},public` });
    await raw.connect();
    try {
      await a.bindEmbedder(TEST_EMBEDDER, TEST_DIMS);
      const s1 = makeSession({ id: "s1" });
      await a.replaceSession(s1, "h1", makeRecords(s1, 3));
      const first = await a.listSessions("ns-a");
      assert.deepEqual(first.map((s) => [s.id, s.unitCount]), [["s1", 3]]);
      first[0]!.participants.push("Mallory");
      first.pop();
      assert.deepEqual((await a.listSessions("ns-a"))[0]!.participants, s1.participants, "a caller's changes stay the caller's");
      // Writes through another handle (another process) move the version: each is seen at once.
      const s2 = makeSession({ id: "s2", startTime: "2023-06-01T10:00:00.000Z", endTime: "2023-06-01T11:00:00.000Z" });
      await b.replaceSession(s2, "h2", makeRecords(s2, 2));
      assert.deepEqual((await a.listSessions("ns-a")).map((s) => s.id).sort(), ["s1", "s2"]);
      const [unit] = await b.listUnits("ns-a", { sessionId: "s1" });
      await b.deleteUnit("ns-a", unit!.id);
      assert.equal((await a.listSessions("ns-a")).find((s) => s.id === "s1")!.unitCount, 2, "a unit count changed by a delete");
      await b.appendUnits(s2, "h3", [makeRecord(s2, 9)], { expectedHash: "h2" });
      assert.equal((await a.listSessions("ns-a")).find((s) => s.id === "s2")!.contentHash, "h3");
      await b.deleteNamespace("ns-a");
      assert.deepEqual(await a.listSessions("ns-a"), []);
      assert.equal((await raw.query("SELECT 1 FROM namespace_sessions_version WHERE namespace = 'ns-a'")).rowCount, 0, "a forgotten namespace leaves no row");
      assert.equal((await raw.query("SELECT 1 FROM namespace_version WHERE namespace = 'ns-a'")).rowCount, 0, "nor a namespace version");
      await b.replaceSession(s1, "h4", makeRecords(s1, 1));
      assert.deepEqual((await a.listSessions("ns-a")).map((s) => [s.id, s.contentHash]), [["s1", "h4"]]);
    } finally {
      await raw.end();
      await b.close();
      await closeAndDrop([a], schema);
    }
  });

  it("drops the HNSW index for a bulk load and builds it again in one go; dense search stays complete (exact) meanwhile", async () => {
    const schema = uniqueSchema();
    const store = await openPostgresStore(url, { schema, dropSchemaOnClose: true, maxConnections: 2, exactSearchMaxUnits: 0 });
    const raw = new pg.Client({ connectionString: url, options: `-c search_path=${schema},public` });
    await raw.connect();
    const index = async () => (await raw.query<{ valid: boolean }>("SELECT indisvalid AS valid FROM pg_index WHERE indexrelid = to_regclass('unit_vectors_hnsw')")).rows[0]?.valid;
    try {
      assert.equal((await store.rebuildDenseIndex()).action, "none", "no embedder bound: no vectors, no index");
      await store.bindEmbedder(TEST_EMBEDDER, TEST_DIMS);
      assert.equal(await index(), true);
      assert.equal(await store.dropDenseIndex(), true);
      assert.equal(await index(), undefined);
      assert.equal(await store.dropDenseIndex(), false);
      const s = makeSession();
      const records = makeRecords(s, 40);
      await store.replaceSession(s, "h", records);
      const q = seededVector("query");
      const exact = records.map((r) => ({ id: r.unit.id, score: cosine(q, r.embedding) })).sort((a, b) => b.score - a.score).slice(0, 10).map((h) => h.id);
      assert.deepEqual((await store.searchDense("ns-a", q, 10)).map((h) => h.id), exact, "without the index the scan is exact");
      const created = await store.rebuildDenseIndex({ maintenanceWorkMem: "64MB" });
      assert.equal(created.action, "created");
      assert.equal(created.vectors, 40);
      assert.equal(created.maintenanceWorkMem, "64MB");
      assert.equal(await index(), true);
      // No size given: 40 vectors need less than the server's setting, which the build then keeps.
      const server = (await raw.query<{ mb: string }>("SELECT (pg_size_bytes(current_setting('maintenance_work_mem')) / 1048576)::text AS mb")).rows[0]!.mb;
      const rebuilt = await store.rebuildDenseIndex();
      assert.equal(rebuilt.action, "rebuilt");
      assert.equal(rebuilt.maintenanceWorkMem, `${server}MB`);
      assert.equal(rebuilt.note, undefined);
      assert.equal(rebuilt.parallelWorkers, 0, "serial unless asked");
      const parallel = await store.rebuildDenseIndex({ parallelWorkers: 1 });
      assert.equal(parallel.parallelWorkers, 1);
      assert.equal(await index(), true);
      for (const bad of [-1, 1.5, "2", Number.NaN, null]) {
        await assert.rejects(store.rebuildDenseIndex({ parallelWorkers: bad as never }), (err: RamemError) => err.code === "BAD_OPTION" && err.where === "parallelWorkers" && /0 builds serially/.test(err.hint ?? ""), String(bad));
      }
      assert.equal(await index(), true, "a refused option leaves the index as it was");
      // A writer's open transaction holds the concurrent build in a waiting phase: the progress reads report it.
      await raw.query("BEGIN");
      await raw.query("UPDATE unit_vectors SET repeats = repeats WHERE unit_id = $1", [records[0]!.unit.id]);
      const phases: string[] = [];
      const watched = store.rebuildDenseIndex({ progressEveryMs: 20, onProgress: (_done, _total, phase) => phases.push(phase) });
      await new Promise((resolve) => setTimeout(resolve, 400));
      await raw.query("COMMIT");
      assert.equal((await watched).action, "rebuilt");
      assert.ok(phases.some((p) => /waiting/.test(p)), phases.join("; "));
      assert.equal(await index(), true);
      assert.equal((await store.searchDense("ns-a", q, 10)).length, 10);
    } finally {
      await raw.end();
      await store.close();
    }
  });

  /** Closes handles sharing one schema (not dropping it on close), drops the schema, then closes the last. */
  async function closeAndDrop(handles: MemoryStore[], schema: string): Promise<void> {
    for (const h of handles.slice(1)) await h.close();
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query(`DROP SCHEMA "${schema}" CASCADE`);
    await c.end();
    await handles[0]!.close();
  }

  it("concurrent ingest from several connections neither loses nor duplicates units", async () => {
    const schema = uniqueSchema();
    const writers = await Promise.all(Array.from({ length: 4 }, () => openPostgresStore(url, { schema, maxConnections: 2 })));
    try {
      await writers[0]!.bindEmbedder(TEST_EMBEDDER, TEST_DIMS);
      const sessions = Array.from({ length: 12 }, (_, i) =>
        makeSession({ namespace: "shared", id: `s${i}`, startTime: new Date(Date.UTC(2023, 0, 1 + i)).toISOString() }),
      );
      // Every writer ingests every session (overlapping), each in its own order, twice.
      await Promise.all(
        writers.map(async (w, wi) => {
          for (let round = 0; round < 2; round++) {
            const order = sessions.map((_, i) => (i * (wi + 1) + round) % sessions.length);
            for (const i of new Set(order)) await w.replaceSession(sessions[i]!, `h${i}`, makeRecords(sessions[i]!, 3 + (i % 4)));
            for (const [i, s] of sessions.entries()) if (!order.includes(i)) await w.replaceSession(s, `h${i}`, makeRecords(s, 3 + (i % 4)));
          }
        }),
      );
      const expected = sessions.reduce((n, _, i) => n + 3 + (i % 4), 0);
      const reader = writers[0]!;
      const st = await reader.stats("shared");
      assert.equal(st.sessions, 12);
      assert.equal(st.units, expected);
      const units = await reader.listUnits("shared");
      assert.equal(units.length, expected);
      assert.equal(new Set(units.map((u) => u.id)).size, expected);
      for (const [i, s] of sessions.entries()) assert.equal((await reader.getSession("shared", s.id))?.unitCount, 3 + (i % 4));
      assert.equal((await reader.searchDense("shared", seededVector("q"), 1000)).length, expected);
      assert.equal((await reader.searchLexical("shared", ["ordinary"], 1000)).length, expected);
    } finally {
      await closeAndDrop(writers, schema);
    }
  });

  it("appends to one session from several connections (processes, each with its own lock) lose no turn", async () => {
    const schema = uniqueSchema();
    const stores = await Promise.all(Array.from({ length: 3 }, () => openPostgresStore(url, { schema, maxConnections: 2 })));
    const memories = stores.map((store) => new Memory({ store, embedder: createHashEmbedder() }));
    try {
      const calls = Array.from({ length: 15 }, (_, i) =>
        memories[i % 3]!.appendTurns({ namespace: "race", sessionId: "r", turns: [{ speaker: "Ann", text: `Line number ${i}.` }], startTime: "2023-01-01T10:00:00Z" }),
      );
      const reports = await Promise.all(calls);
      assert.equal(reports.filter((r) => r.created).length, 1);
      const units = await stores[0]!.listUnits("race", { sessionId: "r" });
      assert.equal(units.length, 15);
      assert.equal(new Set(units.flatMap((u) => u.provenance.turnIds)).size, 15);
      assert.equal((await stores[0]!.getSession("race", "r"))?.unitCount, 15);
    } finally {
      await closeAndDrop(stores, schema);
    }
  });

  it("refuses text with NUL characters before writing anything", async () => {
    await withStore(async (store) => {
      const s = makeSession();
      await assert.rejects(store.replaceSession(s, "h", [makeRecord(s, 0, { content: "bad \u0000 byte" })]), isCode("INVALID_UNIT"));
      assert.equal(await store.getSession(s.namespace, s.id), null);
      await store.replaceSession(s, "h", makeRecords(s, 1));
      assert.deepEqual(await store.searchLexical(s.namespace, ["ordinary\u0000"], 5).then((h) => h.length), 1);
    });
  });

  it("treats tsquery operators in terms as plain words", async () => {
    await withStore(async (store) => {
      const s = makeSession();
      const recs = [
        makeRecord(s, 0, { content: "Melanie went on a volcano hike." }),
        makeRecord(s, 1, { content: "Caroline painted a lake at dawn." }),
      ];
      await store.replaceSession(s, "h", recs);
      for (const t of ["volcano:*", "!lake", "volcano & lake", "'volcano'", "volcano' | 'lake", "\\", "<->", "volc*"]) {
        const hits = await store.searchLexical(s.namespace, [t], 10);
        for (const h of hits) assert.ok(recs.some((r) => r.unit.id === h.id));
      }
      // "!lake" is the word lake, not "everything without lake".
      assert.deepEqual(
        (await store.searchLexical(s.namespace, ["!lake"], 10)).map((h) => h.id),
        [recs[1]!.unit.id],
      );
      assert.deepEqual(await store.searchLexical(s.namespace, ["volc*"], 10), []);
    });
  });

  it("namespace_stats (BM25's N and average length) and namespace_terms (its n) stay equal to the namespace's units and postings through every kind of write", async () => {
    const schema = uniqueSchema();
    const store = await openPostgresStore(url, { schema, dropSchemaOnClose: true, maxConnections: 2 });
    const raw = new pg.Client({ connectionString: url, options: `-c search_path=${schema},public` });
    await raw.connect();
    const check = async () => {
      const { rows } = await raw.query<{ same: boolean }>(
        `SELECT coalesce((SELECT units FROM namespace_stats WHERE namespace = 'ns-a'), 0) = (SELECT count(*) FROM units WHERE namespace = 'ns-a')
            AND coalesce((SELECT doc_len_sum FROM namespace_stats WHERE namespace = 'ns-a'), 0) = (SELECT coalesce(sum(doc_len), 0) FROM units WHERE namespace = 'ns-a') AS same`,
      );
      assert.equal(rows[0]!.same, true);
      // namespace_terms (schema 6): each lexeme's document count, no row without postings; every posting carries its unit's doc_len.
      const terms = await raw.query<{ n: string }>(
        `SELECT count(*)::text AS n FROM namespace_terms nt FULL JOIN (SELECT namespace, lexeme, count(*) AS docs FROM unit_terms GROUP BY namespace, lexeme) p
           USING (namespace, lexeme) WHERE nt.docs IS DISTINCT FROM p.docs`,
      );
      assert.equal(terms.rows[0]!.n, "0", "namespace_terms differs from the postings");
      const lengths = await raw.query<{ n: string }>("SELECT count(*)::text AS n FROM unit_terms p JOIN units u ON u.namespace = p.namespace AND u.id = p.unit_id WHERE p.doc_len <> u.doc_len");
      assert.equal(lengths.rows[0]!.n, "0", "a posting's doc_len differs from its unit's");
      // Schema 7: no foreign keys; the units delete trigger removes a unit's postings and vector, and every unit has its own.
      for (const table of ["unit_terms", "unit_vectors"]) {
        const orphans = await raw.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${table} p WHERE NOT EXISTS (SELECT 1 FROM units u WHERE u.namespace = p.namespace AND u.id = p.unit_id)`);
        assert.equal(orphans.rows[0]!.n, "0", `${table} rows outlived their unit`);
      }
      const vectors = await raw.query<{ same: boolean }>("SELECT (SELECT count(*) FROM unit_vectors) = (SELECT count(*) FROM units) AS same");
      assert.equal(vectors.rows[0]!.same, true, "a unit without its vector");
      const bare = await raw.query<{ n: string }>("SELECT count(*)::text AS n FROM units u WHERE u.doc_len > 0 AND NOT EXISTS (SELECT 1 FROM unit_terms p WHERE p.namespace = u.namespace AND p.unit_id = u.id)");
      assert.equal(bare.rows[0]!.n, "0", "a unit without postings");
    };
    try {
      await store.bindEmbedder(TEST_EMBEDDER, TEST_DIMS);
      const s = makeSession();
      await store.replaceSession(s, "h1", makeRecords(s, 5));
      await check();
      await store.replaceSession(s, "h2", makeRecords(s, 3));
      await check();
      await store.appendUnits(s, "h3", [makeRecord(s, 7, { content: "a much longer turn about volcano hikes at dawn with friends" })], { expectedHash: "h2" });
      await check();
      const [first] = await store.listUnits("ns-a");
      await store.updateUnits("ns-a", s.id, "h4", [{ unit: { ...first!, content: "short" }, embedding: seededVector("x") }], { expectedHash: "h3" });
      await check();
      await store.deleteUnit("ns-a", first!.id);
      await check();
      await store.deleteSession("ns-a", s.id);
      await check();
      await store.replaceSession(s, "h5", makeRecords(s, 2));
      const other = makeSession({ namespace: "ns-b" });
      await store.replaceSession(other, "hb", makeRecords(other, 3));
      await store.deleteNamespace("ns-a");
      await check();
      const left = await raw.query<{ n: string }>("SELECT count(*)::text AS n FROM namespace_terms WHERE namespace = 'ns-a'");
      assert.equal(left.rows[0]!.n, "0", "a forgotten namespace leaves no words in namespace_terms");
    } finally {
      await raw.end();
      await store.close();
    }
  });

  it("leaves out a term in half of a large namespace's units (bm25 weighs it 1e-6): the same hits and scores as the query without it", async () => {
    const pruning = createBm25Lexical({ pruneMinUnits: 1 });
    await withStore(async (store) => {
      const s = makeSession();
      const words = ["volcano", "harbour", "violin", "glacier", "pottery"];
      await store.replaceSession(s, "h", Array.from({ length: 30 }, (_, i) => makeRecord(s, i, { content: `Ana: ${words[i % 5]} ${i % 3 ? words[(i + 2) % 5] : ""} ${i % 7 ? "" : words[(i + 1) % 5]}` })));
      const pruned = await store.searchLexical("ns-a", ["ana", "glacier", "violin"], 50);
      const without = await store.searchLexical("ns-a", ["glacier", "violin"], 50);
      assert.ok(pruned.length > 0 && pruned.length < 30, `${pruned.length} hits`);
      assert.deepEqual(pruned, without);
      // All terms that common: the query stays whole.
      assert.equal((await store.searchLexical("ns-a", ["ana"], 50)).length, 30);
    }, { lexical: pruning });
    await withStore(async (store) => {
      const s = makeSession();
      await store.replaceSession(s, "h", Array.from({ length: 30 }, (_, i) => makeRecord(s, i, { content: `Ana: ${i % 2 ? "glacier" : "harbour"}` })));
      // Below the threshold (the default, 5,000 units) every term counts: units only "ana" matched are hits.
      assert.equal((await store.searchLexical("ns-a", ["ana", "glacier"], 50)).length, 30);
    });
  });

  it("namespaceVersion moves with another handle's write, and a correction's (units alone), not with another namespace's", async () => {
    const schema = uniqueSchema();
    const store = await openPostgresStore(url, { schema, dropSchemaOnClose: true, maxConnections: 2 });
    const other = await openPostgresStore(url, { schema, maxConnections: 1 });
    try {
      await store.bindEmbedder(TEST_EMBEDDER, TEST_DIMS);
      const s = makeSession();
      await store.replaceSession(s, "h", makeRecords(s, 2));
      const version = await store.namespaceVersion!("ns-a");
      const b = makeSession({ namespace: "ns-b" });
      await other.replaceSession(b, "hb", makeRecords(b, 2));
      assert.equal(await store.namespaceVersion!("ns-a"), version, "another namespace's write");
      const [first] = await other.listUnits("ns-a");
      await other.updateUnits("ns-a", s.id, "h2", [{ unit: { ...first!, content: "corrected" }, embedding: seededVector("c") }], { expectedHash: "h" });
      assert.notEqual(await store.namespaceVersion!("ns-a"), version, "another handle's correction");
    } finally {
      await other.close();
      await store.close();
    }
  });

  it("BM25 pruned (all terms first, MaxScore probing or joining): the same hits and scores as every posting summed", async () => {
    // Words of falling frequency (a Zipf-like mix), repeated in some units and in cues, units of varying length:
    // the common words' postings are left to probes once the rare ones have found `limit` units.
    const rnd = seededRandom(7);
    const vocabulary = Array.from({ length: 40 }, (_, i) => `w${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}x`);
    const word = () => vocabulary[Math.floor(vocabulary.length * rnd() ** 2.2)]!;
    const text = (n: number) => Array.from({ length: n }, word).join(" ");
    const pairs = Array.from({ length: 12 }, (_, i) => [vocabulary[8 + i]!, vocabulary[20 + ((i * 7) % 20)]!]);
    const schema = uniqueSchema();
    const complete = await openPostgresStore(url, { schema, maxConnections: 2, lexical: createBm25Lexical({ pruning: "none" }) });
    try {
      await complete.bindEmbedder(TEST_EMBEDDER, TEST_DIMS);
      for (let si = 0; si < 6; si++) {
        const s = makeSession({ id: `s${si}`, startTime: `2023-05-0${si + 1}T13:00:00Z` });
        // Units of one session share their start: the ties are ordered by session id and seq.
        // Every fifth unit holds a pair of words twice, the queries' best: the case where only units holding every term can win.
        const planted = (i: number) => (i % 5 ? "" : `${pairs[(si * 10 + i / 5) % pairs.length]!.join(" ")} `.repeat(2));
        await complete.replaceSession(s, `h${si}`, Array.from({ length: 50 }, (_, i) => makeRecord(s, i, { content: planted(i) + text(4 + Math.floor(rnd() * 10)), cue: rnd() < 0.3 ? text(2) : "" })));
      }
      const raw = new pg.Client({ connectionString: url, options: `-c search_path=${schema},public` });
      await raw.connect();
      await raw.query("ANALYZE").finally(() => raw.end());
      const queries = [...Array.from({ length: 40 }, (_, i) => Array.from({ length: 2 + (i % 4) }, word)), ...pairs, ...pairs.map((p) => [...p, word()])];
      queries.push(["wbax", "waax", "no-such-word"], ["waax", "waax"], ["zzz", "yyy"]);
      const configurations: Array<{ pruning: "all-terms" | "max-score"; probeRatio?: number }> = [
        { pruning: "all-terms" },
        // Every candidate's postings joined, probed one by one, and the default choice between the two.
        ...[0, 1e9, undefined].map((probeRatio) => ({ pruning: "max-score" as const, ...(probeRatio === undefined ? {} : { probeRatio }) })),
      ];
      for (const configuration of configurations) {
        let pruned = 0;
        let searches = 0;
        const maxScore = await openPostgresStore(url, {
          schema, maxConnections: 2,
          lexical: createBm25Lexical({
            ...configuration,
            onSearch: (info) => {
              searches++;
              if (info.path === "all-terms" || (info.postingsRead ?? Infinity) < (info.postingsAll ?? 0)) pruned++;
            },
          }),
        });
        try {
          for (const words of queries) {
            for (const limit of [1, 3, 10, 100]) {
              const got = await maxScore.searchLexical("ns-a", words, limit);
              const want = await complete.searchLexical("ns-a", words, limit);
              const what = `${words.join(" ")} limit ${limit} ${JSON.stringify(configuration)}`;
              assert.deepEqual(got.map((h) => [h.id, h.rank]), want.map((h) => [h.id, h.rank]), what);
              // To the last bit where both add a unit's parts in term order (as the complete statement does when it
              // reads postings term by term, its plan on analyzed tables); 1e-12 allows for a plan that does not.
              got.forEach((h, i) => assert.ok(Math.abs(h.score - want[i]!.score) <= 1e-12 * want[i]!.score, `${what}: ${h.score} vs ${want[i]!.score}`));
            }
          }
        } finally {
          await maxScore.close();
        }
        // The fixture is one where each way leaves postings unsummed (all-terms: only for the planted pairs at small limits).
        const least = configuration.pruning === "all-terms" ? 10 : searches / 4;
        assert.ok(searches > 100 && pruned >= least, `${JSON.stringify(configuration)}: ${pruned} of ${searches} searches pruned`);
      }
    } finally {
      await complete.close();
      const raw = new pg.Client({ connectionString: url });
      await raw.connect();
      await raw.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).finally(() => raw.end());
    }
  });

});
