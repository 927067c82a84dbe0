import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "../testing/run-cli.js";
import { generateConversations } from "../../bench/scale/generate-conversations.js";
import { bruteForceTopK } from "../../bench/scale/brute-force.js";

test("ramem bench scale end to end at a tiny size: results.json in the issue's shape, the cached store reused, bad sizes refused", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ramem-bench-scale-"));
  try {
    const args = ["bench", "scale", "--units", "120,60", "--queries", "4", "--warmup", "1", "--use-lite-turns", "0", "--cache", join(dir, "cache"), "--out", join(dir, "out"), "--quiet"];
    const first = await runCli(args);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /\| 60 \| 1 \(60 in the timed one\) \| sqlite \|/);
    const results = JSON.parse(readFileSync(join(dir, "out", "results.json"), "utf8"));
    assert.deepEqual(results.sizes.map((s: { units: number }) => s.units), [60, 120]);
    for (const s of results.sizes) {
      assert.equal(s.namespaces, 1);
      assert.equal(s.dialect, "sqlite");
      assert.ok(s.ingest.unitsPerSecond > 0 && s.bytesPerUnit > 0 && s.peakRssMb > 0 && s.firstRecallMs > 0);
      for (const q of [s.recall.ramem, s.recall.ramemSecondPass, s.recall.contentOnly, s.searchLexical, s.searchDense, s.floor.bruteForce]) assert.ok(q.p50Ms >= 0 && q.p95Ms >= q.p50Ms);
      // Below the index threshold the dense search is exact: all of the exact top 100.
      assert.equal(s.denseRecallAt100, 1);
      assert.equal(s.queries, 4);
    }
    // A second run reads the stores it built: the ingest figures are the first run's.
    const second = await runCli([...args, "--namespaces", "1", "--json"]);
    assert.equal(second.code, 0, second.stderr);
    assert.ok(JSON.parse(second.stdout).sizes.every((s: { ingest: { cachedFrom?: string } }) => s.ingest.cachedFrom));
    // Two namespaces: the size is split, the queries run in the first.
    const split = await runCli(["bench", "scale", "--units", "80", "--namespaces", "2", "--queries", "2", "--warmup", "0", "--use-lite-turns", "0", "--cache", join(dir, "cache"), "--out", join(dir, "out2"), "--quiet", "--json"]);
    assert.equal(split.code, 0, split.stderr);
    assert.equal(JSON.parse(split.stdout).sizes[0].namespaceUnits, 40);
    for (const bad of [["--units", "abc"], ["--units", "10"], ["--units", "1000,x"], ["--namespaces", "0"], ["--use-lite-turns", "-1"]]) {
      const refused = await runCli(["bench", "scale", ...bad, "--cache", join(dir, "cache"), "--out", join(dir, "out3")]);
      assert.equal(refused.code, 2, `${bad.join(" ")}: ${refused.stderr}`);
      assert.match(refused.stderr, /--units|--namespaces|--use-lite-turns/);
    }
    assert.ok(!existsSync(join(dir, "out3")));
    const oneStore = await runCli(["bench", "scale", "--units", "100,200", "--store", join(dir, "mine.db"), "--cache", join(dir, "cache"), "--out", join(dir, "out3")]);
    assert.equal(oneStore.code, 2);
    assert.match(oneStore.stderr, /holds one size[\s\S]*one size per store/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the scale generator is seeded (same corpus byte for byte) and the brute-force floor is the exact top k", () => {
  const a = generateConversations({ seed: 7, turns: 200, namespaces: 2, queries: 5 });
  assert.deepEqual(generateConversations({ seed: 7, turns: 200, namespaces: 2, queries: 5 }), a);
  assert.notDeepEqual(generateConversations({ seed: 8, turns: 200, namespaces: 2, queries: 5 }), a);
  assert.equal(a.turns, 200);
  assert.equal(a.queries.length, 5);
  assert.ok(a.queries.every((q) => q.namespace === "scale-0"));
  const table = { ids: ["a", "b", "c"], dimensions: 2, data: new Float32Array([1, 0, 0, 1, Math.SQRT1_2, Math.SQRT1_2]) };
  const top = bruteForceTopK(table, new Float32Array([1, 0.1]), 2);
  assert.deepEqual(top.ids, ["a", "c"]);
  assert.ok(Math.abs(top.kthScore - Math.SQRT1_2 * 1.1 / Math.sqrt(1.01)) < 1e-6);
});
