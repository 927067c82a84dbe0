// The PostgreSQL store's migrations from older schemas, apart from postgres-store.test.ts (one file per concern).
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

/** Undoes migration 8: the postings' key without its included columns, no term maxima, no namespace version. */
const BACK_TO_SCHEMA_7 = `DROP TRIGGER units_version_insert ON units; DROP TRIGGER units_version_update ON units; DROP TRIGGER units_version_delete ON units;
  DROP TRIGGER sessions_namespace_version_insert ON sessions; DROP TRIGGER sessions_namespace_version_update ON sessions; DROP TRIGGER sessions_namespace_version_delete ON sessions;
  DROP FUNCTION ramem_namespace_changed(); DROP TABLE namespace_version; DROP SEQUENCE namespace_version_seq;
  CREATE OR REPLACE FUNCTION ramem_terms_add() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $fn$
  BEGIN
    INSERT INTO namespace_terms AS t (namespace, lexeme, docs) SELECT namespace, lexeme, count(*) FROM added GROUP BY namespace, lexeme
    ON CONFLICT (namespace, lexeme) DO UPDATE SET docs = t.docs + excluded.docs;
    RETURN NULL;
  END $fn$;
  ALTER TABLE namespace_terms DROP COLUMN max_tf_content, DROP COLUMN max_tf_cue, DROP COLUMN min_doc_len;
  ALTER TABLE unit_terms DROP CONSTRAINT unit_terms_pkey, ADD CONSTRAINT unit_terms_pkey PRIMARY KEY (namespace, lexeme, unit_id);
  UPDATE meta SET value = '7' WHERE key = 'schema_version';`;

/** Undoes migrations 8 and 7: the postings' and vectors' foreign keys back, the units delete trigger and the sessions version gone. */
const BACK_TO_SCHEMA_6 = `${BACK_TO_SCHEMA_7} DROP TRIGGER units_rows_delete ON units; DROP FUNCTION ramem_unit_rows_remove();
  DROP TRIGGER sessions_version_insert ON sessions; DROP TRIGGER sessions_version_update ON sessions; DROP TRIGGER sessions_version_delete ON sessions;
  DROP FUNCTION ramem_sessions_changed(); DROP TABLE namespace_sessions_version; DROP SEQUENCE namespace_sessions_version_seq;
  ALTER TABLE unit_terms ADD CONSTRAINT unit_terms_namespace_unit_id_fkey FOREIGN KEY (namespace, unit_id) REFERENCES units (namespace, id) ON DELETE CASCADE;
  ALTER TABLE unit_vectors ADD CONSTRAINT unit_vectors_namespace_unit_id_fkey FOREIGN KEY (namespace, unit_id) REFERENCES units (namespace, id) ON DELETE CASCADE;
  UPDATE meta SET value = '6' WHERE key = 'schema_version'`;

/** Undoes migration 11: every vector in the HNSW graph, no repeats column, value index or triggers. */
const BACK_TO_SCHEMA_10 = `DROP TRIGGER unit_vectors_repeats ON unit_vectors; DROP TRIGGER unit_vectors_firsts ON unit_vectors; DROP TRIGGER unit_vectors_unchanged ON unit_vectors;
  DROP FUNCTION ramem_vector_repeats(); DROP FUNCTION ramem_vector_firsts(); DROP FUNCTION ramem_vector_unchanged();
  DROP INDEX unit_vectors_ns_value; DROP INDEX unit_vectors_hnsw; ALTER TABLE unit_vectors DROP COLUMN repeats;
  CREATE INDEX unit_vectors_hnsw ON unit_vectors USING hnsw (embedding vector_cosine_ops);
  UPDATE meta SET value = '10' WHERE key = 'schema_version'`;

describeWithPostgres("postgres store migrations", (url) => {
  /** A schema holding one session written by this ramem (then `fill`), its store closed, and a client on it to turn it into an older schema. */
  async function writtenAndClosed<T>(records: (s: Session) => UnitRecord[], fill: (store: MemoryStore) => Promise<T>) {
    const schema = uniqueSchema();
    const raw = new pg.Client({ connectionString: url, options: `-c search_path=${schema},public` });
    await raw.connect();
    const store = await openPostgresStore(url, { schema, maxConnections: 2 });
    try {
      await store.bindEmbedder(TEST_EMBEDDER, TEST_DIMS);
      const s = makeSession();
      await store.replaceSession(s, "h", records(s));
      return { schema, raw, s, filled: await fill(store) };
    } catch (err) {
      await raw.end();
      throw err;
    } finally {
      await store.close();
    }
  }

  it("migrates a schema-10 store: each vector value's first row alone in the HNSW graph, its copies found through it, and kept so by later writes", async () => {
    // Units 0, 2, 4 share one vector, 1 and 3 another; 5 is alone.
    const records = (s: Session) => Array.from({ length: 6 }, (_, i) => makeRecord(s, i, { embedding: seededVector(i === 5 ? "alone" : i % 2 ? "odd" : "even") }));
    const { schema, raw, s } = await writtenAndClosed(records, async () => undefined);
    try {
      await raw.query(BACK_TO_SCHEMA_10);
      const again = await openPostgresStore(url, { schema, dropSchemaOnClose: true, maxConnections: 2, exactSearchMaxUnits: 0, forceHnswIndex: true });
      try {
        const firsts = async () => (await raw.query<{ unit_id: string }>("SELECT unit_id FROM unit_vectors WHERE NOT repeats ORDER BY unit_id COLLATE \"C\"")).rows.map((r) => r.unit_id);
        const ids = records(s).map((r) => r.unit.id);
        assert.deepEqual(await firsts(), [ids[0], ids[1], ids[5]].sort());
        const def = await raw.query<{ def: string }>("SELECT pg_get_indexdef('unit_vectors_hnsw'::regclass) AS def");
        assert.match(def.rows[0]!.def, /WHERE \(NOT repeats\)/);
        const seen: string[] = [];
        const watched = await openPostgresStore(url, { schema, maxConnections: 1, exactSearchMaxUnits: 0, forceHnswIndex: true, onDenseSearch: (i) => seen.push(i.path) });
        try {
          const hits = await watched.searchDense("ns-a", seededVector("even"), 4);
          assert.deepEqual(seen, ["hnsw"]);
          assert.deepEqual(hits.slice(0, 3).map((h) => h.id).sort(), [ids[0], ids[2], ids[4]].sort(), "the copies of the value found come with it");
          assert.ok(hits.slice(0, 3).every((h) => Math.abs(h.score - 1) < 1e-6));
        } finally {
          await watched.close();
        }
        // The first row of a value goes: the next copy takes its place; a new copy is a repeat.
        assert.equal(await again.deleteUnit("ns-a", ids[0]!), true);
        assert.deepEqual(await firsts(), [ids[1], ids[2], ids[5]].sort());
        await assert.rejects(raw.query("UPDATE unit_vectors SET embedding = embedding"), /never updated/);
      } finally {
        await again.close();
      }
    } finally {
      await raw.end();
    }
  });

  it("migrates a schema-7 store: each term's maxima from its postings, the postings' key covering them, a namespace version", async () => {
    const records = (s: Session) => Array.from({ length: 6 }, (_, i) => makeRecord(s, i, { content: `tide ${"harbour ".repeat(i % 3)}lantern ${"x".repeat(i + 1)}`, cue: i % 2 ? "harbour harbour" : "" }));
    const { schema, raw } = await writtenAndClosed(records, async (store) => store.searchLexical("ns-a", ["harbour", "lantern"], 3));
    try {
      await raw.query(BACK_TO_SCHEMA_7);
      const again = await openPostgresStore(url, { schema, dropSchemaOnClose: true, maxConnections: 2 });
      try {
        const { rows } = await raw.query<{ bad: string }>(
          `SELECT count(*)::text AS bad FROM namespace_terms t JOIN (SELECT namespace, lexeme, max(tf_content) AS c, max(tf_cue) AS q, min(doc_len) AS l FROM unit_terms GROUP BY 1, 2) x USING (namespace, lexeme)
           WHERE t.max_tf_content IS DISTINCT FROM x.c OR t.max_tf_cue IS DISTINCT FROM x.q OR t.min_doc_len IS DISTINCT FROM x.l`,
        );
        assert.equal(rows[0]!.bad, "0");
        const key = await raw.query<{ def: string }>("SELECT pg_get_indexdef('unit_terms_pkey'::regclass) AS def");
        assert.match(key.rows[0]!.def, /INCLUDE \(tf_content, tf_cue, doc_len\)/);
        assert.notEqual(await again.namespaceVersion!("ns-a"), "0");
        const complete = await openPostgresStore(url, { schema, maxConnections: 1, lexical: createBm25Lexical({ pruning: "none" }) });
        try {
          assert.deepEqual(await again.searchLexical("ns-a", ["harbour", "lantern"], 3), await complete.searchLexical("ns-a", ["harbour", "lantern"], 3));
        } finally {
          await complete.close();
        }
      } finally {
        await again.close();
      }
    } finally {
      await raw.end();
    }
  });

  it("migrates a schema-6 store (postings with a foreign key): the key goes, a deleted unit's postings still go with it", async () => {
    const { schema, raw, s } = await writtenAndClosed((s) => makeRecords(s, 4), async () => undefined);
    try {
      await raw.query(BACK_TO_SCHEMA_6);
      const keys = () => raw.query("SELECT 1 FROM pg_constraint WHERE conrelid IN ('unit_terms'::regclass, 'unit_vectors'::regclass) AND contype = 'f'");
      assert.equal((await keys()).rowCount, 2);
      const again = await openPostgresStore(url, { schema, dropSchemaOnClose: true, maxConnections: 2 });
      try {
        assert.equal((await keys()).rowCount, 0);
        const [first] = await again.listUnits("ns-a");
        await again.deleteUnit("ns-a", first!.id);
        await again.replaceSession(s, "h2", makeRecords(s, 2));
        for (const table of ["unit_terms", "unit_vectors"]) {
          const orphans = await raw.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${table} p WHERE NOT EXISTS (SELECT 1 FROM units u WHERE u.namespace = p.namespace AND u.id = p.unit_id)`);
          assert.equal(orphans.rows[0]!.n, "0", table);
        }
        assert.equal((await raw.query("SELECT 1 FROM unit_vectors")).rowCount, 2);
        assert.equal((await again.searchLexical("ns-a", ["ordinary"], 10)).length, 2);
      } finally {
        await again.close();
      }
    } finally {
      await raw.end();
    }
  });

  it("migrates a schema-5 store (no doc_len in postings, no namespace_terms): same lexical results after as before", async () => {
    const { schema, raw, filled: before } = await writtenAndClosed(
      (s) => Array.from({ length: 12 }, (_, i) => makeRecord(s, i, { content: `Caroline went to the ${i % 2 ? "pottery studio" : "lake"} on day ${i}`, cue: i % 3 ? "" : "we talked about the lake" })),
      (store) => store.searchLexical("ns-a", ["pottery", "lake", "day"], 20),
    );
    try {
      // Back to schema 5 as it was.
      await raw.query(BACK_TO_SCHEMA_6);
      await raw.query(`DROP TRIGGER unit_terms_docs_insert ON unit_terms; DROP TRIGGER unit_terms_docs_delete ON unit_terms;
        DROP FUNCTION ramem_terms_add(); DROP FUNCTION ramem_terms_remove(); DROP TABLE namespace_terms;
        ALTER TABLE unit_terms DROP COLUMN doc_len; UPDATE meta SET value = '5' WHERE key = 'schema_version'`);
      const again = await openPostgresStore(url, { schema, dropSchemaOnClose: true, maxConnections: 2 });
      try {
        assert.deepEqual(await again.searchLexical("ns-a", ["pottery", "lake", "day"], 20), before);
        const v = await raw.query<{ value: string }>("SELECT value FROM meta WHERE key = 'schema_version'");
        assert.equal(v.rows[0]!.value, String(SCHEMA_VERSION));
        const terms = await raw.query<{ n: string }>(
          `SELECT count(*)::text AS n FROM namespace_terms nt FULL JOIN (SELECT namespace, lexeme, count(*) AS docs FROM unit_terms GROUP BY namespace, lexeme) p
             USING (namespace, lexeme) WHERE nt.docs IS DISTINCT FROM p.docs`,
        );
        assert.equal(terms.rows[0]!.n, "0");
      } finally {
        await again.close();
      }
    } finally {
      await raw.end();
    }
  });
});
