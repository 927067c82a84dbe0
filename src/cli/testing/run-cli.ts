import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

/** The repository root: the CLI runs from source (tsx) with it as cwd. */
export const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Spawns `ramem` from source. Provider variables from the developer's shell
 * are cleared (a provider turns on with its *_MODEL variable), so the CLI
 * runs offline unless a test passes an endpoint in `env`.
 */
export function runCli(args: readonly string[], env: Record<string, string> = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "src/cli/main.ts", ...args], {
      cwd: ROOT,
      env: {
        ...process.env,
        RAMEM_EMBEDDINGS_MODEL: "",
        RAMEM_EMBEDDINGS_BASE_URL: "",
        RAMEM_LLM_MODEL: "",
        RAMEM_LLM_BASE_URL: "",
        RAMEM_DB: "",
        RAMEM_STORE: "",
        ...env,
      },
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
