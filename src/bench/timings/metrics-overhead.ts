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
  /** Recalls per server per round (each query once on each). */
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
  /** The median time of one scrape of /metrics (ms), counted in full against the server with metrics. */
  scrapeMsMedian: number;
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
 * same store file (each its own Memory), one with metrics and scraped every
 * `scrapeEveryMs`, one with metrics off. Each recall runs on both servers in
 * turn, the order alternating request by request, so the machine's noise
 * falls on both; a round's throughput is its recalls over the time spent on
 * each side, the scrapes counted against the metrics side.
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
  const scrapeMs: number[] = [];
  // The scrape runs in line, between the metrics server's recalls, and its whole time counts against that server:
  // a scraper on a timer in this process would land its cost on whichever server happened to be answering.
  const scrape = async (): Promise<number> => {
    const started = performance.now();
    const r = await fetch(`${on.server.url}/metrics`);
    if (r.status !== 200) throw new Error(`/metrics: HTTP ${r.status}`);
    await r.text();
    scrapes++;
    const ms = performance.now() - started;
    scrapeMs.push(ms);
    return ms;
  };
  const before = loadavg();
  const recall = async (server: RunningServer, query: string): Promise<number> => {
    const started = performance.now();
    const res = await fetch(`${server.url}/v1/namespaces/${namespace}/recall`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query, k: 10 }),
    });
    if (res.status !== 200) throw new Error(`recall: HTTP ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
    return performance.now() - started;
  };
  try {
    // Warm both (caches, JIT) before timing.
    for (const q of queries.slice(0, options.perRound)) (await recall(on.server, q), await recall(off.server, q));
    await scrape();
    scrapes = 0;
    scrapeMs.length = 0;
    const withMetrics: number[] = [];
    const withoutMetrics: number[] = [];
    let msWith = 0;
    let msWithout = 0;
    let lastScrape = performance.now();
    for (let r = 1; r <= options.rounds; r++) {
      // Request by request, the same query on both servers, the order alternating: the machine's drift within a
      // round falls on both sides alike.
      let roundWith = 0;
      let roundWithout = 0;
      for (let i = 0; i < options.perRound; i++) {
        const query = queries[(r * options.perRound + i) % queries.length]!;
        for (const metrics of (r + i) % 2 === 0 ? [true, false] : [false, true]) {
          if (!metrics) {
            roundWithout += await recall(off.server, query);
            continue;
          }
          roundWith += await recall(on.server, query);
          if (performance.now() - lastScrape >= options.scrapeEveryMs) {
            roundWith += await scrape();
            lastScrape = performance.now();
          }
        }
      }
      withMetrics.push((options.perRound / roundWith) * 1000);
      withoutMetrics.push((options.perRound / roundWithout) * 1000);
      msWith += roundWith;
      msWithout += roundWithout;
      options.onProgress?.(r, options.rounds);
    }
    const ratios = withMetrics.map((w, i) => w / withoutMetrics[i]!).sort((a, b) => a - b);
    return {
      units,
      rounds: options.rounds,
      perRound: options.perRound,
      scrapeEveryMs: options.scrapeEveryMs,
      scrapes,
      scrapeMsMedian: round2([...scrapeMs].sort((a, b) => a - b)[Math.floor(scrapeMs.length / 2)] ?? 0),
      withMetrics: withMetrics.map(round1),
      withoutMetrics: withoutMetrics.map(round1),
      medianRatio: Math.round(ratios[Math.floor(ratios.length / 2)]! * 1000) / 1000,
      overallRatio: Math.round((msWithout / msWith) * 1000) / 1000,
      loadAverage: { before: before.map(round2), after: loadavg().map(round2) },
    };
  } finally {
    await on.close();
    await off.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const round1 = (x: number) => Math.round(x * 10) / 10;
const round2 = (x: number) => Math.round(x * 100) / 100;
