import { test } from "node:test";
import assert from "node:assert/strict";
import { runCli } from "../testing/run-cli.js";
import { reliabilityTable } from "./bench-reliability.js";
import type { ReliabilityResult } from "../../bench/reliability/run-reliability.js";
import { checkOps } from "../../bench/reliability/check-ops.js";

// The run itself is tested in src/bench/reliability/run-reliability.test.ts; here the face: options refused before anything starts, help, the table.
test("ramem bench reliability refuses bad options with exit 2 and documents the multi-store forms", async () => {
  for (const bad of [["--seconds", "0"], ["--processes", "x"], ["--dialects", "mysql"], ["--seed", "-1"]]) {
    const run = await runCli(["bench", "reliability", ...bad, "--out", "/nonexistent/never-written"]);
    assert.equal(run.code, 2, `${bad.join(" ")}: ${run.stderr}`);
    assert.match(run.stderr, new RegExp(bad[0]!));
  }
  const noServer = await runCli(["bench", "reliability", "--dialects", "postgres", "--out", "/nonexistent/never-written"], { RAMEM_TEST_POSTGRES_URL: "" });
  assert.equal(noServer.code, 2);
  assert.match(noServer.stderr, /--postgres-url|RAMEM_TEST_POSTGRES_URL/);
  const help = await runCli(["bench", "reliability", "--help"]);
  assert.equal(help.code, 0);
  for (const option of ["--store", "--dialects", "--postgres-url", "--seconds", "--processes", "--namespaces", "--seed", "--keep", "--json"]) assert.ok(help.stdout.includes(option), option);
});

test("the table shows acked and refused per operation and says FAILED with examples when the check failed", () => {
  const check = checkOps(
    [
      { worker: 0, seq: 1, op: "append", namespace: "ns", sessionId: "s1", unitIds: ["u1"], turnIds: ["s1:1"], texts: ["Note (w0-1)"], start: 0, end: 10, ok: true },
      { worker: 1, seq: 1, op: "forgetUnit", namespace: "ns", sessionId: "s1", unitIds: ["u1"], start: 20, end: 30, ok: true, result: true },
    ],
    { units: [{ id: "u1", namespace: "ns", sessionId: "s1", turnIds: ["s1:1"], text: "Note (w0-1)" }], validity: {} },
    [],
  );
  const result: ReliabilityResult = {
    dialect: "sqlite",
    location: "/tmp/x.db",
    processes: 2,
    seconds: 1,
    namespaces: ["ns"],
    sessionsPerNamespace: 1,
    seed: 1,
    operations: [1, 1],
    loadAverage: { before: 1, after: 1 },
    check,
  };
  const table = reliabilityTable(result);
  assert.match(table, /\| append \| 1 \| 0 \|/);
  assert.match(table, /\| forgetUnit \| 1 \| 0 \|/);
  assert.match(table, /FAILED: 1/);
  assert.match(table, /undoneForgets: u1 /);
});
