import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import type { MiddlewareHandler } from "hono";
import { answeringRoute } from "./request-log.js";
import type { Memory } from "../../memory.js";

export interface ServerMetricsOptions {
  memory: Memory;
  /**
   * The store-size gauges show this many namespaces, the largest (default
   * 100): a store of ten thousand tenants would otherwise print ten thousand
   * series per scrape. `ramem_store_namespaces` counts them all.
   */
  namespaceSeries?: number;
  /** How long a store-size read is reused between scrapes (default 15 s): it counts every unit. */
  storeSizeTtlMs?: number;
  /** Node's own metrics (heap, event-loop lag, GC), prefixed `ramem_` (default on). */
  processMetrics?: boolean;
}

export interface ServerMetrics {
  readonly registry: Registry;
  /** Counts each request and times it, labelled by method, the route it matched (its pattern, never the raw path) and status. */
  readonly middleware: MiddlewareHandler;
  /** The text a scraper reads, and its content type. */
  render(): Promise<{ contentType: string; body: string }>;
  /** Stops listening to the memory (the registry keeps what it counted). */
  close(): void;
}

/** Seconds: recall takes milliseconds to a second, an ingest of a long session tens of seconds. */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
const STAGE_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/**
 * Prometheus metrics of one server, in a registry of its own (two servers in
 * one process never mix counts): requests per route and status, recall's
 * stage times, what was ingested, and the store's size per namespace.
 */
export function createServerMetrics(options: ServerMetricsOptions): ServerMetrics {
  const registry = new Registry();
  if (options.processMetrics !== false) collectDefaultMetrics({ register: registry, prefix: "ramem_" });
  const labelNames = ["method", "route", "status"] as const;
  const requests = new Counter({ name: "ramem_http_requests_total", help: "HTTP requests answered, by method, matched route and status", labelNames, registers: [registry] });
  const latency = new Histogram({ name: "ramem_http_request_duration_seconds", help: "Time to answer an HTTP request (until its body starts)", labelNames, buckets: REQUEST_BUCKETS, registers: [registry] });
  const inFlight = new Gauge({ name: "ramem_http_requests_in_flight", help: "HTTP requests being answered now", registers: [registry] });
  const stages = new Histogram({
    name: "ramem_recall_stage_duration_seconds",
    help: "Time of each recall stage: content (both channels and the candidates' read), induction (the recall frame), reinstatement (validity, order, scores)",
    labelNames: ["stage"] as const,
    buckets: STAGE_BUCKETS,
    registers: [registry],
  });
  const recalls = new Counter({ name: "ramem_recalls_total", help: "Recalls answered (ask's included)", registers: [registry] });
  const sessions = new Counter({ name: "ramem_ingested_sessions_total", help: "Sessions written by add, append, ingest or import", registers: [registry] });
  const turns = new Counter({ name: "ramem_ingested_turns_total", help: "Turns anchored and written", registers: [registry] });
  const units = new Counter({ name: "ramem_ingested_units_total", help: "Memory units written", registers: [registry] });

  const stopObserving = options.memory.observe({
    recalled: ({ stageMs }) => {
      recalls.inc();
      for (const [stage, ms] of Object.entries(stageMs)) stages.observe({ stage }, ms / 1000);
    },
    ingested: (e) => {
      sessions.inc(e.sessions);
      turns.inc(e.turns);
      units.inc(e.units);
    },
  });

  const limit = options.namespaceSeries ?? 100;
  const ttl = options.storeSizeTtlMs ?? 15_000;
  let sizes: { at: number; read: Promise<{ namespaces: number; largest: Awaited<ReturnType<Memory["store"]["namespaceSizes"]>> }> } | null = null;
  const readSizes = () => {
    if (!sizes || performance.now() - sizes.at > ttl) {
      const read = Promise.all([options.memory.store.stats(), options.memory.store.namespaceSizes(limit)]).then(([all, largest]) => ({ namespaces: all.namespaces, largest }));
      // A failed read is not kept: the next scrape tries again.
      read.catch(() => (sizes = null));
      sizes = { at: performance.now(), read };
    }
    return sizes.read;
  };
  new Gauge({
    name: "ramem_store_namespaces",
    help: "Namespaces holding anything",
    registers: [registry],
    async collect() {
      this.set((await readSizes()).namespaces);
    },
  });
  new Gauge({
    name: "ramem_store_units",
    help: `Memory units per namespace (the ${limit} largest)`,
    labelNames: ["namespace"] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const n of (await readSizes()).largest) this.set({ namespace: n.namespace }, n.units);
    },
  });
  new Gauge({
    name: "ramem_store_sessions",
    help: `Sessions per namespace (of the ${limit} largest by units)`,
    labelNames: ["namespace"] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const n of (await readSizes()).largest) this.set({ namespace: n.namespace }, n.sessions);
    },
  });

  const middleware: MiddlewareHandler = async (c, next) => {
    const started = performance.now();
    inFlight.inc();
    try {
      await next();
    } finally {
      inFlight.dec();
      const labels = { method: c.req.method, route: answeringRoute(c), status: String(c.res.status) };
      requests.inc(labels);
      latency.observe(labels, (performance.now() - started) / 1000);
    }
  };

  return {
    registry,
    middleware,
    async render() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
    close: stopObserving,
  };
}
