import type { MiddlewareHandler } from "hono";
import { RamemError } from "../../model/errors.js";
import { problemOf, problemResponse } from "../rest/problem.js";

/**
 * Graceful drain (SIGTERM): once started, requests in flight run to the end
 * and every new one is answered 503 with Retry-After, so a load balancer
 * moves on to another replica; `idle` resolves when none is left in flight.
 */
export class DrainGate {
  #inFlight = 0;
  #draining = false;
  #waiters: Array<() => void> = [];

  get draining(): boolean {
    return this.#draining;
  }

  get inFlight(): number {
    return this.#inFlight;
  }

  readonly middleware: MiddlewareHandler = async (c, next) => {
    if (this.#draining) {
      const refused = new RamemError("SERVER_DRAINING", "this server is shutting down and takes no new requests", {
        hint: "retry on another replica, or after the server has restarted",
      });
      return problemResponse(problemOf(refused, c.req.path), { "retry-after": "5" });
    }
    this.#inFlight++;
    try {
      await next();
    } finally {
      this.#inFlight--;
      if (this.#inFlight === 0) for (const wake of this.#waiters.splice(0)) wake();
    }
  };

  /** Starts draining; resolves true when nothing is in flight, false when `timeoutMs` passed first. */
  drain(timeoutMs: number): Promise<boolean> {
    this.#draining = true;
    if (this.#inFlight === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.#waiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }
}
