/** `ramem backup`: a copy taken while another process serves and writes the store, reopened and checked. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import Database from "better-sqlite3";
import { ROOT, runCli } from "../testing/run-cli.js";
import { openMemory } from "../../open-memory.js";
import { openApiKeyStore } from "../../store/open-api-key-store.js";

const env = { ...process.env, RAMEM_EMBEDDINGS_MODEL: "", RAMEM_LLM_MODEL: "", RAMEM_DB: "", RAMEM_STORE: "" };

function session(i: number) {
  return {
    startTime: new Date(Date.UTC(2023, 0, 1 + i)).toISOString(),
    turns: [
      { speaker: "Ann", text: `On day ${i} I repotted fern number ${i}.` },
      { speaker: "Ben", text: `Fern ${i} looks happier already.` },
      { speaker: "Ann", text: `I also bought compost batch ${i}.` },
    ],
  };
}

test("ramem backup copies a store while a server writes to it: the copy opens, holds whole sessions only, and its keys", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ramem-backup-"));
  const db = join(dir, "live.db");
  const child = spawn(process.execPath, ["--import", "tsx", "src/cli/main.ts", "serve", "--db", db, "--embedder", "hash", "--port", "0", "--json", "--log-level", "silent"], {
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
    const { url } = JSON.parse(line) as { url: string };
    let key: string | undefined;
    const put = async (i: number) => {
      const headers: Record<string, string> = { "content-type": "application/json", ...(key ? { authorization: `Bearer ${key}` } : {}) };
      const res = await fetch(`${url}/v1/namespaces/garden/sessions/s${i}`, { method: "PUT", headers, body: JSON.stringify(session(i)) });
      assert.equal(res.status, 200, await res.text());
    };
    for (let i = 0; i < 20; i++) await put(i);
    // Keys live in the same file: the copy must carry them.
    // (The first key closes the open server: the writes go on with it.)
    const created = await runCli(["keys", "create", "--db", db, "--name", "agent", "--role", "write", "--namespace", "garden", "--json"]);
    assert.equal(created.code, 0, created.stderr);
    key = (JSON.parse(created.stdout) as { secret: string }).secret;

    // The server keeps writing while the backup runs.
    let writing = true;
    let written = 20;
    const writer = (async () => {
      while (writing) await put(written++);
    })();
    const target = join(dir, "copy.db");
    const run = await runCli(["backup", target, "--db", db, "--json"]);
    writing = false;
    await writer;
    assert.equal(run.code, 0, run.stderr);
    const report = JSON.parse(run.stdout) as { sessions: number; units: number; bytes: number; destination: string };
    assert.equal(report.destination, target);
    assert.ok(report.sessions >= 20 && report.sessions <= written, `${report.sessions} sessions`);
    assert.ok(written > 20, "writes ran during the backup");

    const raw = new Database(target, { readonly: true });
    assert.equal(raw.pragma("integrity_check", { simple: true }), "ok");
    assert.equal(raw.pragma("journal_mode", { simple: true }), "delete", "one file: the WAL folded in");
    const ids = (file: string) => new Database(file, { readonly: true }).prepare("SELECT value FROM meta WHERE key = 'store_id'").pluck().get();
    assert.notEqual(ids(target), ids(db), "the copy has a store id of its own (no index of the original serves it)");
    raw.close();

    const copy = await openMemory({ db: target, embedder: "hash", env: {} });
    try {
      const sessions = await copy.store.listSessions("garden");
      assert.equal(sessions.length, report.sessions);
      // Consistent: every session in the copy has all three of its turns' units, none half-written.
      for (const s of sessions) assert.equal((await copy.list({ namespace: "garden", sessionId: s.id })).length, 3, s.id);
      assert.equal((await copy.stats()).units, report.units);
      const { hits } = await copy.recall("When did Ann repot fern number 7?", { namespace: "garden", k: 3 });
      assert.match(hits[0]!.unit.content, /fern number 7\b/);
    } finally {
      await copy.close();
    }
    const keys = await openApiKeyStore(target);
    try {
      assert.deepEqual((await keys.listKeys()).map((k) => k.name), ["agent"]);
    } finally {
      await keys.close();
    }

    // Refusals: an existing file is never overwritten, a PostgreSQL store is pointed to pg_dump, a file that is no store is named.
    const again = await runCli(["backup", target, "--db", db]);
    assert.equal(again.code, 2);
    assert.match(again.stderr, /exists: a backup never overwrites a file/);
    const pg = await runCli(["backup", join(dir, "x.db"), "--store", "postgres://u:p@127.0.0.1:1/db"]);
    assert.notEqual(pg.code, 0);
    assert.match(pg.stderr, /pg_dump/);
    const junk = join(dir, "junk.db");
    writeFileSync(junk, "");
    new Database(junk).exec("CREATE TABLE t (x)");
    const notStore = await runCli(["backup", join(dir, "y.db"), "--db", junk]);
    assert.match(notStore.stderr, /is not a ramem store/);
  } finally {
    child.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  }
});
