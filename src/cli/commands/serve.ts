import { Command } from "commander";
import { addStoreOptions, collectList, openFromOptions, parsePositiveInt, runAction, type CommonOptions } from "../shared.js";
import { resolveStoreLocation } from "../store-location.js";
import { openApiKeyStore } from "../../store/open-api-key-store.js";
import { DEFAULT_HOST, DEFAULT_PORT, startServer } from "../../server/serve.js";
import { DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_IMPORT_BYTES } from "../../server/rest/rest-deps.js";
import { InvalidArgumentError } from "commander";
import { waitForShutdown } from "../wait-for-shutdown.js";
import { cliOut, cliErr } from "../io.js";
import { resolve } from "node:path";
import { existsSync, rmSync } from "node:fs";
import { isPostgresUrl } from "../../store/open-store.js";
import { hasEverHeldKeys } from "../../server/auth/authenticate.js";
import { pino, type Logger } from "pino";

/**
 * The files opening `location` would create, or null when it names a store that exists (or is not a file).
 * Only these may be removed again when the server never starts.
 */
function filesToCreate(location: string): string[] | null {
  if (isPostgresUrl(location) || location === ":memory:" || existsSync(location)) return null;
  // SQLite's side files, and the vector index folder when that is new too.
  return [location, `${location}-wal`, `${location}-shm`, `${location}-journal`, ...(existsSync(`${location}.ann`) ? [] : [`${location}.ann`])];
}

function removeCreatedStore(files: string[] | null): void {
  for (const file of files ?? []) rmSync(file, { recursive: true, force: true });
}

interface ServeOptions extends CommonOptions {
  host: string;
  port: number;
  maxBody: number;
  maxImport: number;
  allowedHosts?: string[];
  allowedOrigins?: string[];
  open?: boolean;
  openUi?: boolean;
  benchResults?: string[];
  metricsPort?: number;
  metrics: boolean;
  logLevel: LogLevel;
  drainTimeout: number;
}

const LOG_LEVELS = ["trace", "debug", "info", "warn", "error", "silent"] as const;
type LogLevel = (typeof LOG_LEVELS)[number];

function parseLogLevel(value: string): LogLevel {
  if (!(LOG_LEVELS as readonly string[]).includes(value)) throw new InvalidArgumentError(`--log-level must be one of ${LOG_LEVELS.join(", ")}, got "${value}".`);
  return value as LogLevel;
}

/** Request logs: JSON lines on stderr (stdout carries the start line scripts read), written at once so none is lost at exit. */
function requestLogger(level: LogLevel): Logger | undefined {
  if (level === "silent") return undefined;
  return pino({ level, base: { pid: process.pid, name: "ramem" }, timestamp: pino.stdTimeFunctions.isoTime }, pino.destination({ fd: 2, sync: true }));
}

function parsePort(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError(`--port must be an integer from 0 to 65535, got "${value}".`);
  return n;
}

/** `ramem serve`, and `ramem ui`: the same server, started to open the inspector (it prints the inspector's URL). */
export function serveCommand(name: "serve" | "ui" = "serve"): Command {
  return addStoreOptions(
    new Command(name)
      .description(
        (name === "ui" ? "Serve the inspector web UI at /ui (with the REST API and MCP it reads) and print its URL. Same options as `ramem serve`. " : "") +
          "Serve the REST API (OpenAPI document at /openapi.json), MCP over streamable HTTP at /mcp and the inspector web UI at /ui. Callers send `Authorization: Bearer rm_...` (keys: `ramem keys create`). " +
          "With a store that never held a key (or --open) it runs open on loopback only, and refuses any other host; revoking every key leaves it closed.",
      )
      .option("--host <host>", "interface to listen on", DEFAULT_HOST)
      .option("--port <port>", "TCP port (0: any free port)", parsePort, DEFAULT_PORT)
      .option("--max-body <bytes>", "request body limit (import excepted)", parsePositiveInt("--max-body"), DEFAULT_MAX_BODY_BYTES)
      .option("--max-import <bytes>", "body limit of a namespace import", parsePositiveInt("--max-import"), DEFAULT_MAX_IMPORT_BYTES)
      .option("--open", "answer requests without a key as the local admin, whatever keys exist (loopback only). Without it the server is open only while its store has never held a key")
      .option("--allowed-hosts <names>", "Host names to answer besides loopback names and the --host address, e.g. a DNS name the server is reached by (repeat or comma-separate; * for any)", collectList)
      .option("--allowed-origins <origins>", "browser origins to answer besides loopback pages, e.g. https://agent.example.com (repeat or comma-separate; * for any)", collectList)
      .option("--bench-results <files>", "bench report files (bench-out/NAME/results.json) the inspector's benchmark viewer lists (repeat or comma-separate)", collectList)
      .option("--open-ui", "print the inspector's URL (/ui/) on a line of its own once listening (ramem ui does)")
      .option("--metrics-port <port>", "also serve Prometheus metrics (/metrics) without a key on 127.0.0.1 at this port; on the main port /metrics needs an admin key", parsePort)
      .option("--no-metrics", "serve no /metrics at all")
      .option("--log-level <level>", `request log (JSON lines on stderr): ${LOG_LEVELS.join(", ")}`, parseLogLevel, "info" as LogLevel)
      .option("--drain-timeout <seconds>", "on SIGTERM/SIGINT: answer new requests 503 and wait this long for those in flight before closing", parsePositiveInt("--drain-timeout"), 30),
  ).action(async (opts: ServeOptions) =>
    runAction(opts.json, async () => {
      const location = resolveStoreLocation(opts);
      const created = filesToCreate(location);
      let memory;
      try {
        memory = await openFromOptions(opts);
      } catch (err) {
        removeCreatedStore(created);
        throw err;
      }
      let keys;
      try {
        // Keys live where the memory does: the --store URL (postgres, with its password) or the --db file.
        keys = await openApiKeyStore(location);
      } catch (err) {
        await memory.close();
        removeCreatedStore(created);
        throw err;
      }
      const logger = requestLogger(opts.logLevel);
      let server;
      try {
        server = await startServer({
          memory,
          keys,
          host: opts.host,
          port: opts.port,
          maxBodyBytes: opts.maxBody,
          maxImportBytes: opts.maxImport,
          allowedHosts: opts.allowedHosts ?? [],
          allowedOrigins: opts.allowedOrigins ?? [],
          ...(opts.open ? { open: true } : {}),
          ...(opts.benchResults?.length ? { benchResults: opts.benchResults.map((f) => resolve(f)) } : {}),
          metrics: opts.metrics,
          ...(opts.metricsPort !== undefined ? { metricsPort: opts.metricsPort } : {}),
          ...(logger ? { logger } : {}),
        });
      } catch (err) {
        // A server that never listened (port in use, refused host) leaves no store behind: a busy --port
        // with a new --db must not leave an empty database to be found later. Only if it is still empty:
        // another process may have started writing to the new file meanwhile.
        const untouched = created !== null && (await memory.stats()).sessions === 0 && !(await hasEverHeldKeys(keys));
        await keys.close();
        await memory.close();
        if (untouched) removeCreatedStore(created);
        throw err;
      }
      const line = { url: server.url, uiUrl: server.uiUrl, metricsUrl: server.metricsUrl, store: memory.store.location, embedder: memory.embedder.id, open: server.open, pid: process.pid };
      cliOut(
        opts.json
          ? `${JSON.stringify(line)}\n`
          : `ramem serving ${memory.store.location} on ${server.url} (OpenAPI: ${server.url}/openapi.json; MCP: ${server.url}/mcp; inspector: ${server.uiUrl})\n` +
              (opts.openUi || name === "ui" ? `Open the inspector: ${server.uiUrl}${server.open ? "" : " (log in with an API key from ramem keys create)"}\n` : ""),
      );
      const reason = await waitForShutdown();
      // Clean: new requests get 503 while those in flight finish (a load balancer moves on), then the
      // connections close, then the key store and the memory store (SQLite checkpoints its WAL on close).
      cliErr(`ramem serve: draining (${reason}): new requests get 503; waiting up to ${opts.drainTimeout} s for ${server.inFlight()} in flight\n`);
      const drained = await server.drain({ timeoutMs: opts.drainTimeout * 1000 });
      if (!drained) cliErr(`ramem serve: requests still running after ${opts.drainTimeout} s were cut\n`);
      await keys.close();
      await memory.close();
      cliErr(`ramem serve: stopped (${reason})\n`);
    }),
  );
}
