/** The operations benches at tiny sizes: they run end to end and print the figures they promise. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "../testing/run-cli.js";

test("ramem bench metrics-overhead: throughput with and without /metrics per round, and their ratio, the scrapes counted against the metrics side", async () => {
  // A scrape is due after every recall on the metrics server when the interval is 1 ms (a recall over HTTP takes longer).
  const run = await runCli(["bench", "metrics-overhead", "--units", "200", "--rounds", "2", "--per-round", "3", "--scrape-every", "1", "--json", "--quiet"]);
  assert.equal(run.code, 0, run.stderr);
  const r = JSON.parse(run.stdout) as { units: number; withMetrics: number[]; withoutMetrics: number[]; medianRatio: number; overallRatio: number; scrapes: number; scrapeMsMedian: number };
  assert.ok(r.scrapes >= 3 && r.scrapes <= 6 && r.scrapeMsMedian > 0, `${r.scrapes} scrapes, median ${r.scrapeMsMedian} ms`);
  assert.ok(r.units > 100, `${r.units} units`);
  assert.equal(r.withMetrics.length, 2);
  assert.equal(r.withoutMetrics.length, 2);
  assert.ok(r.withMetrics.every((x) => x > 0) && r.medianRatio > 0 && r.overallRatio > 0);
});

test("ramem bench tenants: one tenant among many against alone, and with another tenant's writer; the shared store is reused", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ramem-bench-tenants-"));
  try {
    const args = ["bench", "tenants", "--store", join(dir, "t.db"), "--tenants", "3", "--units-per-tenant", "40", "--queries", "6", "--warmup", "1", "--phases", "1", "--out", join(dir, "out"), "--quiet"];
    const first = await runCli(args);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /\| among all the tenants \| [\d.]+ \/ [\d.]+ \| [\d.]+ \(target ≤ 2\) \|/);
    const r = JSON.parse(readFileSync(join(dir, "out", "results.json"), "utf8"));
    assert.equal(r.tenants, 3);
    assert.ok(r.storedUnits >= 100 && r.sharedOverAlone > 0 && r.writingOverQuiet > 0 && r.writerUnitsPerSecond > 0, JSON.stringify(r));
    assert.notEqual(r.ingest, "cached");
    // The writer wrote into a tenant of its own; a second run keeps the shared store.
    const second = await runCli([...args, "--json"]);
    assert.equal(second.code, 0, second.stderr);
    assert.equal(JSON.parse(second.stdout).ingest, "cached");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
