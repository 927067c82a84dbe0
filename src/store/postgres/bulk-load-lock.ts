import type pg from "pg";
import { RamemError } from "../../model/errors.js";
import { createSessionClient } from "./connection.js";

/**
 * Takes the schema's bulk-load lock (bulk-load.ts: one bulk load per schema at
 * a time) and returns the connection that holds it; ending that connection
 * lets go of the lock. A second load is refused, BULK_LOAD_BUSY, before it
 * touches anything.
 *
 * A connection of its own, outside the pool: held idle for the whole load, it
 * would take one of the pool's few (a pool of one could never bulk load), and
 * a pooled client that dies while lent out emits an 'error' nothing handles,
 * which ends the process. Should it die, the load goes on; the lock went with
 * the session. Per database, keyed by the schema: two stores in one database
 * load side by side. `driverError` turns a driver's failure into the store's
 * error, as every other call of the store does.
 */
export async function takeBulkLoadLock(pool: pg.Pool, schema: string, location: string, driverError: (err: unknown) => unknown): Promise<pg.Client> {
  const client = createSessionClient(pool, "ramem bulk-load lock");
  const end = () => client.end().catch(() => undefined);
  let taken: boolean;
  try {
    await client.connect();
    taken = (await client.query<{ taken: boolean }>("SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS taken", [`ramem bulk load ${schema}`])).rows[0]!.taken;
  } catch (err) {
    await end();
    throw driverError(err);
  }
  if (!taken) {
    await end();
    throw new RamemError("BULK_LOAD_BUSY", `another bulk load into schema ${schema} is running`, {
      where: location,
      hint: "wait for it to finish (its index build would be dropped by this one), or load into another ?schema=; nothing was written",
    });
  }
  return client;
}
