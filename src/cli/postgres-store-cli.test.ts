/**
 * The CLI on the postgres dialect: the same commands, with --store URL. Each
 * run uses its own schema (?schema=), dropped afterwards.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { spawn } from "node:child_process";
import pg from "pg";
import { describeWithPostgres, uniqueSchema } from "../store/postgres/testing/postgres-test-target.js";
import { ROOT, runCli as ramem, type CliRun } from "./testing/run-cli.js";

const GARDEN = join(ROOT, "src/cli/testing/garden-club.json");
const CHESS = join(ROOT, "src/cli/testing/chess-log.jsonl");

function json(run: CliRun): any {
  assert.equal(run.code, 0, `exit code 0 expected; stderr:\n${run.stderr}`);
  return JSON.parse(run.stdout.trim().split("\n").at(-1)!);
}

describeWithPostgres("ramem CLI with --store postgres://", (url) => {
  const schema = uniqueSchema("cli");
  const store = new URL(url);
  store.searchParams.set("schema", schema);
  const location = store.toString();

  after(async () => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await c.end();
  });

  test("ingest, recall and stats work through a postgres URL, and re-ingest writes nothing", async () => {
    const first = json(await ramem(["ingest", "--store", location, "--embedder", "hash", "--json", "--quiet", GARDEN]));
    assert.ok(first.unitsWritten > 0);
    json(await ramem(["ingest", "--store", location, "--embedder", "hash", "--json", "--quiet", CHESS]));
    const again = json(await ramem(["ingest", "--store", location, "--embedder", "hash", "--json", "--quiet", GARDEN]));
    assert.equal(again.unitsWritten, 0);

    const rec = json(
      await ramem(["recall", "--store", location, "--namespace", "garden-club", "--k", "2", "--json", "Where did Ines buy the purple carrot seeds?"]),
    );
    assert.equal(rec.hits.length, 2);
    assert.equal(rec.hits[0].provenance.sessionId, "spring");
    assert.ok(rec.hits.every((h: any) => ["spring", "summer"].includes(h.provenance.sessionId)), "nothing from another namespace");

    // RAMEM_STORE works like --store.
    const stats = json(await ramem(["stats", "--json"], { RAMEM_STORE: location }));
    assert.deepEqual(stats.perNamespace.map((n: any) => n.namespace), ["chess", "garden-club"]);
    assert.equal(stats.units, stats.perNamespace.reduce((s: number, n: any) => s + n.units, 0));
    assert.match(stats.store, /^postgres:\/\//);
    const password = new URL(url).password;
    if (password) assert.ok(!stats.store.includes(`:${password}@`), "the password is never printed");
  });

  test("reindex rebuilds the HNSW index in one go; a small SQLite store has none to build", async () => {
    json(await ramem(["ingest", "--store", location, "--embedder", "hash", "--json", "--quiet", GARDEN]));
    const c = new pg.Client({ connectionString: url, options: `-c search_path=${schema},public` });
    await c.connect();
    try {
      const index = async () => (await c.query<{ oid: number }>("SELECT to_regclass('unit_vectors_hnsw')::oid AS oid")).rows[0]!.oid;
      const before = await index();
      const report = json(await ramem(["reindex", "--store", location, "--json", "--maintenance-work-mem", "64MB"]));
      assert.equal(report.action, "rebuilt");
      assert.ok(report.vectors > 0);
      assert.notEqual(await index(), before, "a new index replaced the old one");
      await c.query("DROP INDEX unit_vectors_hnsw");
      assert.equal(json(await ramem(["reindex", "--store", location, "--json"])).action, "created");
      assert.ok((await index()) !== null);
    } finally {
      await c.end();
    }
    const dir = mkdtempSync(join(tmpdir(), "ramem-reindex-"));
    const sqlite = join(dir, "store.db");
    try {
      json(await ramem(["ingest", "--db", sqlite, "--embedder", "hash", "--json", "--quiet", GARDEN]));
      const run = await ramem(["reindex", "--db", sqlite]);
      assert.equal(run.code, 0);
      assert.match(run.stdout, /no namespace has 20,000 units or more/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("ingest --bulk writes without the HNSW index and creates it once at the end; --bulk on SQLite is refused and writes nothing", async () => {
    const bulkSchema = uniqueSchema("bulk");
    const bulkStore = new URL(url);
    bulkStore.searchParams.set("schema", bulkSchema);
    const c = new pg.Client({ connectionString: url, options: `-c search_path=${bulkSchema},public` });
    await c.connect();
    const dir = mkdtempSync(join(tmpdir(), "ramem-bulk-"));
    try {
      // A fresh schema: the bind that creates the index comes before the drop, so the build at the end creates it anew.
      const first = json(await ramem(["ingest", "--store", bulkStore.toString(), "--embedder", "hash", "--bulk", "--json", "--quiet", GARDEN]));
      assert.ok(first.unitsWritten > 0);
      assert.equal(first.bulkDenseIndex.action, "created");
      assert.equal(first.bulkDenseIndex.vectors, first.unitsWritten, "a fresh schema: its vectors are the ones just written");
      const server = (await c.query<{ mb: string }>("SELECT (pg_size_bytes(current_setting('maintenance_work_mem')) / 1048576)::text AS mb")).rows[0]!.mb;
      assert.equal(first.bulkDenseIndex.maintenanceWorkMem, `${server}MB`, "a few vectors need less than the server's setting: the build keeps it");
      const valid = await c.query<{ valid: boolean }>("SELECT indisvalid AS valid FROM pg_index WHERE indexrelid = to_regclass('unit_vectors_hnsw')");
      assert.equal(valid.rows[0]?.valid, true, "the index is there and valid after the load");
      const rec = json(await ramem(["recall", "--store", bulkStore.toString(), "--namespace", "garden-club", "--k", "1", "--json", "Where did Ines buy the purple carrot seeds?"]));
      assert.equal(rec.hits[0].provenance.sessionId, "spring");

      // The same file again: nothing changed, so nothing is dropped or built (the same index, by its oid).
      const oid = async () => (await c.query<{ oid: number }>("SELECT to_regclass('unit_vectors_hnsw')::oid AS oid")).rows[0]!.oid;
      const before = await oid();
      const again = await ramem(["ingest", "--store", bulkStore.toString(), "--embedder", "hash", "--bulk", "--quiet", GARDEN]);
      assert.equal(again.code, 0, again.stderr);
      assert.match(again.stdout, /0 units written/);
      assert.match(again.stdout, /nothing changed: the HNSW index was left as it was/);
      assert.equal(await oid(), before);
      const againJson = json(await ramem(["ingest", "--store", bulkStore.toString(), "--embedder", "hash", "--bulk", "--json", "--quiet", GARDEN]));
      assert.equal(againJson.bulkDenseIndex, null);
      assert.equal(await oid(), before);

      assert.equal(first.bulkDenseIndex.parallelWorkers, 0, "serial by default");
      const sized = json(await ramem(["ingest", "--store", bulkStore.toString(), "--embedder", "hash", "--bulk", "--force", "--maintenance-work-mem", "96MB", "--parallel-workers", "1", "--json", "--quiet", GARDEN]));
      assert.equal(sized.bulkDenseIndex.action, "created", "--force rewrites every session: the index is dropped and built again");
      assert.equal(sized.bulkDenseIndex.maintenanceWorkMem, "96MB");
      assert.equal(sized.bulkDenseIndex.parallelWorkers, 1);
      // A size the server would refuse: said before the bulk load drops the index or writes (the same index after).
      const indexBefore = await oid();
      const badSize = await ramem(["ingest", "--store", bulkStore.toString(), "--embedder", "hash", "--bulk", "--force", "--maintenance-work-mem", "96mb", "--quiet", GARDEN]);
      assert.equal(badSize.code, 2, badSize.stderr);
      assert.match(badSize.stderr, /maintenanceWorkMem must be a PostgreSQL memory size/);
      assert.equal(await oid(), indexBefore);
      const unsized = await ramem(["ingest", "--store", bulkStore.toString(), "--embedder", "hash", "--maintenance-work-mem", "96MB", "--quiet", GARDEN]);
      assert.equal(unsized.code, 2, unsized.stderr);
      assert.match(unsized.stderr, /--maintenance-work-mem sets up the index build of a bulk load/);
      assert.match(unsized.stderr, /hint: add --bulk/);
      const serial = await ramem(["ingest", "--store", bulkStore.toString(), "--embedder", "hash", "--parallel-workers", "1", "--quiet", GARDEN]);
      assert.equal(serial.code, 2, serial.stderr);
      assert.match(serial.stderr, /--parallel-workers sets up the index build of a bulk load/);
      const negative = await ramem(["ingest", "--store", bulkStore.toString(), "--embedder", "hash", "--bulk", "--parallel-workers", "-1", "--quiet", GARDEN]);
      assert.equal(negative.code, 2, negative.stderr);
      assert.match(negative.stderr, /--parallel-workers must be a whole number from 0 to 1024/);

      const sqlite = join(dir, "store.db");
      const refused = await ramem(["ingest", "--db", sqlite, "--embedder", "hash", "--bulk", "--quiet", GARDEN]);
      assert.equal(refused.code, 2, refused.stderr);
      assert.match(refused.stderr, /--bulk is for PostgreSQL stores/);
      assert.match(refused.stderr, /hint: leave --bulk out/);
      assert.equal(existsSync(sqlite), false, "refused before the store was opened: no file made");
    } finally {
      await c.query(`DROP SCHEMA IF EXISTS "${bulkSchema}" CASCADE`);
      await c.end();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("--db and --store naming two stores is refused with a hint", async () => {
    const run = await ramem(["stats", "--store", location, "--db", "/tmp/other.db"]);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /--db and --store name two different stores/);
    assert.match(run.stderr, /hint:/);
  });

  test("an unreachable server exits 2 with the start hint", async () => {
    const dead = new URL(url);
    dead.port = "1";
    const run = await ramem(["stats", "--store", dead.toString()]);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /cannot reach the PostgreSQL server/);
    assert.match(run.stderr, /postgres-test-server\.sh start/);
  });

  test("ramem mcp --store URL answers every request piped before stdin closes, then exits", async () => {
    // Closing the pool at end of input used to drop the answers still in flight (and `mcp` once ignored --store).
    const lines = [
      { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "pipe", version: "0" } } },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "remember", arguments: { namespace: "pipe", sessionTime: "2023-05-08", turns: [{ speaker: "Ana", text: "I moved to Lisbon." }] } } },
      { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "recall", arguments: { namespace: "pipe", query: "Where did Ana move?", k: 1 } } },
    ];
    const child = spawn(process.execPath, ["--import", "tsx", "src/cli/main.ts", "mcp", "--store", location, "--embedder", "hash"], {
      cwd: ROOT,
      env: { ...process.env, RAMEM_DB: "", RAMEM_STORE: "", RAMEM_LLM_MODEL: "", RAMEM_EMBEDDINGS_MODEL: "" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.stdin.end(lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
    const code = await new Promise((resolve) => child.on("close", resolve));
    assert.equal(code, 0, stderr);
    assert.match(stderr, new RegExp(`serving postgres://.*\\(schema ${schema}\\) over stdio`));
    // Requests run concurrently, so answers may come in any order.
    const replies = new Map(stdout.trim().split("\n").map((l) => JSON.parse(l)).map((r) => [r.id, r]));
    assert.deepEqual([...replies.keys()].sort(), [1, 2, 3], stdout);
    assert.equal(replies.get(2).result.isError, undefined, JSON.stringify(replies.get(2)));
    assert.equal(replies.get(3).result.isError, undefined, JSON.stringify(replies.get(3)));
    assert.equal(json(await ramem(["stats", "--store", location, "--namespace", "pipe", "--json"])).units, 1);
  });
});
