/**
 * Ready to spread tenants over nodes (Citus, a sharded managed PostgreSQL):
 * every key starts with `namespace`, and every statement the store issues
 * filters by one namespace, except a named list of global ones. Citus itself
 * is not installable here: this checks what distributing by namespace needs.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import pg from "pg";
import { runStoreContractSuite } from "../contract-suite.js";
import { runApiKeyStoreContractSuite } from "../api-key-contract-suite.js";
import { openPostgresStore } from "./postgres-store.js";
import { openPostgresApiKeyStore } from "./postgres-api-keys.js";
import { describeWithPostgres, uniqueSchema } from "./testing/postgres-test-target.js";

/** Tables that hold no tenant's data: reference tables on a distributed PostgreSQL, copied to every node. */
const GLOBAL_TABLES = new Set(["meta", "api_keys", "api_key_schema"]);

/**
 * The statements that may run without naming one namespace, and why. Anything
 * else the store sends must filter by (or write) exactly one namespace.
 */
const GLOBAL_STATEMENTS: ReadonlyArray<{ why: string; pattern: RegExp }> = [
  { why: "transaction control and session settings (hnsw.ef_search, client_min_messages)", pattern: /^(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE|SET |RESET |SHOW )/i },
  { why: "schema set-up and migrations (DDL, once per schema)", pattern: /^(CREATE|ALTER|DROP|COMMENT|DO )/i },
  { why: "scrubDeleted's and reindex's maintenance of whole tables", pattern: /^(VACUUM|ANALYZE|REINDEX)\b/i },
  { why: "the schema's own metadata (version, embedder binding): a reference table", pattern: /\b(FROM|INTO|UPDATE)\s+("[^"]+"\.)?meta\b/i },
  { why: "API keys: a key names its namespaces, it belongs to none (reference tables)", pattern: /\b(FROM|INTO|UPDATE)\s+("[^"]+"\.)?api_key(s|_schema)\b/i },
  { why: "catalog reads: does the schema or a table exist", pattern: /\bpg_catalog\.|^SELECT t AS name FROM unnest\(ARRAY\[/i },
  { why: "advisory locks keyed by a namespace's hash (on Citus: taken on the coordinator)", pattern: /^SELECT pg_advisory_xact_lock\(/i },
  { why: "whole-store admin reads: stats(), listNamespaces(), namespaceSizes()", pattern: /^SELECT (\(SELECT count\(\*\) FROM \(SELECT namespace FROM sessions UNION|namespace FROM \(SELECT namespace FROM sessions UNION|namespace, sum\(sessions\))/i },
];

/** A statement that names one namespace: a `namespace = $n` filter, or a write whose rows carry their namespace. */
function namesOneNamespace(sql: string): boolean {
  return (
    /\bnamespace\s*=\s*\$\d+/i.test(sql) ||
    /\bnamespace\s*=\s*'[^']*'/i.test(sql) ||
    // A write's rows carry their namespace first (a CTE's INSERT too); the store writes one session, so one namespace, per statement.
    /^\s*(WITH \w+ AS \(\s*)?(INSERT INTO|COPY)\s+("[^"]+"\.)?\w+\s*\(\s*namespace\b/i.test(sql)
  );
}

describeWithPostgres("distribution-ready PostgreSQL schema", (url) => {
  it("every table's primary key and every unique index starts with namespace (global tables apart)", async () => {
    const schema = uniqueSchema("dist");
    const store = await openPostgresStore(url, { schema, dropSchemaOnClose: true, maxConnections: 2 });
    const keys = await openPostgresApiKeyStore(url, { schema });
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await store.bindEmbedder("test-embedder", 8);
      const { rows: tables } = await client.query<{ table: string; hasNamespace: boolean }>(
        `SELECT c.relname AS table, EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'namespace' AND NOT a.attisdropped) AS "hasNamespace"
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind = 'r' ORDER BY 1`,
        [schema],
      );
      const tenantTables = tables.filter((t) => !GLOBAL_TABLES.has(t.table));
      assert.ok(tenantTables.length >= 6, `the schema's tables: ${tables.map((t) => t.table).join(", ")}`);
      for (const t of tenantTables) assert.ok(t.hasNamespace, `${t.table} has a namespace column`);
      const { rows: keyed } = await client.query<{ table: string; index: string; primary: boolean; first: string }>(
        `SELECT c.relname AS table, i.relname AS index, ix.indisprimary AS primary, a.attname AS first
         FROM pg_index ix
         JOIN pg_class i ON i.oid = ix.indexrelid
         JOIN pg_class c ON c.oid = ix.indrelid
         JOIN pg_namespace n ON n.oid = c.relnamespace
         LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = ix.indkey[0]
         WHERE n.nspname = $1 AND (ix.indisprimary OR ix.indisunique) ORDER BY 1, 2`,
        [schema],
      );
      for (const t of tenantTables) assert.ok(keyed.some((k) => k.table === t.table && k.primary), `${t.table} has a primary key`);
      const offending = keyed.filter((k) => !GLOBAL_TABLES.has(k.table) && k.first !== "namespace");
      assert.deepEqual(offending, [], "keys that do not start with namespace");
    } finally {
      await client.end();
      await keys.close();
      await store.close();
    }
  });

  describe("every statement of the contract suite names one namespace, or is on the global list", () => {
    const seen = new Map<string, string>();
    const original = pg.Client.prototype.query;
    let recording = false;
    it("starts recording", () => {
      recording = true;
      (pg.Client.prototype as { query: unknown }).query = function (this: pg.Client, ...args: unknown[]) {
        const first = args[0];
        const text = typeof first === "string" ? first : typeof first === "object" && first !== null && "text" in first ? String((first as { text: unknown }).text) : "";
        if (recording && text) seen.set(text.replace(/\s+/g, " ").trim(), text);
        return (original as (...a: unknown[]) => unknown).apply(this, args);
      };
    });
    runStoreContractSuite("postgres, statements recorded", () => openPostgresStore(url, { schema: uniqueSchema(), dropSchemaOnClose: true, maxConnections: 2 }), {
      openApproximate: () => openPostgresStore(url, { schema: uniqueSchema(), dropSchemaOnClose: true, maxConnections: 2, exactSearchMaxUnits: 0 }),
    });
    runApiKeyStoreContractSuite("postgres, statements recorded", async () => openPostgresApiKeyStore(url, { schema: uniqueSchema(), dropSchemaOnClose: true }));
    it("checks them", () => {
      recording = false;
      (pg.Client.prototype as { query: unknown }).query = original;
      assert.ok(seen.size > 50, `${seen.size} distinct statements recorded`);
      const stray = [...new Set([...seen.keys()].filter((sql) => !namesOneNamespace(sql) && !GLOBAL_STATEMENTS.some((g) => g.pattern.test(sql))).map((sql) => sql.slice(0, 240)))];
      if (process.env.RAMEM_DUMP_STATEMENTS) for (const sql of seen.keys()) if (!namesOneNamespace(sql)) console.log("GLOBAL", GLOBAL_STATEMENTS.find((g) => g.pattern.test(sql))?.why, "|", sql.slice(0, 160));
      assert.deepEqual(stray, [], "statements that neither name one namespace nor are on the global list");
      // The list is not a blanket: the data statements were recorded and pass on their own.
      const tenantWrites = [...seen.keys()].filter((sql) => /^(INSERT|UPDATE|DELETE)/i.test(sql) && !/api_key|meta\b/.test(sql));
      assert.ok(tenantWrites.length >= 5 && tenantWrites.every(namesOneNamespace), `${tenantWrites.length} tenant writes`);
    });
  });
});
