import { setTimeout as sleep } from "node:timers/promises";
import { RamemError } from "../model/errors.js";

/** Enough for a burst of writers on one session; each attempt re-reads it. */
export const SESSION_CHANGE_ATTEMPTS = 8;

/**
 * Runs a read-modify-write of one session again when another writer changed
 * the session between its read and its compare-and-swap write
 * (replaceSession's SESSION_CHANGED), after a short random wait that grows
 * with each attempt, so writers that keep colliding spread out instead of
 * colliding again. Any other error, or the last SESSION_CHANGED, goes to the
 * caller; nothing of a failed attempt was written.
 */
export async function retrySessionChange<T>(attempt: () => Promise<T>, attempts = SESSION_CHANGE_ATTEMPTS): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await attempt();
    } catch (err) {
      if (!(err instanceof RamemError && err.code === "SESSION_CHANGED") || i >= attempts) throw err;
      await sleep(Math.random() * 5 * 2 ** i);
    }
  }
}
