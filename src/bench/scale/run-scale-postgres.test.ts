/**
 * The scale bench on the postgres dialect: a tiny size ingested as a bulk
 * load (the HNSW index dropped first and built in one go after the writes,
 * timed with them), then queried through the rebuilt index.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { runScaleBench } from "./run-scale.js";
import { createRuleAnchorer } from "../../anchoring/rule-anchorer.js";
import { createHashEmbedder } from "../../providers/hash-embedder.js";
import { describeWithPostgres, uniqueSchema } from "../../store/postgres/testing/postgres-test-target.js";

describeWithPostgres("scale bench with --store postgres://", (url) => {
  test("ingests as a bulk load: the HNSW index is built after the writes, within the ingest time, and answers the queries", async () => {
    const schema = uniqueSchema("scale");
    const store = new URL(url);
    store.searchParams.set("schema", schema);
    const dir = mkdtempSync(join(tmpdir(), "ramem-scale-pg-"));
    const raw = new pg.Client({ connectionString: url, options: `-c search_path=${schema},public` });
    await raw.connect();
    try {
      const result = await runScaleBench({
        sizes: [60],
        namespaces: 1,
        seed: 7,
        queries: 3,
        warmup: 0,
        k: 10,
        cacheDir: join(dir, "cache"),
        store: store.toString(),
        embedder: createHashEmbedder(),
        anchorer: createRuleAnchorer(),
      });
      const [size] = result.sizes;
      assert.equal(size!.dialect, "postgres");
      assert.ok(size!.ingest.denseIndexBuildSeconds !== undefined, "the index build is reported");
      assert.equal(size!.ingest.denseIndexAction, "created", "the index was not there during the writes: the build made it anew");
      assert.ok(size!.ingest.denseIndexBuildSeconds! <= size!.ingest.seconds, "and counted in the ingest time");
      const index = await raw.query<{ valid: boolean }>("SELECT indisvalid AS valid FROM pg_index WHERE indexrelid = to_regclass('unit_vectors_hnsw')");
      assert.equal(index.rows[0]?.valid, true, "the index is back and valid");
      assert.equal(size!.denseRecallAt100, 1);
    } finally {
      await raw.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await raw.end();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
