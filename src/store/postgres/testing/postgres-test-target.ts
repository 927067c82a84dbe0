import { randomBytes } from "node:crypto";
import { describe, it } from "node:test";
import pg from "pg";

/**
 * Where the Postgres tests run, decided once per test file:
 * - RAMEM_TEST_POSTGRES_URL set and the server answers: the tests run;
 * - otherwise they are reported as skipped with the reason, or, with
 *   RAMEM_REQUIRE_POSTGRES=1 (CI), as one failing test with that reason.
 */
export type PostgresTestTarget = { url: string } | { skip: string } | { fail: string };

const START_HINT = "start one with: export RAMEM_TEST_POSTGRES_URL=$(scripts/postgres-test-server.sh)";

async function probe(env: NodeJS.ProcessEnv): Promise<PostgresTestTarget> {
  const url = env.RAMEM_TEST_POSTGRES_URL?.trim();
  const required = env.RAMEM_REQUIRE_POSTGRES === "1";
  const unusable = (reason: string): PostgresTestTarget => (required ? { fail: `RAMEM_REQUIRE_POSTGRES=1 but ${reason}` } : { skip: reason });
  if (!url) return unusable(`RAMEM_TEST_POSTGRES_URL is not set (${START_HINT})`);
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query("SELECT 1");
    return { url };
  } catch (err) {
    return unusable(`the server at RAMEM_TEST_POSTGRES_URL is unreachable: ${(err as Error).message} (${START_HINT})`);
  } finally {
    await client.end().catch(() => {});
  }
}

export const postgresTestTarget: PostgresTestTarget = await probe(process.env);

/** A schema name no other test (file, process, run) uses: each store opened with it starts empty. */
export function uniqueSchema(prefix = "t"): string {
  return `${prefix}_${process.pid}_${randomBytes(5).toString("hex")}`;
}

/**
 * `describe(name, body)` when a server is reachable; otherwise one skipped
 * test carrying the reason (or, when required, one failing test).
 */
export function describeWithPostgres(name: string, body: (url: string) => void): void {
  const t = postgresTestTarget;
  if ("url" in t) describe(name, () => body(t.url));
  else if ("fail" in t)
    it(name, () => {
      throw new Error(t.fail);
    });
  else it(name, { skip: t.skip }, () => {});
}
