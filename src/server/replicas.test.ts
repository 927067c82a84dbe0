/**
 * Several `ramem serve` processes on one store: on one PostgreSQL schema (the
 * way to scale out) and on one SQLite file (which must at least never lose or
 * corrupt). Clients of every replica append to the same sessions, correct,
 * supersede and forget; afterwards nothing acknowledged is lost or doubled,
 * every replica's validity equals a fresh derivation, and no replica serves a
 * unit another forgot. RAMEM_REPLICA_SECONDS runs it longer (default 6),
 * RAMEM_REPLICAS with another number of servers (default 2).
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { checkReplicas, runMixedWorkload, startReplica, type Replica } from "./testing/replica-workload.js";
import { postgresTestTarget, uniqueSchema } from "../store/postgres/testing/postgres-test-target.js";

const SECONDS = Number(process.env.RAMEM_REPLICA_SECONDS ?? 6);
/** RAMEM_REPLICAS=1 runs the same workload on one server: the throughput the second is compared with. */
const REPLICAS = Math.max(1, Number(process.env.RAMEM_REPLICAS ?? 2));
const NAMESPACES = ["team-a", "team-b"];

async function runOn(store: string): Promise<void> {
  // The first replica creates the store; the second opens it as it stands.
  const first = await startReplica(store);
  const replicas: Replica[] = [first];
  try {
    while (replicas.length < REPLICAS) replicas.push(await startReplica(store));
    const ack = await runMixedWorkload({ replicas, clients: 4, namespaces: NAMESPACES, sessions: 3, seconds: SECONDS });
    const check = await checkReplicas(store, replicas, ack, NAMESPACES);
    const writes = ack.counts.appends + ack.counts.updates + ack.counts.supersessions + ack.counts.forgets;
    console.log(`# ${store.startsWith("postgres") ? "postgres" : "sqlite"}: ${writes} acknowledged writes in ${SECONDS} s over ${replicas.length} replica(s) (${JSON.stringify(ack.counts)}), ${check.checkedUnits} units checked`);
    assert.ok(ack.counts.appends > 20 && ack.counts.forgets > 0 && ack.counts.updates > 0 && ack.counts.supersessions > 0, JSON.stringify(ack.counts));
    assert.equal(ack.staleReads, 0, "a replica served a unit right after another forgot it");
    assert.deepEqual(check.lost, [], "acknowledged units lost");
    assert.deepEqual(check.duplicated, [], "units or turns stored twice, or never acknowledged");
    assert.deepEqual(check.resurrected, [], "forgotten units still there");
    assert.deepEqual(check.wrongText, [], "units whose text is not the last acknowledged correction");
    assert.deepEqual(check.wrongValidity, [], "validity on a replica differs from a fresh derivation");
  } finally {
    await Promise.all(replicas.map((r) => r.stop()));
  }
}

describe("replicas: two ramem serve processes on one store", () => {
  it("on one SQLite file", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ramem-replicas-"));
    try {
      await runOn(join(dir, "shared.db"));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  const target = postgresTestTarget;
  it("on one PostgreSQL schema", { ...("skip" in target ? { skip: target.skip } : {}) }, async () => {
    assert.ok(!("fail" in target), "fail" in target ? target.fail : "");
    if (!("url" in target)) return;
    const schema = uniqueSchema("replicas");
    const url = new URL(target.url);
    url.searchParams.set("schema", schema);
    try {
      await runOn(url.toString());
    } finally {
      const client = new pg.Client({ connectionString: target.url });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
    }
  });
});
