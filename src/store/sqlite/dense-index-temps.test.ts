import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { openSqliteStore } from "./sqlite-store.js";
import { SqliteDenseIndexes } from "./dense-index.js";
import { removeStaleTemps, tempWriterPid, writingTemp } from "./dense-index-temps.js";
import { runCli as ramem } from "../../cli/testing/run-cli.js";

const dir = mkdtempSync(join(tmpdir(), "ramem-ann-temps-"));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const freshPath = () => join(dir, `temps-${n++}.db`);
const hex = Buffer.from("ns-a").toString("hex");

/** The pid of a process that has exited (spawned and waited for): the kernel has no such process now. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", ""]);
  assert.ok(child.pid, "the child ran");
  return child.pid;
}

/** A process that stays alive until killed: think another process writing its index right now. */
function liveProcess(): ChildProcess {
  const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
  assert.ok(child.pid, "the child started");
  return child;
}

/** A killed write's leftover: `size` bytes under the name persist gives a temp. */
function leftover(annDir: string, name: string, size: number): string {
  mkdirSync(annDir, { recursive: true });
  writeFileSync(join(annDir, name), Buffer.alloc(size, 7));
  return name;
}

describe("sqlite dense index: temp files of killed index writes", () => {
  it("reads the writer's pid from both temp names persist writes, nothing from other files", () => {
    assert.equal(tempWriterPid(`${hex}.12.4242.hnsw.tmp`), 4242);
    assert.equal(tempWriterPid(`${hex}.json.4242.tmp`), 4242);
    for (const name of [`${hex}.12.4242.hnsw`, `${hex}.json`, "notes.tmp", `${hex}.12.x.hnsw.tmp`]) assert.equal(tempWriterPid(name), null, name);
  });

  it("opening the store removes a dead writer's temps (and this pid's from an earlier run), keeps a live writer's, and reports the bytes", async () => {
    const path = freshPath();
    const annDir = SqliteDenseIndexes.dirFor(path);
    const dead = deadPid();
    const live = liveProcess();
    try {
      const deadIndex = leftover(annDir, `${hex}.31.${dead}.hnsw.tmp`, 4096);
      const deadMeta = leftover(annDir, `${hex}.json.${dead}.tmp`, 100);
      // A restart can come back with the same pid (pid 1 in a container): not a write of this process in progress.
      const ownEarlier = leftover(annDir, `${hex}.30.${process.pid}.hnsw.tmp`, 50);
      const liveIndex = leftover(annDir, `${hex}.32.${live.pid}.hnsw.tmp`, 2048);
      const notOurs = leftover(annDir, "notes.tmp", 10);

      const store = await openSqliteStore(path);
      try {
        const left = readdirSync(annDir).sort();
        assert.deepEqual(left, [liveIndex, notOurs].sort(), "the dead writers' temps are gone on open; the live writer's and a file not named by persist stay");
        for (const gone of [deadIndex, deadMeta, ownEarlier]) assert.equal(existsSync(join(annDir, gone)), false, gone);
      } finally {
        await store.close();
      }

      // What the open gave back, as the handle records it for `ramem reindex`'s report.
      const again = leftover(annDir, `${hex}.33.${dead}.hnsw.tmp`, 1000);
      const db = new Database(path);
      try {
        const indexes = new SqliteDenseIndexes(db, annDir, 1);
        assert.deepEqual(indexes.staleTemps, { files: [again], bytes: 1000 });
        assert.deepEqual(indexes.staleTempsReport(), { staleTemps: { files: 1, bytes: 1000 } });
        assert.deepEqual(new SqliteDenseIndexes(db, annDir, 1).staleTempsReport(), {}, "nothing left: the report has no field");
      } finally {
        db.close();
      }
      assert.ok(existsSync(join(annDir, liveIndex)), "still the live writer's");
    } finally {
      live.kill();
    }
  });

  it("a write of this process in progress keeps its temp; a read-only handle removes nothing", async () => {
    const annDir = join(dir, "in-progress.ann");
    const name = leftover(annDir, `${hex}.5.${process.pid}.hnsw.tmp`, 10);
    const during = writingTemp(join(annDir, name), () => removeStaleTemps(annDir));
    assert.deepEqual(during, { files: [], bytes: 0 });
    assert.ok(existsSync(join(annDir, name)));

    const path = freshPath();
    await (await openSqliteStore(path)).close();
    const dead = leftover(SqliteDenseIndexes.dirFor(path), `${hex}.7.${deadPid()}.hnsw.tmp`, 10);
    await (await openSqliteStore(path, { readonly: true })).close();
    assert.ok(existsSync(join(SqliteDenseIndexes.dirFor(path), dead)), "a read-only open writes nothing, removes nothing");
  });

  it("forgetting (scrubDeleted) removes a dead writer's temp but not a live writer's, whose rename would then fail", async () => {
    const path = freshPath();
    const annDir = SqliteDenseIndexes.dirFor(path);
    const live = liveProcess();
    try {
      const store = await openSqliteStore(path);
      try {
        const liveIndex = leftover(annDir, `${hex}.9.${live.pid}.hnsw.tmp`, 64);
        const deadIndex = leftover(annDir, `${hex}.8.${deadPid()}.hnsw.tmp`, 64);
        await store.scrubDeleted();
        assert.ok(existsSync(join(annDir, liveIndex)), "the live writer's temp stays");
        assert.equal(existsSync(join(annDir, deadIndex)), false);
      } finally {
        await store.close();
      }
    } finally {
      live.kill();
    }
  });

  it("`ramem reindex` says how many temp files the open removed and the space freed (text and JSON)", async () => {
    const path = freshPath();
    await (await openSqliteStore(path)).close();
    const annDir = SqliteDenseIndexes.dirFor(path);
    leftover(annDir, `${hex}.40.${deadPid()}.hnsw.tmp`, 3 * 1024 * 1024);
    const text = await ramem(["reindex", "--db", path, "--embedder", "hash"]);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /removed 1 temp file\(s\) of index writes killed half-way: 3\.0 MB freed/);
    leftover(annDir, `${hex}.41.${deadPid()}.hnsw.tmp`, 500);
    const run = await ramem(["reindex", "--db", path, "--embedder", "hash", "--json"]);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout.trim().split("\n").at(-1)!).staleTemps, { files: 1, bytes: 500 });
    const clean = await ramem(["reindex", "--db", path, "--embedder", "hash", "--json"]);
    assert.equal(JSON.parse(clean.stdout.trim().split("\n").at(-1)!).staleTemps, undefined, "nothing removed: no field");
  });
});
