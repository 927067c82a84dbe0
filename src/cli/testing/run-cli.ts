import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { runCli as runInProcess } from "../run-cli.js";

/** The repository root: the CLI runs from source (tsx) with it as cwd. */
export const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Provider variables from the developer's shell are cleared (a provider turns on with its *_MODEL variable), so the CLI runs offline unless a test passes an endpoint. */
const CLEARED: Record<string, string> = {
  RAMEM_EMBEDDINGS_MODEL: "",
  RAMEM_EMBEDDINGS_BASE_URL: "",
  RAMEM_LLM_MODEL: "",
  RAMEM_LLM_BASE_URL: "",
  RAMEM_DB: "",
  RAMEM_STORE: "",
};

let running = Promise.resolve();

/**
 * Runs `ramem` in this process (runCli with buffers for stdout and stderr):
 * what most CLI tests do, since a process per test was most of the suite's
 * time. The environment is the test's for the duration of the run; runs are
 * queued, so two never see each other's variables.
 */
export function runCli(args: readonly string[], env: Record<string, string> = {}): Promise<CliRun> {
  const run = running.then(async (): Promise<CliRun> => {
    const vars = { ...CLEARED, ...env };
    const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
    Object.assign(process.env, vars);
    let stdout = "";
    let stderr = "";
    try {
      const io = { out: (s: string) => void (stdout += s), err: (s: string) => void (stderr += s), exitCode: 0, isTTY: false };
      let code: number;
      try {
        code = await runInProcess(args, io);
      } catch (err) {
        // What the bin would do with a bug: print it, exit 1.
        stderr += `${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`;
        code = 1;
      }
      return { code, stdout, stderr };
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });
  running = run.then(() => undefined, () => undefined);
  return run;
}

/** Spawns the real `ramem` bin from source: for the few tests of process behaviour (exit codes, signals, stdio). */
export function spawnCli(args: readonly string[], env: Record<string, string> = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "src/cli/main.ts", ...args], {
      cwd: ROOT,
      env: { ...process.env, ...CLEARED, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}
