import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { openSqliteStore } from "../store/sqlite/sqlite-store.js";
import { TEST_DIMS, TEST_EMBEDDER, makeRecords, makeSession } from "../store/testing/make-unit.js";
import type { Embedder } from "../providers/embedder.js";
import { exportNamespace } from "./export-namespace.js";
import { importNamespace } from "./import-namespace.js";
import { build } from "esbuild";
import { ROOT } from "../cli/testing/run-cli.js";

const KILLS = 20;
const SESSIONS = 50;
const UNITS_PER_SESSION = 10;
const embedder: Embedder = { specificationVersion: "v1", id: TEST_EMBEDDER, dimensions: TEST_DIMS, maxBatchSize: 1, embed: async () => Promise.reject(new Error("import embeds nothing")) };

interface Run {
  /** ms from "importing" to "imported", when it got there. */
  importMs: number | null;
  /** The kill was sent before the child said it had imported. */
  killedMidImport: boolean;
}

/**
 * The child bundled once from the current source: a plain node process starts
 * in a quarter of the time `--import tsx` takes, and twenty of them are started.
 * It sits under node_modules so its native dependencies resolve.
 */
async function bundleChild(): Promise<string> {
  const outfile = join(ROOT, "node_modules", ".cache", "ramem-tests", `import-child-${process.pid}.mjs`);
  await build({ entryPoints: [join(ROOT, "src/portability/testing/import-child.ts")], bundle: true, platform: "node", format: "esm", external: ["better-sqlite3", "sqlite-vec", "hnswlib-node"], outfile, logLevel: "warning" });
  return outfile;
}

/** Starts the child, kills it with SIGKILL `killAfterMs` after it says "importing" (never, when null). */
function runChild(script: string, db: string, file: string, killAfterMs: number | null): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, db, file], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    let started = 0;
    let imported: number | null = null;
    let killedMidImport = false;
    createInterface({ input: child.stdout }).on("line", (line) => {
      if (line === "importing") {
        started = performance.now();
        if (killAfterMs !== null) {
          setTimeout(() => {
            killedMidImport = imported === null;
            child.kill("SIGKILL");
          }, killAfterMs);
        }
      } else if (line === "imported") imported = performance.now() - started;
    });
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      if (signal !== "SIGKILL" && code !== 0) reject(new Error(`import child failed (${code}): ${stderr}`));
      else resolve({ importMs: imported, killedMidImport: killedMidImport && signal === "SIGKILL" });
    });
  });
}

describe(`import is atomic: SIGKILL ${KILLS} times at varied moments, the namespace is absent or complete and a re-run works`, () => {
  let dir: string;
  let file: string;
  let script: string;
  before(async () => {
    script = await bundleChild();
    dir = mkdtempSync(join(tmpdir(), "ramem-import-kill-"));
    const source = await openSqliteStore(join(dir, "source.db"));
    await source.bindEmbedder(TEST_EMBEDDER, TEST_DIMS);
    for (let i = 0; i < SESSIONS; i++) {
      const s = makeSession({ namespace: "restore", id: `s${i}`, startTime: new Date(Date.UTC(2023, 0, 1 + i)).toISOString() });
      await source.replaceSession(s, `h${i}`, makeRecords(s, UNITS_PER_SESSION));
    }
    file = join(dir, "restore.jsonl");
    writeFileSync(file, (await exportNamespace({ store: source, embedder }, "restore")).join("\n"));
    await source.close();
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(script, { force: true });
  });

  it("every kill leaves the namespace absent or complete", async () => {
    const full = await runChild(script, join(dir, "measure.db"), file, null);
    assert.ok(full.importMs !== null, "the uninterrupted import finished");
    const importMs = full.importMs;
    const outcomes: string[] = [];
    let midImport = 0;
    // Two at a time: each child pays a process start that dwarfs the import itself.
    const one = async (i: number) => {
      const db = join(dir, `kill-${i}.db`);
      // From right after "importing" to well past the measured end, spread evenly, so kills land in parsing, in writing and after the commit.
      const run = await runChild(script, db, file, Math.round((importMs * 1.6 * i) / (KILLS - 1)));
      if (run.killedMidImport) midImport++;
      const store = await openSqliteStore(db);
      try {
        const { sessions, units } = await store.stats("restore");
        const state = sessions === 0 && units === 0 ? "absent" : sessions === SESSIONS && units === SESSIONS * UNITS_PER_SESSION ? "complete" : `PARTIAL ${sessions} sessions, ${units} units`;
        outcomes[i] = state;
        if (state === "absent") {
          // The re-run after a kill: nothing left over refuses it.
          await store.bindEmbedder(TEST_EMBEDDER, TEST_DIMS);
          await importNamespace({ store, embedder }, readFileSync(file, "utf8"));
          assert.equal((await store.stats("restore")).units, SESSIONS * UNITS_PER_SESSION);
        }
      } finally {
        await store.close();
      }
    };
    for (let i = 0; i < KILLS; i += 2) await Promise.all([one(i), ...(i + 1 < KILLS ? [one(i + 1)] : [])]);
    const tally = outcomes.reduce<Record<string, number>>((t, o) => ({ ...t, [o]: (t[o] ?? 0) + 1 }), {});
    console.log(`import kills: ${JSON.stringify(tally)}; ${midImport} of ${KILLS} sent before the child had imported (import takes ${importMs.toFixed(0)} ms)`);
    assert.deepEqual(outcomes.filter((o) => o.startsWith("PARTIAL")), [], JSON.stringify(tally));
    assert.ok(midImport >= 3, `only ${midImport} kills landed before the import finished: the test did not exercise a mid-import kill`);
  });
});
