import { Hono } from "hono";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { Memory } from "../../memory.js";
import type { Principal } from "../auth/principal.js";
import type { Authenticate } from "../auth/authenticate.js";
import { RamemError } from "../../model/errors.js";
import { createMcpServer } from "./create-mcp-server.js";
import { guardToolCalls } from "./guard-tool-calls.js";
import { decodeUtf8 } from "../../util/decode-utf8.js";
import { problemType } from "../rest/problem.js";
import { createHostOriginPolicy, hostOriginGuard, type HostOriginPolicy } from "../host-origin-guard.js";

/** Returns the caller, or throws a RamemError with code UNAUTHORIZED (no or unknown key) or FORBIDDEN: the server's own authenticator. */
export type { Authenticate };

export interface McpHttpAppOptions {
  memory: Memory;
  authenticate: Authenticate;
  /**
   * Browser origins allowed besides loopback ones (e.g. "https://agent.example.com").
   * Requests without an Origin header (every non-browser client) are not affected.
   * Ignored when `hostOriginPolicy` is given.
   */
  allowedOrigins?: readonly string[];
  /**
   * The Host/Origin allow-list (host-origin-guard.ts); `startServer` passes its
   * own, the one every route of the server checks. Default: loopback hosts and
   * origins plus `allowedOrigins`.
   */
  hostOriginPolicy?: HostOriginPolicy;
  /** Clock for turns given without a time (tests pin it). */
  now?: () => Date;
}

/**
 * MCP over streamable HTTP, as a Hono app to mount (`app.route("/mcp", createMcpHttpApp(...))`).
 *
 * Stateless: every POST authenticates its own key and gets a fresh McpServer
 * and transport bound to that key's principal, answered as one JSON response
 * (no SSE, no Mcp-Session-Id). Nothing about a caller survives between
 * requests, so a server session can never carry one key's rights into another
 * key's call, and any number of server processes can share the work. The
 * tools are request/response, so streaming would buy nothing. GET (a
 * server-to-client event stream) and DELETE (ending a session) have nothing to
 * act on in this mode and answer 405, after authentication.
 *
 * A request for a foreign Host or from a foreign browser Origin is refused
 * (403) before anything else, as the MCP spec requires: on a loopback server
 * without keys (the local principal) a DNS-rebinding page could otherwise act
 * as the local user. The check is the server's one guard (host-origin-guard.ts).
 */
export function createMcpHttpApp(options: McpHttpAppOptions): Hono {
  const app = new Hono();
  app.use("*", hostOriginGuard(options.hostOriginPolicy ?? createHostOriginPolicy({ allowedOrigins: options.allowedOrigins ?? [] })));
  app.all("/", async (c) => {
    let principal: Principal;
    try {
      principal = await options.authenticate(c.req.raw);
    } catch (err) {
      return authProblem(err);
    }
    if (c.req.method !== "POST") {
      return problem(405, "METHOD_NOT_ALLOWED", `${c.req.method} is not used: this MCP endpoint is stateless (no event stream, no sessions)`, "send MCP messages with POST", {
        Allow: "POST",
      });
    }
    const notUtf8 = await invalidUtf8(c.req.raw);
    if (notUtf8) return notUtf8;
    const server = createMcpServer({ memory: options.memory, principal, ...(options.now ? { now: options.now } : {}) });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    guardToolCalls(transport);
    try {
      // In JSON mode the Response is complete when this resolves, so closing afterwards loses nothing.
      return await transport.handleRequest(c.req.raw);
    } finally {
      await server.close();
    }
  });
  return app;
}

/**
 * A body that is not UTF-8 gets the JSON-RPC parse error, naming the first
 * invalid byte, before the transport's JSON parser would turn it into U+FFFD
 * (model/stored-text.ts for the rule).
 */
async function invalidUtf8(request: Request): Promise<Response | null> {
  try {
    decodeUtf8(new Uint8Array(await request.clone().arrayBuffer()), "body");
    return null;
  } catch (err) {
    if (!(err instanceof RamemError)) throw err;
    return Response.json({ jsonrpc: "2.0", id: null, error: { code: -32700, message: `Parse error: ${err.message}` } }, { status: 400 });
  }
}

function authProblem(err: unknown): Response {
  if (err instanceof RamemError && (err.code === "UNAUTHORIZED" || err.code === "FORBIDDEN")) {
    const status = err.code === "UNAUTHORIZED" ? 401 : 403;
    return problem(status, err.code, err.message, err.hint, status === 401 ? { "WWW-Authenticate": 'Bearer realm="ramem"' } : {});
  }
  // Failing closed: an authenticator that breaks must not let the call through.
  const detail = err instanceof Error ? err.message : String(err);
  return problem(500, "AUTH_FAILED", `authentication failed: ${detail}`, "retry; if it persists, check the server log");
}

const TITLES: Record<number, string> = { 401: "Unauthorized", 403: "Forbidden", 405: "Method Not Allowed", 500: "Internal Server Error" };

/** RFC 9457 problem details, with ramem's stable code and hint as extensions. */
function problem(status: number, code: string, detail: string, hint: string | undefined, headers: Record<string, string> = {}): Response {
  const body = { type: problemType(code), title: TITLES[status] ?? "Error", status, detail, code, ...(hint ? { hint } : {}) };
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/problem+json", ...headers } });
}
