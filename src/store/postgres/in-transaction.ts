import type pg from "pg";

/**
 * Runs `fn` on one pooled client inside BEGIN … COMMIT; any failure rolls the
 * whole transaction back and is rethrown. Settings made with SET LOCAL or
 * set_config(…, true) end with it, so pooled clients come back clean.
 */
export async function inTransaction<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query("BEGIN");
    const out = await fn(client);
    await client.query("COMMIT");
    return out;
  } catch (err) {
    await client.query("ROLLBACK").catch(() => {
      broken = true;
    });
    throw err;
  } finally {
    // A client whose ROLLBACK failed has lost its connection: drop it rather than pool it.
    client.release(broken);
  }
}
