import { Hono } from "hono";
import { createAdaptorServer } from "@hono/node-server";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import type { Memory } from "../memory.js";
import type { ApiKeyStore } from "../store/api-key-contract.js";
import { RamemError } from "../model/errors.js";
import { createAuthenticator, hasActiveKeys, hasEverHeldKeys, type Authenticate, type OpenMode } from "./auth/authenticate.js";
import { isLoopbackHost } from "./is-loopback-host.js";
import { createHostOriginPolicy, hostOriginGuard } from "./host-origin-guard.js";
import { createRestApp, problemForError, routeNotFound } from "./rest/create-rest-app.js";
import { createMcpHttpApp } from "./mcp/create-mcp-http-app.js";
import type { RestApp } from "./rest/rest-deps.js";
import { createUiApp } from "./ui/create-ui-app.js";
import { requestId } from "hono/request-id";
import type { Logger } from "pino";
import { createServerMetrics, type ServerMetrics, type ServerMetricsOptions } from "./observability/server-metrics.js";
import { createMetricsApp } from "./observability/metrics-app.js";
import { requestLog } from "./observability/request-log.js";
import { DrainGate } from "./observability/drain.js";

export const DEFAULT_HOST = "127.0.0.1";
export const DEFAULT_PORT = 8787;
/** After a drain, how long the last responses get to be written before their connections are cut. */
const DRAIN_FLUSH_MS = 2_000;

/**
 * What a sub-app mounted next to the REST API (the MCP HTTP transport at /mcp)
 * gets to share: the same Memory (so the same per-namespace write lock) and
 * the same key check.
 */
export interface SubAppDeps {
  memory: Memory;
  authenticate: Authenticate;
}

export interface StartServerOptions {
  memory: Memory;
  keys: ApiKeyStore;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  maxBodyBytes?: number;
  maxImportBytes?: number;
  /**
   * Extra apps mounted before the REST routes, keyed by path, e.g.
   * `{ "/mcp": (deps) => createMcpHttpApp({ memory: deps.memory, authenticate: deps.authenticate }) }`.
   * They share the server's authentication and Memory (whose methods hold the per-namespace write lock).
   * They get the raw request: no REST middleware reads the body first.
   */
  subApps?: Record<string, (deps: SubAppDeps) => Hono<any, any, any>>;
  /**
   * MCP over streamable HTTP at /mcp, with the same keys and Memory as the REST
   * API (default on; false leaves it out). `allowedOrigins` is the same as the
   * top-level option (kept for callers that set it here). A `subApps["/mcp"]` replaces it.
   */
  mcp?: boolean | { allowedOrigins?: readonly string[] };
  /**
   * Host names answered besides loopback names and the bound address (a DNS
   * name the server is reached by); "*" answers any. Every route checks it.
   */
  allowedHosts?: readonly string[];
  /** Browser origins answered besides loopback ones; "*" answers any. Every route checks it. */
  allowedOrigins?: readonly string[];
  /**
   * Answer requests without a key as the local admin for the server's whole
   * life, whatever keys exist (`ramem serve --open`). Loopback only. Without
   * it the server is open only when its key store has never held a key, and
   * only until the first one is created.
   */
  open?: boolean;
  /** Where the open-mode warning goes (default stderr). */
  warn?: (message: string) => void;
  /**
   * The inspector web UI at /ui (default on): static files only; its views
   * call the REST API with the user's key. false leaves it out; a string is
   * the folder of a build other than the shipped dist/ui/.
   */
  ui?: boolean | string;
  /** Bench report files the inspector's benchmark viewer lists (GET /v1/bench-results); `ramem serve --bench-results`. */
  benchResults?: readonly string[];
  /**
   * Prometheus metrics at `GET /metrics`, for an admin key (default on;
   * false leaves them out). The object sets how many namespaces the
   * store-size gauges show and whether Node's process metrics are included.
   */
  metrics?: boolean | Omit<ServerMetricsOptions, "memory">;
  /** Also serve `/metrics`, without a key, on 127.0.0.1 at this port (0: any free one): `ramem serve --metrics-port`. */
  metricsPort?: number;
  /** One JSON line per request (pino); none without. Every response carries an X-Request-Id either way. */
  logger?: Logger;
}

export interface RunningServer {
  url: string;
  /** The inspector's address (url + "/ui/"); null when started with ui: false. */
  uiUrl: string | null;
  host: string;
  port: number;
  /** How requests without a key are treated, decided at start (see OpenMode). */
  openMode: OpenMode;
  /** True when requests without a key are answered at start (loopback only). */
  open: boolean;
  app: Hono;
  rest: RestApp;
  /** The metrics the server keeps (null with metrics: false). */
  metrics: ServerMetrics | null;
  /** The loopback metrics listener's address (`metricsPort`), else null. */
  metricsUrl: string | null;
  /**
   * Graceful stop: new requests get 503 (SERVER_DRAINING) at once, those in
   * flight run to the end (at most `timeoutMs`, default 30 s), then the
   * server closes. Resolves true when all finished in time.
   */
  drain(options?: { timeoutMs?: number }): Promise<boolean>;
  /** Requests being answered now. */
  inFlight(): number;
  /** Stops at once: open connections are cut. */
  close(): Promise<void>;
}

/**
 * Starts the HTTP server. Refuses to bind a non-loopback host while no active
 * API key exists: that would publish every namespace to the network. On
 * loopback it runs open, as the local user, only when the key store has never
 * held a key (until one is created) or when asked (`open`), and says so
 * loudly; a store whose keys were all revoked stays closed.
 */
export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const host = options.host ?? DEFAULT_HOST;
  const loopback = isLoopbackHost(host);
  const warn = options.warn ?? ((m) => process.stderr.write(`${m}\n`));
  if (options.open && !loopback) {
    throw new RamemError("OPEN_NOT_ON_LOOPBACK", `refusing to run open on ${host}: it is reachable from other machines`, {
      hint: "--open is for loopback only (--host 127.0.0.1); on a network interface every request needs a key",
    });
  }
  const keysExist = await hasActiveKeys(options.keys);
  if (!loopback && !keysExist) {
    throw new RamemError("NO_API_KEYS", `refusing to listen on ${host}: it is reachable from other machines and no API key exists, so every namespace would be open to them`, {
      hint: 'create a key first: ramem keys create --name my-agent --role write --namespace my-agent (then send "Authorization: Bearer rm_..."), or listen on 127.0.0.1',
    });
  }
  // Open mode is decided here, once: revoking keys later never reopens the server.
  const openMode: OpenMode = options.open ? "explicit" : loopback && !(await hasEverHeldKeys(options.keys)) ? "until-first-key" : "closed";
  if (openMode !== "closed") {
    warn(
      `WARNING: ${openMode === "explicit" ? "--open" : "no API keys exist"}: the server on ${host} answers every request without a key as the local admin, for every namespace. ` +
        (openMode === "explicit" ? "Restart without --open to require keys." : "Create a key (ramem keys create --name NAME --role write --namespace NS) to require keys."),
    );
  } else if (!keysExist) {
    warn(
      `WARNING: every API key of this store is revoked: the server on ${host} refuses every request (401) until a key is created (ramem keys create). ` +
        "To run it open on loopback on purpose: ramem serve --open.",
    );
  }
  const authenticate = createAuthenticator({ keys: options.keys, open: openMode });
  const memory = options.memory;
  const rest = createRestApp({
    memory,
    authenticate,
    ...(options.maxBodyBytes !== undefined ? { maxBodyBytes: options.maxBodyBytes } : {}),
    ...(options.maxImportBytes !== undefined ? { maxImportBytes: options.maxImportBytes } : {}),
    ...(options.benchResults ? { benchResults: options.benchResults } : {}),
  });
  const hostOriginPolicy = createHostOriginPolicy({
    boundHost: host,
    allowedHosts: options.allowedHosts ?? [],
    allowedOrigins: [...(options.allowedOrigins ?? []), ...(typeof options.mcp === "object" ? (options.mcp.allowedOrigins ?? []) : [])],
  });
  const app = new Hono();
  app.notFound(routeNotFound);
  app.onError(problemForError);
  const metrics = options.metrics === false ? null : createServerMetrics({ memory, ...(typeof options.metrics === "object" ? options.metrics : {}) });
  const gate = new DrainGate();
  // Outermost, so that every answer, the guard's refusals and a drain's 503s included, has an id, a log line and a count.
  app.use("*", requestId());
  app.use("*", requestLog(options.logger));
  if (metrics) app.use("*", metrics.middleware);
  app.use("*", gate.middleware);
  // First, for every route (REST, /mcp, sub-apps, /health): a DNS-rebinding or cross-site page is refused before anything runs.
  app.use("*", hostOriginGuard(hostOriginPolicy));
  // Sub-apps first, so the REST app's not-found handler does not answer for them.
  // `ramem serve` mounts the MCP streamable-HTTP app here at "/mcp" (see StartServerOptions.subApps).
  for (const [path, make] of Object.entries(options.subApps ?? {})) {
    app.route(path, make({ memory, authenticate }));
  }
  if (options.mcp !== false && !(options.subApps && "/mcp" in options.subApps)) {
    // The REST app's middleware (auth, body limits) is bound to /v1/*, so nothing reads the body before the
    // MCP transport does; the transport caps a message at 4 MiB itself, and a tool's own checks refuse a turn over 64,000 characters.
    app.route("/mcp", createMcpHttpApp({ memory, authenticate, hostOriginPolicy }));
  }
  if (options.ui !== false) app.route("/ui", createUiApp(typeof options.ui === "string" ? { assetsDir: options.ui } : {}));
  if (metrics) app.route("/", createMetricsApp(metrics, authenticate));
  app.route("/", rest);

  const server = await listen(app, host, options.port ?? DEFAULT_PORT, "--port");
  let metricsServer: Server | null = null;
  if (metrics && options.metricsPort !== undefined) {
    try {
      // Loopback only, whatever --host is: these metrics are read without a key.
      metricsServer = await listen(createMetricsApp(metrics), DEFAULT_HOST, options.metricsPort, "--metrics-port");
    } catch (err) {
      await closeServer(server);
      throw err;
    }
  }
  const address = server.address() as AddressInfo;
  const urlHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
  const close = async (graceMs = 0) => {
    metrics?.close();
    await Promise.all([closeServer(server, graceMs), metricsServer ? closeServer(metricsServer, graceMs) : undefined]);
  };
  return {
    url: `http://${urlHost}:${address.port}`,
    uiUrl: options.ui === false ? null : `http://${urlHost}:${address.port}/ui/`,
    host,
    port: address.port,
    openMode,
    open: openMode !== "closed",
    app,
    rest,
    metrics,
    metricsUrl: metricsServer ? `http://${DEFAULT_HOST}:${(metricsServer.address() as AddressInfo).port}` : null,
    async drain(drainOptions = {}) {
      const finished = await gate.drain(drainOptions.timeoutMs ?? 30_000);
      await close(finished ? DRAIN_FLUSH_MS : 0);
      return finished;
    },
    close: () => close(),
    inFlight: () => gate.inFlight,
  };
}

async function listen(app: { fetch: (request: Request) => Response | Promise<Response> }, host: string, port: number, flag: string): Promise<Server> {
  const server = createAdaptorServer({ fetch: app.fetch, hostname: host, port }) as Server;
  await new Promise<void>((resolve, reject) => {
    server.once("error", (err: NodeJS.ErrnoException) =>
      reject(
        new RamemError("LISTEN_FAILED", `cannot listen on ${host}:${port}: ${err.message}`, {
          hint: err.code === "EADDRINUSE" ? `another process uses this port: pick another with ${flag}` : `check --host and ${flag}`,
          cause: err,
        }),
      ),
    );
    server.listen(port, host, () => resolve());
  });
  return server;
}

/**
 * Stops listening and closes the connections: at once, or, after a drain,
 * idle ones at once and busy ones when their response is written (a handler
 * that returned has not yet sent its body), cut after `graceMs` at most.
 */
function closeServer(server: Server, graceMs = 0): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const cut = setTimeout(() => server.closeAllConnections(), graceMs);
    server.close((err) => {
      clearTimeout(cut);
      if (err) reject(err);
      else resolve();
    });
    server.closeIdleConnections();
    if (graceMs === 0) server.closeAllConnections();
  });
}

