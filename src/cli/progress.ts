import cliProgress from "cli-progress";
import { cliErr, cliIo } from "./io.js";

export interface ProgressReporter {
  /** `unit` overrides the reporter's unit from here on: a new phase (turns ingested, then questions recalled) restarts the count and the rate. */
  update(done: number, total: number, label?: string, unit?: string): void;
  stop(): void;
}

/**
 * A bar with rate and ETA on a terminal; on a pipe (CI, scripts) a line every
 * few seconds instead, so logs stay readable. Always on stderr: stdout is
 * reserved for results (and --json).
 */
export function createProgress(initialUnit: string, options: { quiet?: boolean } = {}): ProgressReporter {
  let unit = initialUnit;
  if (options.quiet) return { update() {}, stop() {} };
  if (cliIo().isTTY) {
    const bar = new cliProgress.SingleBar(
      {
        stream: process.stderr,
        format: `{bar} {percentage}% | {value}/{total} {unit} | {rate} {unit}/s | ETA {eta_formatted} | {label}`,
        hideCursor: true,
        etaBuffer: 50,
      },
      cliProgress.Presets.shades_classic,
    );
    let started = performance.now();
    let running = false;
    return {
      update(done, total, label = "", nextUnit = unit) {
        if (running && nextUnit !== unit) {
          bar.stop();
          running = false;
        }
        if (!running) started = performance.now();
        unit = nextUnit;
        const rate = (done / Math.max(1, (performance.now() - started) / 1000)).toFixed(1);
        if (!running) {
          bar.start(total, done, { rate, label, unit });
          running = true;
        } else bar.update(done, { rate, label, unit });
      },
      stop() {
        if (running) bar.stop();
      },
    };
  }
  let started = performance.now();
  let lastPrint = 0;
  return {
    update(done, total, label = "", nextUnit = unit) {
      const now = performance.now();
      if (nextUnit !== unit) {
        unit = nextUnit;
        started = now;
        lastPrint = 0;
      }
      if (now - lastPrint < 5000 && done < total) return;
      lastPrint = now;
      const secs = (now - started) / 1000;
      const rate = done / Math.max(1, secs);
      const eta = rate > 0 ? Math.round((total - done) / rate) : 0;
      cliErr(`${done}/${total} ${unit} · ${rate.toFixed(1)} ${unit}/s · ETA ${eta}s ${label}\n`);
    },
    stop() {},
  };
}
