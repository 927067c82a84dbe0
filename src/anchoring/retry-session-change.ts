import { setTimeout as sleep } from "node:timers/promises";
import { RamemError } from "../model/errors.js";

/** Enough for a burst of writers on one session, on a busy machine; each attempt re-reads it. */
export const SESSION_CHANGE_ATTEMPTS = 12;
/** The longest single wait between two attempts. */
export const MAX_SESSION_CHANGE_WAIT_MS = 2_000;

/**
 * How long to wait before attempt `attempt + 1`: a random share of a window that doubles with each attempt and is
 * measured in the failed attempt's own duration (at least 5 ms). A fixed window in milliseconds was too short where
 * one attempt (read, anchor, compare-and-swap) takes a tenth of a second: under load, a slow writer kept losing the
 * session to faster ones and gave up after its last attempt (a replica test's client got 409 SESSION_CHANGED).
 */
export function sessionChangeWaitMs(attempt: number, attemptMs: number, random: () => number = Math.random): number {
  return Math.min(MAX_SESSION_CHANGE_WAIT_MS, random() * Math.max(5, attemptMs) * 2 ** Math.min(attempt, 10));
}

/**
 * Runs a read-modify-write of one session again when another writer changed
 * the session between its read and its compare-and-swap write
 * (replaceSession's SESSION_CHANGED), after a random wait that grows with each
 * attempt, so writers that keep colliding spread out instead of colliding
 * again. Any other error, or the last SESSION_CHANGED, goes to the caller;
 * nothing of a failed attempt was written.
 */
export async function retrySessionChange<T>(attempt: () => Promise<T>, attempts = SESSION_CHANGE_ATTEMPTS): Promise<T> {
  for (let i = 1; ; i++) {
    const started = performance.now();
    try {
      return await attempt();
    } catch (err) {
      if (!(err instanceof RamemError && err.code === "SESSION_CHANGED") || i >= attempts) throw err;
      await sleep(sessionChangeWaitMs(i, performance.now() - started));
    }
  }
}
