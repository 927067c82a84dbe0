import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { openMemory } from "../../open-memory.js";
import { openApiKeyStore } from "../../store/open-api-key-store.js";
import { startServer, type RunningServer } from "../../server/serve.js";
import { generateConversations } from "../scale/generate-conversations.js";

export interface MetricsOverheadOptions {
  /** Turns in the store (about one unit each). */
  units: number;
  rounds: number;
  /** Recalls per server per round. */
  perRound: number;
  /** How often the metrics server is scraped (ms); Prometheus's default is 15 s. */
  scrapeEveryMs: number;
  seed: number;
  onProgress?: (done: number, total: number) => void;
}

export interface MetricsOverheadResult {
  units: number;
  rounds: number;
  perRound: number;
  scrapeEveryMs: number;
  scrapes: number;
  /** Recalls per second, each round's batch, with and without metrics. */
  withMetrics: number[];
  withoutMetrics: number[];
  /** Median over rounds of (throughput with) / (throughput without): 0.97 is a 3% cost. */
  medianRatio: number;
  /** Total recalls / total time, with over without. */
  overallRatio: number;
  loadAverage: { before: number[]; after: number[] };
}

/**
 * What `/metrics` costs recall, as an A/B in one process: two servers on the
 * same store file (each its own Memory), one with metrics and a scraper
 * reading /metrics every `scrapeEveryMs`, one with metrics off. Each round
 * runs a batch of recalls on one then the other, the order alternating, so
 * the machine's noise falls on both.
 */
export async function runMetricsOverhead(options: MetricsOverheadOptions): Promise<MetricsOverheadResult> {
  const dir = mkdtempSync(join(tmpdir(), "ramem-metrics-bench-"));
  const db = join(dir, "store.db");
  const corpus = generateConversations({ seed: options.seed, turns: options.units, namespaces: 1, queries: 50 });
  const loader = await openMemory({ db, embedder: "hash", languageModel: null, env: {} });
  await loader.ingest(corpus.namespaces[0]!.sessions);
  const units = (await loader.stats()).units;
  await loader.close();
  const open = async (metrics: boolean) => {
    const memory = await openMemory({ db, embedder: "hash", languageModel: null, env: {} });
    const keys = await openApiKeyStore(db);
    const server = await startServer({ memory, keys, port: 0, warn: () => {}, ui: false, mcp: false, metrics: metrics ? { storeSizeTtlMs: 15_000 } : false });
    return { server, close: async () => (await server.close(), await keys.close(), await memory.close()) };
  };
  const on = await open(true);
  const off = await open(false);
  const namespace = corpus.namespaces[0]!.namespace;
  const queries = corpus.queries.map((q) => q.question);
  let scrapes = 0;
  let scraping: Promise<void> = Promise.resolve();
  const scraper = setInterval(() => {
    scraping = fetch(`${on.server.url}/metrics`)
      .then(async (r) => {
        if (r.status !== 200) throw new Error(`/metrics: HTTP ${r.status}`);
        await r.text();
        scrapes++;
      })
      .catch((err: unknown) => void process.stderr.write(`metrics bench: a scrape failed: ${(err as Error).message}\n`));
  }, options.scrapeEveryMs);
  const before = loadavg();
  const batch = async (server: RunningServer, round: number): Promise<{ perSecond: number; ms: number }> => {
    const started = performance.now();
    for (let i = 0; i < options.perRound; i++) {
      const res = await fetch(`${server.url}/v1/namespaces/${namespace}/recall`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query: queries[(round * options.perRound + i) % queries.length], k: 10 }),
      });
      if (res.status !== 200) throw new Error(`recall: HTTP ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
    }
    const ms = performance.now() - started;
    return { perSecond: (options.perRound / ms) * 1000, ms };
  };
  try {
    // Warm both (caches, JIT) before timing.
    await batch(on.server, 0);
    await batch(off.server, 0);
    const withMetrics: number[] = [];
    const withoutMetrics: number[] = [];
    let msWith = 0;
    let msWithout = 0;
    for (let r = 1; r <= options.rounds; r++) {
      const order = r % 2 === 0 ? [true, false] : [false, true];
      for (const metrics of order) {
        const { perSecond, ms } = await batch(metrics ? on.server : off.server, r);
        (metrics ? withMetrics : withoutMetrics).push(perSecond);
        if (metrics) msWith += ms;
        else msWithout += ms;
      }
      options.onProgress?.(r, options.rounds);
    }
    const ratios = withMetrics.map((w, i) => w / withoutMetrics[i]!).sort((a, b) => a - b);
    return {
      units,
      rounds: options.rounds,
      perRound: options.perRound,
      scrapeEveryMs: options.scrapeEveryMs,
      scrapes,
      withMetrics: withMetrics.map(round1),
      withoutMetrics: withoutMetrics.map(round1),
      medianRatio: Math.round(ratios[Math.floor(ratios.length / 2)]! * 1000) / 1000,
      overallRatio: Math.round((msWithout / msWith) * 1000) / 1000,
      loadAverage: { before: before.map(round2), after: loadavg().map(round2) },
    };
  } finally {
    clearInterval(scraper);
    await scraping;
    await on.close();
    await off.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const round1 = (x: number) => Math.round(x * 10) / 10;
const round2 = (x: number) => Math.round(x * 100) / 100;
