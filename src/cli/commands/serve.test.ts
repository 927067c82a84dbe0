import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
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
    assert.ok(!existsSync(join(dir, "s.db")), "a refused start leaves no new database behind");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("ramem serve on a port in use fails saying so and leaves no new database file behind; an existing one is kept", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ramem-serve-cli-"));
  const busy = createServer();
  await new Promise<void>((resolve) => busy.listen(0, "127.0.0.1", resolve));
  try {
    const port = String((busy.address() as AddressInfo).port);
    const db = join(dir, "new.db");
    const r = await runCli(["serve", "--db", db, "--embedder", "hash", "--port", port]);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, new RegExp(`cannot listen on 127\\.0\\.0\\.1:${port}`));
    assert.match(r.stderr, /another process uses this port/);
    assert.deepEqual(readdirSync(dir), [], "no database file (nor -wal, -shm, .ann) left behind");
    // A store that was there before is the user's: it stays.
    const kept = join(dir, "kept.db");
    assert.equal((await runCli(["ingest", join(ROOT, "examples", "sample-conversation.json"), "--db", kept, "--embedder", "hash"])).code, 0);
    assert.notEqual((await runCli(["serve", "--db", kept, "--embedder", "hash", "--port", port])).code, 0);
    assert.ok(existsSync(kept));
  } finally {
    busy.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("ramem serve listens on loopback, serves /health and the API, and stops on SIGTERM", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ramem-serve-cli-"));
  const { child, stderr } = spawnServer(["serve", "--db", join(dir, "s.db"), "--embedder", "hash", "--port", "0", "--json"]);
  try {
    const line = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout }).once("line", resolve);
      child.once("exit", (code) => reject(new Error(`serve exited with ${code}: ${stderr()}`)));
    });
    const info = JSON.parse(line) as { url: string; open: boolean };
    assert.match(info.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(info.open, true);
    assert.match(stderr(), /WARNING: no API keys exist/);
    assert.equal((await fetch(`${info.url}/health`)).status, 200);
    const put = await fetch(`${info.url}/v1/namespaces/cli/sessions/s`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ startTime: "2023-01-01T00:00:00Z", turns: [{ speaker: "Ann", text: "The CLI server stores this." }] }),
    });
    assert.equal(put.status, 200);
    const requestId = put.headers.get("x-request-id");
    // The request log: one JSON line per request on stderr, found by the id the caller got.
    const logLine = stderr()
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as { requestId?: string; route?: string; status?: number })
      .find((l) => l.requestId === requestId);
    assert.deepEqual([logLine?.route, logLine?.status], ["/v1/namespaces/:ns/sessions/:sessionId", 200]);
    // Open on loopback: the local admin may read /metrics on the main port.
    assert.match(await (await fetch(`${info.url}/metrics`)).text(), /ramem_ingested_turns_total 1/);
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    assert.equal(await exited, 0);
    assert.match(stderr(), /ramem serve: draining \(SIGTERM\): new requests get 503/);
    assert.match(stderr(), /ramem serve: stopped \(SIGTERM\)/);
    assert.ok(!existsSync(join(dir, "s.db-wal")), "the store was closed (SQLite removes the WAL on a clean close)");
  } finally {
    if (child.exitCode === null) child.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  }
});

/** Resolves when process `pid` is gone, or rejects after `ms`. */
async function gone(pid: number, ms: number): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    if (Date.now() > until) throw new Error(`process ${pid} still runs ${ms} ms later`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test("npx ramem serve: SIGTERM to npx stops the node server too (npm's sh -c never passes it on)", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ramem-npx-"));
  // A project whose node_modules/.bin/ramem is this checkout's CLI: npx runs it as it runs an installed one (npm → sh -c → node).
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "npx-serve-test", version: "1.0.0", private: true }));
  mkdirSync(join(dir, "node_modules", ".bin"), { recursive: true });
  const bin = join(ROOT, "src/cli/testing/ramem-from-source.mjs");
  chmodSync(bin, 0o755);
  symlinkSync(bin, join(dir, "node_modules", ".bin", "ramem"));
  const npx = spawn("npx", ["--offline", "ramem", "serve", "--db", join(dir, "s.db"), "--embedder", "hash", "--port", "0", "--json"], {
    cwd: dir,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  npx.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  let serverPid: number | undefined;
  try {
    const line = await new Promise<string>((resolve, reject) => {
      createInterface({ input: npx.stdout }).once("line", resolve);
      npx.once("exit", (code) => reject(new Error(`npx exited with ${code}: ${stderr}`)));
    });
    const info = JSON.parse(line) as { url: string; pid: number };
    serverPid = info.pid;
    assert.notEqual(serverPid, npx.pid, "npx runs the server in a child process");
    assert.equal((await fetch(`${info.url}/health`)).status, 200);
    npx.kill("SIGTERM");
    await gone(serverPid, 10_000);
    await assert.rejects(fetch(`${info.url}/health`), "nothing listens any more");
    assert.match(stderr, /ramem serve: stopped \(its parent \(npm\) exited\)/);
  } finally {
    if (npx.exitCode === null) npx.kill("SIGKILL");
    if (serverPid !== undefined) {
      try {
        process.kill(serverPid, "SIGKILL");
      } catch {
        // already gone
      }
    }
    rmSync(dir, { recursive: true, force: true });
  }
});

test("ramem ui serves and prints the inspector's URL, which answers with the page", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ramem-serve-cli-"));
  const { child, stderr } = spawnServer(["ui", "--db", join(dir, "s.db"), "--embedder", "hash", "--port", "0"]);
  try {
    const url = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout }).on("line", (line) => {
        const m = /^Open the inspector: (http:\/\/127\.0\.0\.1:\d+\/ui\/)$/.exec(line);
        if (m) resolve(m[1]!);
      });
      child.once("exit", (code) => reject(new Error(`ui exited with ${code}: ${stderr()}`)));
    });
    const page = await fetch(url);
    // 200 with the built page, or 503 saying how to build it: either way the URL is the inspector's.
    assert.ok(page.status === 200 || page.status === 503, `status ${page.status}`);
    assert.match(await page.text(), /ramem inspector/);
  } finally {
    child.kill("SIGTERM");
    rmSync(dir, { recursive: true, force: true });
  }
});

/** `ramem <args>` from the sources, its stdout piped, its stderr collected (read it with stderr()). */
function spawnServer(args: string[]) {
  const child = spawn(process.execPath, ["--import", "tsx", "src/cli/main.ts", ...args], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  return { child, stderr: () => stderr };
}
