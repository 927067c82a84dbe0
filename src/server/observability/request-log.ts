import type { Context, MiddlewareHandler } from "hono";
import type { Logger } from "pino";
import { routePath } from "hono/route";
import { PROBLEM_CONTENT_TYPE } from "../rest/problem.js";

export const REQUEST_ID_HEADER = "x-request-id";
const ERRORS_LOGGED = "ramem.errorsLogged";

/** True when this request's log line will carry its error: an error handler need not print it too. */
export function errorsAreLogged(c: Context): boolean {
  return (c.get as (key: string) => unknown)(ERRORS_LOGGED) === true;
}

/** The pattern of the route that answered ("/v1/namespaces/:ns/recall"): what the log and the metrics name a request by, never a namespace or an id. */
export function answeringRoute(c: Context): string {
  return routePath(c, c.req.routeIndex) || "unmatched";
}

/** The request id the server gives each request (hono's requestId middleware: the caller's X-Request-Id when it is sane, else a UUID). */
export function requestIdOf(c: Context): string | undefined {
  return (c.get as (key: string) => unknown)("requestId") as string | undefined;
}

/**
 * One JSON line per answered request (pino): its id, method, path, matched
 * route, status and milliseconds; a 5xx at level error with the error that
 * caused it. Never a body, a query or a key. Every problem response (4xx,
 * 5xx) also gets the id as `requestId`, so what a caller reports can be
 * found in the log.
 */
export function requestLog(logger: Logger | undefined): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    if (logger) c.set(ERRORS_LOGGED as never, true as never);
    await next();
    const id = requestIdOf(c);
    if (id !== undefined) {
      // An error handler's response is new: it has neither the id header nor the id.
      if (c.res.headers.get("content-type")?.startsWith(PROBLEM_CONTENT_TYPE)) {
        const problem = (await c.res.clone().json()) as Record<string, unknown>;
        const headers = new Headers(c.res.headers);
        headers.set(REQUEST_ID_HEADER, id);
        c.res = new Response(JSON.stringify({ ...problem, requestId: id }), { status: c.res.status, headers });
      } else if (!c.res.headers.has(REQUEST_ID_HEADER)) {
        c.header(REQUEST_ID_HEADER, id);
      }
    }
    if (!logger) return;
    const status = c.res.status;
    const line = {
      requestId: id,
      method: c.req.method,
      path: c.req.path,
      route: answeringRoute(c),
      status,
      ms: Math.round((performance.now() - started) * 10) / 10,
    };
    if (status >= 500) logger.error({ ...line, ...(c.error ? { err: c.error } : {}) }, "request failed");
    else logger.info(line, "request");
  };
}
