import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runCli } from "../testing/run-cli.js";

const FIXTURES = fileURLToPath(new URL("../../formats/fixtures/", import.meta.url));

test("ramem bench ingest: one row per data set and path with turns/s, units/s and the load; bad options refused", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ramem-bench-ingest-"));
  try {
    const run = await runCli([
      "bench", "ingest", "--locomo", join(FIXTURES, "locomo-mini.json"), "--longmemeval", join(FIXTURES, "longmemeval-mini.json"),
      "--variants", "anchor,hash", "--threads", "1,2", "--out", join(dir, "out"), "--quiet",
    ]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /\| locomo \| rule anchorer alone \| \d+ \| \d+ \| [\d.]+ \| [\d.]+ \| [\d.]+ \| [\d.]+→[\d.]+ \|/);
    assert.match(run.stdout, /\| locomo \| rule anchorer alone, 2 threads \|/);
    assert.match(run.stdout, /\| longmemeval \| rule anchorer \+ hash vectors \+ SQLite \|/);
    const results = JSON.parse(readFileSync(join(dir, "out", "results.json"), "utf8"));
    // Per data set: the anchorer alone on each --threads count, then anchorer + hash vectors + SQLite.
    assert.equal(results.figures.length, 6);
    for (const f of results.figures) {
      assert.ok(f.turns > 0 && f.units === f.turns, `${f.dataset} ${f.variant}: one unit per turn`);
      assert.ok(f.turnsPerSecond > 0 && f.unitsPerSecond > 0);
      assert.equal(f.loadAverage.length, 2);
    }
    for (const bad of [["--variants", "fast"], ["--threads", "0"], ["--turns", "x"], []]) {
      const refused = await runCli(["bench", "ingest", ...(bad.length ? ["--locomo", join(FIXTURES, "locomo-mini.json")] : []), ...bad, "--out", join(dir, "out2"), "--quiet"]);
      assert.equal(refused.code, 2, `${bad.join(" ")}: ${refused.stderr}`);
      assert.match(refused.stderr, /--variants|--threads|--turns|no data set/);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
