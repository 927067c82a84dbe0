/**
 * The LoCoMo harness on the postgres dialect (`--store postgres://...`): the
 * tiny synthetic file, the hash embedder, a schema of its own.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { runLocomoBench, type LocomoBenchResult } from "./locomo/run-locomo.js";
import { createRuleAnchorer } from "../anchoring/rule-anchorer.js";
import { describeWithPostgres, uniqueSchema } from "../store/postgres/testing/postgres-test-target.js";
import type { Embedder } from "../providers/embedder.js";
import { countingEmbedder } from "../providers/testing/counting-embedder.js";

const LOCOMO = fileURLToPath(new URL("./testing/locomo-tiny.json", import.meta.url));
const KS = [1, 5, 10];


describeWithPostgres("LoCoMo bench with --store postgres://", (url) => {
  const schema = uniqueSchema("bench");
  const store = new URL(url);
  store.searchParams.set("schema", schema);
  let dir: string;
  let first: LocomoBenchResult;
  let firstEmbeds: number;
  const run = async (embedder: Embedder) =>
    runLocomoBench({
      dataPath: LOCOMO,
      ks: KS,
      variants: ["content-only", "ramem"],
      cacheDir: join(dir, "cache"),
      embedder,
      anchorer: createRuleAnchorer(),
      store: store.toString(),
    });

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "ramem-bench-pg-"));
    const embedder = countingEmbedder();
    first = await run(embedder);
    firstEmbeds = embedder.texts;
  });
  after(async () => {
    rmSync(dir, { recursive: true, force: true });
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await c.end();
  });

  test("scores every variant on the postgres store, named by its redacted URL", () => {
    assert.match(first.cachePath, new RegExp(`^postgres://.*schema ${schema}`));
    for (const name of ["content-only", "ramem"]) {
      const v = first.variants.find((x) => x.name === name)!;
      assert.equal(v.retrieval.evaluated, 7);
      assert.equal(v.retrieval.overall[10]!.recall, 1, `${name}: with K=10 every evidence turn of this tiny file is found`);
      assert.ok(v.retrieval.overall[1]!.recall <= v.retrieval.overall[5]!.recall);
    }
    assert.ok(firstEmbeds >= 13 + 8, "the first run embeds every unit and every question");
  });

  test("a second run finds its sessions unchanged in the schema: nothing embedded again", async () => {
    const embedder = countingEmbedder();
    const second = await run(embedder);
    assert.equal(embedder.texts, 0);
    assert.deepEqual(
      second.variants.map((v) => v.retrieval.overall[5]!.recall),
      first.variants.map((v) => v.retrieval.overall[5]!.recall),
    );
  });
});
