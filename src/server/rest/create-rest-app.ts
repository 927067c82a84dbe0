import { OpenAPIHono } from "@hono/zod-openapi";
import { bodyLimit } from "hono/body-limit";
import { errorsAreLogged } from "../observability/request-log.js";
import { HTTPException } from "hono/http-exception";
import type { Context, MiddlewareHandler } from "hono";
import { RamemError } from "../../model/errors.js";
import { decodeUtf8 } from "../../util/decode-utf8.js";
import type { Role } from "../../store/api-key-contract.js";
import { authMiddleware, authorize, type AuthEnv } from "../auth/middleware.js";
import { problemOf, problemResponse, validationProblem } from "./problem.js";
import { DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_IMPORT_BYTES, type RestApp, type RestDeps } from "./rest-deps.js";
import { registerHealthRoutes } from "./routes/health-routes.js";
import { registerInspectorRoutes } from "./routes/inspector-routes.js";
import { registerMemoryRoutes } from "./routes/memory-routes.js";
import { registerNamespaceRoutes } from "./routes/namespace-routes.js";
import { registerPortabilityRoutes } from "./routes/portability-routes.js";
import { registerRecallRoutes } from "./routes/recall-routes.js";
import { registerSessionRoutes } from "./routes/session-routes.js";
import { createMem0App } from "../mem0-compat/create-mem0-app.js";

export const API_VERSION = "1.0.0";

/**
 * The REST API as a Hono app (no listening socket: serve.ts does that, tests
 * may call app.request). Order of checks on every /v1 request, and why:
 *   1. authenticate (401) — nothing about the data is said to an unknown caller;
 *   2. namespace grant and role (403), from the path and the key alone, before
 *      anything is looked up, so a 403 never depends on whether the namespace exists;
 *   3. body size (413), UTF-8 (400), then the route's validation (400), then the handler.
 */
export function createRestApp(deps: RestDeps): RestApp {
  const app: RestApp = new OpenAPIHono<AuthEnv>({
    defaultHook: (result, c) => {
      if (!result.success) return problemResponse(validationProblem(result.error.issues, result.target === "json" ? "body" : result.target, c.req.path));
      return undefined;
    },
  });

  app.onError(problemForError);
  app.notFound(routeNotFound);

  app.openAPIRegistry.registerComponent("securitySchemes", "apiKey", {
    type: "http",
    scheme: "bearer",
    description: "An API key from `ramem keys create` (rm_...)",
  });
  const openApiConfig = {
    openapi: "3.1.0",
    info: {
      title: "ramem",
      version: API_VERSION,
      description: "Long-term memory for LLM agents: ingest conversations, recall evidence from the right episode. Errors are RFC 9457 problem details.",
    },
    security: [{ apiKey: [] }],
  };
  // Not app.doc31: the generator marks a path parameter `required: false` when its schema accepts null
  // (z.coerce.number() does: Number(null) is 0), and OpenAPI requires `true` for every path parameter;
  // validators and client generators reject the whole document over it (openapi.test.ts).
  app.get("/openapi.json", (c) => c.json(requirePathParameters(app.getOpenAPI31Document(openApiConfig))));
  registerHealthRoutes(app);
  // Mem0's platform paths for Mem0's own MemoryClient (mem0-compat/README.md), mounted before the /v1/* middleware below:
  // its handlers answer first, with their own auth and limits bound to its paths only; its routes join this OpenAPI document.
  app.route("/", createMem0App(deps));

  const maxBody = deps.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const maxImport = deps.maxImportBytes ?? DEFAULT_MAX_IMPORT_BYTES;
  app.use("/v1/*", authMiddleware(deps.authenticate));
  app.use("/v1/namespaces/:ns", namespaceGate());
  app.use("/v1/namespaces/:ns/*", namespaceGate());
  const normalLimit = limit(maxBody);
  const importLimit = limit(maxImport);
  app.use("/v1/*", (c, next) => (c.req.method === "POST" && c.req.path.endsWith("/import") ? importLimit(c, next) : normalLimit(c, next)));
  app.use("/v1/*", utf8Body());

  registerNamespaceRoutes(app, deps);
  registerSessionRoutes(app, deps);
  registerMemoryRoutes(app, deps);
  registerRecallRoutes(app, deps);
  registerPortabilityRoutes(app, deps);
  registerInspectorRoutes(app, deps);
  return app;
}

/**
 * The role a request needs, from its method and path alone. Handlers check
 * again (authorize) where they run; this copy only makes the 403 come before
 * any validation or lookup.
 */
export function roleFor(method: string, path: string): Role {
  if (method === "GET" || method === "HEAD") return "read";
  if (method === "POST" && /\/(recall|ask|recall\/explain)$/.test(path)) return "read";
  if (method === "DELETE" && /^\/v1\/namespaces\/[^/]+\/?$/.test(path)) return "admin";
  return "write";
}

function namespaceGate(): MiddlewareHandler<AuthEnv> {
  return async (c, next) => {
    const ns = c.req.param("ns") ?? "";
    authorize(c.get("principal"), ns, roleFor(c.req.method, c.req.path));
    await next();
  };
}

function limit(maxSize: number): MiddlewareHandler<AuthEnv> {
  return bodyLimit({
    maxSize,
    onError: (c) =>
      problemResponse(
        problemOf(
          new RamemError("PAYLOAD_TOO_LARGE", `the request body is over the limit of ${maxSize} bytes`, {
            hint: `send less per request (a turn holds at most 64,000 characters; split large sessions into appends) or start the server with a larger --max-body; nothing was stored`,
          }),
          c.req.path,
        ),
        // The rest of the body is never read: tell the client not to reuse this connection.
        { connection: "close" },
      ),
  });
}

/**
 * A body that is not UTF-8 is refused with the offset of its first invalid
 * byte, before any JSON parser replaces it with U+FFFD (model/stored-text.ts
 * for the rule). The bytes read stay cached for the route's own parser.
 */
function utf8Body(): MiddlewareHandler<AuthEnv> {
  return async (c, next) => {
    if (c.req.method === "POST" || c.req.method === "PUT" || c.req.method === "PATCH") decodeUtf8(new Uint8Array(await c.req.arrayBuffer()), "body");
    await next();
  };
}

/** Not-found handler, shared with the root app that mounts sub-apps next to this one. */
export function routeNotFound(c: Context): Response {
  return problemResponse(
    problemOf(new RamemError("ROUTE_NOT_FOUND", `no route ${c.req.method} ${c.req.path}`, { hint: "the routes are listed in GET /openapi.json" }), c.req.path),
  );
}

/** Error handler: RamemError → its problem, Hono's HTTP errors → problems, anything else → 500 without internals. */
export function problemForError(err: Error, c: Context): Response {
  return problemResponse(toProblem(err, c));
}

function toProblem(err: Error, c: Context) {
  const path = c.req.path;
  if (err instanceof RamemError) return problemOf(err, path);
  if (err instanceof HTTPException) {
    if (err.status === 400 && /JSON/i.test(err.message)) {
      return problemOf(new RamemError("MALFORMED_JSON", "the request body is not valid JSON", { hint: "send one JSON object with Content-Type: application/json; nothing was stored" }), path);
    }
    if (err.status === 415) {
      return problemOf(new RamemError("UNSUPPORTED_MEDIA_TYPE", "the request body must be JSON", { hint: "send Content-Type: application/json" }), path);
    }
    const p = problemOf(new RamemError("HTTP_ERROR", err.message || `HTTP ${err.status}`), path);
    return { ...p, status: err.status, title: err.status === 413 ? "Content Too Large" : p.title };
  }
  // A bug, not a user error: log it (the request log does, with the request id, when the server has one), tell the caller nothing internal.
  if (!errorsAreLogged(c)) console.error("ramem server: unhandled error", err);
  return problemOf(new RamemError("INTERNAL", "the server failed to handle this request", { hint: "see the server log; report it if it persists" }), path);
}

/** The document with every path parameter `required: true`, as OpenAPI demands (a path cannot lack one of its segments). */
function requirePathParameters<D extends { paths?: Record<string, unknown> }>(document: D): D {
  for (const item of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(item as Record<string, { parameters?: unknown }>)) {
      for (const parameter of Array.isArray(operation?.parameters) ? operation.parameters : []) {
        if ((parameter as { in?: unknown }).in === "path") (parameter as { required?: boolean }).required = true;
      }
    }
  }
  return document;
}
