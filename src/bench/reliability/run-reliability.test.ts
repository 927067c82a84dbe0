/**
 * The reliability campaign end to end, short: two worker processes on one
 * store for a few seconds, on SQLite and (with a server) PostgreSQL. The
 * counts must add up, every kind of write must have been acknowledged, and
 * the store must have kept every acknowledgement: a failure here is
 * concurrent writers undoing each other (the examples say where).
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import pg from "pg";
import { runReliabilityBench, type ReliabilityResult } from "./run-reliability.js";
import { OP_KINDS } from "./op-log.js";
import { postgresTestTarget } from "../../store/postgres/testing/postgres-test-target.js";

const SECONDS = 3;

function assertConsistent(r: ReliabilityResult): void {
  const c = r.check;
  assert.equal(r.processes, 2);
  for (const kind of OP_KINDS) assert.ok(c.acked[kind] > 0, `no ${kind} was acknowledged in ${SECONDS} s: ${JSON.stringify(c.acked)}`);
  // Every operation a worker started was logged exactly once, acked or refused.
  const logged = OP_KINDS.reduce((n, k) => n + c.acked[k] + c.refused[k], 0);
  assert.equal(logged, r.operations.reduce((a, b) => a + b, 0));
  assert.equal(c.expected, c.found + c.lost);
  assert.ok(c.undoneForgets <= c.forgotten);
  assert.ok(c.expected + c.forgotten + c.ambiguous > 0);
  assert.equal(c.failures, c.lost + c.staleText + c.undoneForgets + c.idReuses + c.duplicates + c.supersessionsLost + c.validityDifferences);
  assert.equal(c.failures, 0, `the store broke acknowledgements: ${JSON.stringify({ ...c, acked: undefined, refused: undefined }, null, 1)}`);
}

const options = { processes: 2, seconds: SECONDS, namespaces: 2, sessions: 3, seed: 1 };

describe("bench reliability: two processes writing one store", () => {
  it("sqlite: every acknowledged write kept, no forget undone, no id reused, one validity", async () => {
    const result = await runReliabilityBench({ store: undefined, ...options });
    assert.equal(result.dialect, "sqlite");
    assertConsistent(result);
  });

  const pgTarget = postgresTestTarget;
  const skip = "skip" in pgTarget ? pgTarget.skip : false;
  it("postgres: the same, in a fresh schema that is dropped afterwards", { skip }, async () => {
    if ("fail" in pgTarget) assert.fail(pgTarget.fail);
    const url = (pgTarget as { url: string }).url;
    const result = await runReliabilityBench({ store: url, ...options });
    assert.equal(result.dialect, "postgres");
    const schema = /schema (\S+)$/.exec(result.location)?.[1];
    assert.ok(schema?.startsWith("reliability_"), result.location);
    assert.doesNotMatch(result.location, /:ramem@|:[^:*@/]+@/, "the password is masked");
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const left = await client.query("SELECT 1 FROM pg_namespace WHERE nspname = $1", [schema]);
      assert.equal(left.rowCount, 0, "the run's schema is dropped");
    } finally {
      await client.end();
    }
    assertConsistent(result);
  });
});
