import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { ROOT, runCli } from "../testing/run-cli.js";

const env = { ...process.env, RAMEM_EMBEDDINGS_MODEL: "", RAMEM_LLM_MODEL: "", RAMEM_DB: "" };

test("ramem serve refuses 0.0.0.0 without keys, saying why and how", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ramem-serve-cli-"));
  try {
    const r = await runCli(["serve", "--db", join(dir, "s.db"), "--embedder", "hash", "--host", "0.0.0.0", "--port", "0"]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /refusing to listen on 0\.0\.0\.0/);
    assert.match(r.stderr, /ramem keys create/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("ramem serve listens on loopback, serves /health and the API, and stops on SIGTERM", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ramem-serve-cli-"));
  const child = spawn(process.execPath, ["--import", "tsx", "src/cli/main.ts", "serve", "--db", join(dir, "s.db"), "--embedder", "hash", "--port", "0", "--json"], {
    cwd: ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  try {
    const line = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout }).once("line", resolve);
      child.once("exit", (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
    });
    const info = JSON.parse(line) as { url: string; open: boolean };
    assert.match(info.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(info.open, true);
    assert.match(stderr, /WARNING: no API keys exist/);
    assert.equal((await fetch(`${info.url}/health`)).status, 200);
    const put = await fetch(`${info.url}/v1/namespaces/cli/sessions/s`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ startTime: "2023-01-01T00:00:00Z", turns: [{ speaker: "Ann", text: "The CLI server stores this." }] }),
    });
    assert.equal(put.status, 200);
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    assert.equal(await exited, 0);
  } finally {
    if (child.exitCode === null) child.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  }
});
