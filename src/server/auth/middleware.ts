import type { MiddlewareHandler } from "hono";
import type { Role } from "../../store/api-key-contract.js";
import { RamemError } from "../../model/errors.js";
import type { Authenticate } from "./authenticate.js";
import { mayAccess, roleAllows, type Principal } from "./principal.js";
import { echoValue } from "../../model/echo-value.js";

export interface AuthEnv {
  Variables: { principal: Principal };
}

/** Resolves the caller once per request; a failure becomes a 401 problem in the app's error handler. */
export function authMiddleware(authenticate: Authenticate): MiddlewareHandler<AuthEnv> {
  return async (c, next) => {
    c.set("principal", await authenticate(c.req.raw));
    await next();
  };
}

/**
 * Refuses before anything is looked up: the answer for a namespace the key
 * was not granted is the same 403 whether that namespace exists or not, so a
 * key learns nothing about other tenants.
 */
export function authorize(principal: Principal, namespace: string, needs: Role): void {
  if (mayAccess(principal, namespace, needs)) return;
  if (principal.namespaces !== "all" && !principal.namespaces.includes(namespace)) {
    throw new RamemError("FORBIDDEN", `this API key may not access namespace ${echoValue(namespace)}`, {
      hint: "use a key granted this namespace (ramem keys create --namespace ...)",
    });
  }
  if (!roleAllows(principal.role, needs)) {
    throw new RamemError("FORBIDDEN", `this API key has role ${principal.role}; this call needs ${needs}`, {
      hint: `use a key with role ${needs} or higher`,
    });
  }
}
