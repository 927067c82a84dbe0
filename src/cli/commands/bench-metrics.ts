import { Command } from "commander";
import { runMetricsOverhead } from "../../bench/timings/metrics-overhead.js";
import { createProgress } from "../progress.js";
import { parsePositiveInt, runAction } from "../shared.js";
import { cliOut } from "../io.js";

/** `ramem bench metrics-overhead`: recall throughput with /metrics (scraped) against without, interleaved in one run. */
export function benchMetricsCommand(): Command {
  return new Command("metrics-overhead")
    .description(
      "What the server's Prometheus metrics cost recall: two servers on one generated store (hash embedder), one with metrics and scraped, one without; " +
        "each recall runs on both, the order alternating request by request, the scrapes counted against the metrics side. Prints throughput per round and the ratio (1.0 = no cost).",
    )
    .option("--units <n>", "turns in the generated store", parsePositiveInt("--units"), 5000)
    .option("--rounds <n>", "rounds (each a batch of recalls, every one on both servers)", parsePositiveInt("--rounds"), 20)
    .option("--per-round <n>", "recalls per server per round", parsePositiveInt("--per-round"), 50)
    .option("--scrape-every <ms>", "scrape interval of the metrics server (Prometheus's default is 15000)", parsePositiveInt("--scrape-every"), 1000)
    .option("--seed <n>", "seed of the generated conversations", parsePositiveInt("--seed"), 7)
    .option("--json", "print the result as JSON")
    .option("--quiet", "no progress output")
    .action(async (opts: { units: number; rounds: number; perRound: number; scrapeEvery: number; seed: number; json?: boolean; quiet?: boolean }) =>
      runAction(opts.json, async () => {
        const progress = createProgress("rounds", { quiet: opts.quiet ?? false });
        const r = await runMetricsOverhead({ units: opts.units, rounds: opts.rounds, perRound: opts.perRound, scrapeEveryMs: opts.scrapeEvery, seed: opts.seed, onProgress: (d, t) => progress.update(d, t, "metrics A/B") }).finally(() =>
          progress.stop(),
        );
        if (opts.json) return void cliOut(`${JSON.stringify(r)}\n`);
        const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
        cliOut(
          `metrics overhead: ${r.units} units, ${r.rounds} rounds of ${r.perRound} recalls per server, /metrics scraped every ${r.scrapeEveryMs} ms (${r.scrapes} scrapes, median ${r.scrapeMsMedian} ms each, counted against the metrics side)\n` +
            `recalls/s median: with metrics ${median(r.withMetrics)}, without ${median(r.withoutMetrics)}\n` +
            `throughput with / without: median of rounds ${r.medianRatio}, overall ${r.overallRatio} (1.0 = no cost; 0.97 = 3%)\n` +
            `load average (1 min) ${r.loadAverage.before[0]} → ${r.loadAverage.after[0]}\n`,
        );
      }),
    );
}
