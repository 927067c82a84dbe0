import { hostname as machineName, networkInterfaces } from "node:os";
import type { MiddlewareHandler } from "hono";
import { RamemError } from "../model/errors.js";
import { echoValue } from "../model/echo-value.js";
import { isLoopbackHost } from "./is-loopback-host.js";
import { problemOf, problemResponse } from "./rest/problem.js";

/**
 * Which Host names and browser Origins the server answers. A page on another
 * site can make a browser send requests to a loopback server two ways: by
 * rebinding its own DNS name to 127.0.0.1 (the request then carries that
 * foreign name as Host) or by a plain cross-site request (it carries the
 * page's Origin). Either would act as the local user of an open server, and
 * a simple POST needs no CORS preflight. So every route, keyed or not, first
 * checks both.
 */
export interface HostOriginPolicy {
  readonly hosts: ReadonlySet<string>;
  readonly anyHost: boolean;
  readonly origins: ReadonlySet<string>;
  readonly anyOrigin: boolean;
}

export interface HostOriginOptions {
  /** The address the server listens on; a wildcard (0.0.0.0, ::) stands for this machine's addresses and host name. */
  boundHost?: string;
  /** More Host names to answer (a DNS name the server is reached by), "*" for any. Loopback names always are. */
  allowedHosts?: readonly string[];
  /** More browser origins to answer ("https://agent.example.com"), "*" for any. Loopback origins always are. */
  allowedOrigins?: readonly string[];
}

const WILDCARD_ADDRESSES = new Set(["", "0.0.0.0", "::", "0:0:0:0:0:0:0:0"]);

export function createHostOriginPolicy(options: HostOriginOptions = {}): HostOriginPolicy {
  const hosts = new Set<string>(["localhost", "127.0.0.1", "::1"]);
  const bound = options.boundHost === undefined ? undefined : normalizeHost(options.boundHost);
  if (bound !== undefined && WILDCARD_ADDRESSES.has(bound)) {
    for (const addresses of Object.values(networkInterfaces())) for (const a of addresses ?? []) hosts.add(normalizeHost(a.address));
    hosts.add(normalizeHost(machineName()));
  } else if (bound) hosts.add(bound);
  const extraHosts = (options.allowedHosts ?? []).map(normalizeHost);
  for (const h of extraHosts) hosts.add(h);
  const extraOrigins = (options.allowedOrigins ?? []).map((o) => o.trim().toLowerCase().replace(/\/+$/, ""));
  return { hosts, anyHost: extraHosts.includes("*"), origins: new Set(extraOrigins), anyOrigin: extraOrigins.includes("*") };
}

/** Why a request is refused, or null when its Host and Origin are both ones the policy answers. */
export function refuseHostOrOrigin(request: Request, policy: HostOriginPolicy): RamemError | null {
  const host = request.headers.get("host");
  // HTTP/1.0 clients may send no Host; a browser always does.
  if (host !== null && !policy.anyHost && !policy.hosts.has(hostOfHeader(host))) {
    return new RamemError("HOST_NOT_ALLOWED", `requests for the host ${echoValue(host)} are not answered (DNS rebinding protection)`, {
      hint: "call the server by a loopback name or the address it listens on, or start it with --allowed-hosts NAME (library: allowedHosts)",
    });
  }
  const origin = request.headers.get("origin");
  if (origin !== null && !policy.anyOrigin && !originAllowed(origin, policy)) {
    return new RamemError("ORIGIN_NOT_ALLOWED", `requests from the browser origin ${echoValue(origin)} are not accepted`, {
      hint: "call from a loopback page or a non-browser client, or start the server with --allowed-origins ORIGIN (library: allowedOrigins)",
    });
  }
  return null;
}

/** The guard as middleware: a 403 problem before authentication, validation or any route. */
export function hostOriginGuard(policy: HostOriginPolicy): MiddlewareHandler {
  return async (c, next) => {
    const refused = refuseHostOrOrigin(c.req.raw, policy);
    if (refused) return problemResponse(problemOf(refused, c.req.path));
    await next();
  };
}

function originAllowed(origin: string, policy: HostOriginPolicy): boolean {
  if (policy.origins.has(origin.trim().toLowerCase().replace(/\/+$/, ""))) return true;
  try {
    return isLoopbackHost(new URL(origin).hostname);
  } catch {
    // "null" (sandboxed frames, file:) and garbage are foreign.
    return false;
  }
}

/** "Example.com.:8787" → "example.com", "[::1]:8787" → "::1". */
function hostOfHeader(header: string): string {
  const h = header.trim();
  const bracketed = /^\[([^\]]*)\](?::\d*)?$/.exec(h);
  if (bracketed) return normalizeHost(bracketed[1]!);
  const colons = h.split(":").length - 1;
  // One colon: name:port. More: a bare IPv6 address (not valid in Host, but unambiguous).
  return normalizeHost(colons === 1 ? h.slice(0, h.indexOf(":")) : h);
}

function normalizeHost(host: string): string {
  return host.trim().toLowerCase().replace(/^\[(.*)\]$/, "$1").replace(/\.$/, "");
}
