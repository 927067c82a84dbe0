import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import type { MemoryStore } from "../contract.js";
import { TEST_DIMS, TEST_EMBEDDER, makeRecord, makeRecords, makeSession, seededVector } from "../testing/make-unit.js";
import { openSqliteStore } from "./sqlite-store.js";
import { SqliteDenseIndexes } from "./dense-index.js";
import { MIGRATIONS } from "./schema.js";

const dir = mkdtempSync(join(tmpdir(), "ramem-ann-"));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const freshPath = () => join(dir, `ann-${process.pid}-${n++}.db`);
const ids = (xs: readonly { id: string }[]) => xs.map((x) => x.id);

async function filled(path: string, options: { annMinUnits: number }): Promise<MemoryStore> {
  const store = await openSqliteStore(path, options);
  await store.bindEmbedder(TEST_EMBEDDER, TEST_DIMS);
  for (let i = 0; i < 4; i++) {
    const s = makeSession({ id: `s${i}`, startTime: `2023-05-0${i + 1}T10:00:00Z` });
    await store.replaceSession(s, `h${i}`, makeRecords(s, 30));
  }
  return store;
}

/** What the exact path answers for the same file (threshold out of reach). */
async function exactAnswer(path: string, v: Float32Array, k: number): Promise<string[]> {
  const exact = await openSqliteStore(path, { annMinUnits: Number.MAX_SAFE_INTEGER });
  try {
    return ids(await exact.searchDense("ns-a", v, k));
  } finally {
    await exact.close();
  }
}

const indexFiles = (path: string) => (existsSync(SqliteDenseIndexes.dirFor(path)) ? readdirSync(SqliteDenseIndexes.dirFor(path)) : []);

describe("sqlite dense index (HNSW above the threshold)", () => {
  it("is written beside the file on close and read back; writes by another handle meanwhile are applied from the log", async () => {
    const path = freshPath();
    const store = await filled(path, { annMinUnits: 10 });
    const v = seededVector("probe");
    await store.searchDense("ns-a", v, 5);
    await store.close();
    assert.ok(indexFiles(path).some((f) => f.endsWith(".hnsw")), "index file written");
    // Another handle (think: another process that never loads the index) adds and deletes units.
    const other = await openSqliteStore(path, { annMinUnits: Number.MAX_SAFE_INTEGER });
    const late = makeSession({ id: "late", startTime: "2023-06-01T10:00:00Z" });
    await other.replaceSession(late, "h", [makeRecord(late, 0, { id: "late-0", embedding: v })]);
    const gone = (await other.searchDense("ns-a", v, 1))[0]!.id === "late-0" ? (await other.listUnits("ns-a"))[0]!.id : "";
    assert.equal(await other.deleteUnit("ns-a", gone), true);
    await other.close();
    const again = await openSqliteStore(path, { annMinUnits: 10 });
    try {
      const hits = ids(await again.searchDense("ns-a", v, 20));
      assert.equal(hits[0], "late-0");
      assert.ok(!hits.includes(gone));
      assert.deepEqual(hits, await exactAnswer(path, v, 20));
    } finally {
      await again.close();
    }
  });

  it("rebuilds from the stored vectors when its file is torn, its meta unreadable, or it belongs to another file", async () => {
    const path = freshPath();
    const store = await filled(path, { annMinUnits: 10 });
    const v = seededVector("probe-2");
    await store.searchDense("ns-a", v, 5);
    await store.close();
    const annDir = SqliteDenseIndexes.dirFor(path);
    const hnsw = indexFiles(path).find((f) => f.endsWith(".hnsw"))!;
    const meta = indexFiles(path).find((f) => f.endsWith(".json"))!;
    const damages: Array<() => void> = [
      // A crash half-way through writing the index: fewer bytes than the meta says.
      () => writeFileSync(join(annDir, hnsw), readFileSync(join(annDir, hnsw)).subarray(0, 100)),
      () => writeFileSync(join(annDir, meta), "{ not json"),
      () => writeFileSync(join(annDir, meta), JSON.stringify({ ...JSON.parse(readFileSync(join(annDir, meta), "utf8")), storeId: "another file" })),
    ];
    for (const damage of damages) {
      // Each round starts from a good pair: the previous round's rebuild wrote one.
      const current = indexFiles(path);
      assert.ok(current.some((f) => f.endsWith(".hnsw")) && current.some((f) => f.endsWith(".json")));
      const [h] = current.filter((f) => f.endsWith(".hnsw"));
      if (h !== hnsw) writeFileSync(join(annDir, hnsw), readFileSync(join(annDir, h!)));
      damage();
      const reopened = await openSqliteStore(path, { annMinUnits: 10 });
      try {
        assert.deepEqual(ids(await reopened.searchDense("ns-a", v, 20)), await exactAnswer(path, v, 20));
      } finally {
        await reopened.close();
      }
    }
  });

  it("forgetting removes an index file that holds a deleted unit's vector (scrubDeleted); the next search rebuilds it", async () => {
    const path = freshPath();
    const store = await filled(path, { annMinUnits: 10 });
    const v = seededVector("probe-3");
    await store.searchDense("ns-a", v, 5);
    await store.close();
    assert.ok(indexFiles(path).some((f) => f.endsWith(".hnsw")));
    const forgetting = await openSqliteStore(path, { annMinUnits: 10 });
    try {
      const [first] = await forgetting.searchDense("ns-a", v, 1);
      await forgetting.deleteUnit("ns-a", first!.id);
      const report = await forgetting.scrubDeleted();
      assert.ok(report.steps.includes("dense index files of changed namespaces removed"), report.steps.join(", "));
      assert.deepEqual(indexFiles(path), []);
      assert.ok(!ids(await forgetting.searchDense("ns-a", v, 20)).includes(first!.id));
    } finally {
      await forgetting.close();
    }
    // An index that had deletions is never written: its memory still holds the deleted vector.
    assert.deepEqual(indexFiles(path).filter((f) => f.endsWith(".hnsw")), []);
  });

  it("buildDenseIndexes (ramem reindex) builds and writes the large namespaces' indexes before any search; later calls catch up and keep them", async () => {
    const path = freshPath();
    const store = await openSqliteStore(path, { annMinUnits: 50 });
    const v = seededVector("probe");
    try {
      await store.bindEmbedder(TEST_EMBEDDER, TEST_DIMS);
      for (let i = 0; i < 4; i++) {
        const s = makeSession({ id: `s${i}`, startTime: `2023-05-0${i + 1}T10:00:00Z` });
        await store.replaceSession(s, `h${i}`, makeRecords(s, 30));
      }
      const small = makeSession({ namespace: "ns-small", id: "s0" });
      await store.replaceSession(small, "h", makeRecords(small, 5));
      const seen: Array<[number, number, string]> = [];
      const first = await store.buildDenseIndexes({ onProgress: (done, total, namespace) => seen.push([done, total, namespace]) });
      assert.equal(first.action, "built");
      assert.deepEqual(first.namespaces, [{ namespace: "ns-a", vectors: 120, built: true }], "the 5-unit namespace stays exact");
      assert.deepEqual(seen.at(-1), [120, 120, "ns-a"]);
      assert.ok(indexFiles(path).some((f) => f.endsWith(".hnsw")), "written before any search or close");
      assert.equal((await store.buildDenseIndexes()).action, "up to date");
      assert.deepEqual((await store.buildDenseIndexes({ namespaces: ["ns-small"] })).namespaces, [], "only the namespaces asked for (ramem ingest: the ones it wrote)");
      // Another handle's write: the next call applies it from the log instead of building again.
      const other = await openSqliteStore(path, { annMinUnits: Number.MAX_SAFE_INTEGER });
      const late = makeSession({ id: "late", startTime: "2023-06-01T10:00:00Z" });
      await other.replaceSession(late, "h", [makeRecord(late, 0, { id: "late-0", embedding: v })]);
      await other.close();
      // ramem ingest's call: an index that is there stays as it is (the next search applies the log), so its file is not rewritten.
      const filesBefore = indexFiles(path).sort();
      assert.deepEqual((await store.buildDenseIndexes({ ifMissing: true })).namespaces, [{ namespace: "ns-a", vectors: 121, built: false }]);
      assert.deepEqual(indexFiles(path).sort(), filesBefore);
      const caughtUp = await store.buildDenseIndexes();
      assert.deepEqual(caughtUp.namespaces, [{ namespace: "ns-a", vectors: 121, built: false }]);
      assert.equal((await store.buildDenseIndexes({ rebuild: true })).namespaces[0]!.built, true);
      assert.equal(ids(await store.searchDense("ns-a", v, 1))[0], "late-0");
      assert.deepEqual(ids(await store.searchDense("ns-a", v, 20)), await exactAnswer(path, v, 20));
    } finally {
      await store.close();
    }
    const fresh = await openSqliteStore(path, { annMinUnits: 10_000 });
    try {
      const none = await fresh.buildDenseIndexes();
      assert.equal(none.action, "none");
      assert.match(none.note ?? "", /10,000 units or more/);
    } finally {
      await fresh.close();
    }
  });

  it("shards a large namespace's index, one build thread each: searches merge the shards, written and read back as shards, deletes and adds reach the right one", async () => {
    const path = freshPath();
    const shardsOf = (p: string) => {
      const meta = indexFiles(p).find((f) => f.endsWith(".json"))!;
      return (JSON.parse(readFileSync(join(SqliteDenseIndexes.dirFor(p), meta), "utf8")) as { files: unknown[] }).files.length;
    };
    const open = () => openSqliteStore(path, { annMinUnits: 50, annShards: { minVectors: 40, threads: 3 } });
    const store = await open();
    const probes = Array.from({ length: 8 }, (_, i) => seededVector(`shard-probe-${i}`));
    try {
      await store.bindEmbedder(TEST_EMBEDDER, TEST_DIMS);
      for (let i = 0; i < 4; i++) {
        const s = makeSession({ id: `s${i}`, startTime: `2023-05-0${i + 1}T10:00:00Z` });
        await store.replaceSession(s, `h${i}`, makeRecords(s, 30));
      }
      const seen: number[] = [];
      const built = await store.buildDenseIndexes({ onProgress: (done) => seen.push(done) });
      assert.deepEqual(built.namespaces, [{ namespace: "ns-a", vectors: 120, built: true }]);
      assert.equal(seen.at(-1), 120, "progress reaches every vector");
      assert.equal(shardsOf(path), 3, "120 vectors, 40 a shard at least, 3 threads: 3 shards");
      // Every vector is in exactly one shard: the merged answer holds the whole namespace, each unit once.
      const all = ids(await store.searchDense("ns-a", probes[0]!, 120));
      assert.equal(new Set(all).size, 120);
      let agree = 0;
      for (const v of probes) {
        const approximate = ids(await store.searchDense("ns-a", v, 10));
        const exact = await exactAnswer(path, v, 10);
        agree += approximate.filter((id) => exact.includes(id)).length;
      }
      assert.ok(agree / 80 >= 0.95, `recall@10 against exact ${agree / 80}`);
      // A forget and an add by another handle: applied from the log to the shard that holds (or takes) them.
      const first = all[0]!;
      const other = await openSqliteStore(path, { annMinUnits: Number.MAX_SAFE_INTEGER });
      assert.equal(await other.deleteUnit("ns-a", first), true);
      const late = makeSession({ id: "late", startTime: "2023-06-01T10:00:00Z" });
      await other.replaceSession(late, "h", [makeRecord(late, 0, { id: "late-0", embedding: probes[1]! })]);
      await other.close();
      const after = ids(await store.searchDense("ns-a", probes[0]!, 120));
      assert.ok(!after.includes(first), "a deleted unit is not served");
      assert.equal(ids(await store.searchDense("ns-a", probes[1]!, 1))[0], "late-0");
    } finally {
      await store.close();
    }
    // Read back as shards by the next process (the index is current: nothing is built).
    const again = await open();
    try {
      assert.deepEqual((await again.buildDenseIndexes({ ifMissing: true })).namespaces, [{ namespace: "ns-a", vectors: 120, built: false }]);
      assert.equal(ids(await again.searchDense("ns-a", probes[1]!, 1))[0], "late-0");
    } finally {
      await again.close();
    }
  });

  it("stays out of the way below the threshold: no index, the exact answer", async () => {
    const path = freshPath();
    const store = await filled(path, { annMinUnits: 1000 });
    try {
      const v = seededVector("probe-4");
      assert.equal((await store.searchDense("ns-a", v, 200)).length, 120);
      assert.deepEqual(indexFiles(path), []);
    } finally {
      await store.close();
    }
  });
});

describe("sqlite caches and the namespace-restricted FTS", () => {
  it("a session list and history range cached by one handle see another handle's write", async () => {
    const path = freshPath();
    const a = await filled(path, { annMinUnits: 1000 });
    const b = await openSqliteStore(path);
    try {
      assert.equal((await a.listSessions("ns-a")).length, 4);
      const before = await a.historyRange("ns-a");
      const s = makeSession({ id: "s9", startTime: "2024-01-01T10:00:00Z" });
      await b.replaceSession(s, "h", makeRecords(s, 1));
      assert.equal((await a.listSessions("ns-a")).length, 5);
      assert.notDeepEqual(await a.historyRange("ns-a"), before);
      assert.equal((await a.historyRange("ns-a"))!.end, "2024-01-01T10:00:00Z");
      // Its own writes too, and what it hands out is the caller's to change.
      await a.deleteSession("ns-a", "s9");
      const listed = await a.listSessions("ns-a");
      assert.equal(listed.length, 4);
      listed.pop();
      listed[0]!.participants.push("Mallory");
      assert.equal((await a.listSessions("ns-a")).length, 4);
      assert.ok(!(await a.listSessions("ns-a"))[0]!.participants.includes("Mallory"));
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("migrates a version-2 file: its FTS rows get the namespace token, lexical search finds them, in their namespace only", async () => {
    const path = freshPath();
    const db = new Database(path);
    db.exec(MIGRATIONS[0]!);
    db.exec(MIGRATIONS[1]!);
    db.prepare("INSERT INTO meta (key, value) VALUES ('schema_version', '2')").run();
    for (const ns of ["ns-a", "ns-a.b"]) {
      const s = makeSession({ namespace: ns });
      const unit = makeRecord(s, 0, { content: "We hiked up the volcano at dawn." }).unit;
      db.prepare("INSERT INTO sessions (namespace, id, start_time, end_time, start_ms, end_ms, participants, content_hash, unit_count) VALUES (?, ?, ?, ?, ?, ?, '[]', 'h', 1)").run(
        ns, s.id, s.startTime, s.endTime, Date.parse(s.startTime), Date.parse(s.endTime),
      );
      const row = db.prepare("INSERT INTO units (namespace, id, session_id, seq, participants, body) VALUES (?, ?, ?, 0, '[]', ?)").run(ns, unit.id, s.id, JSON.stringify(unit));
      db.prepare("INSERT INTO fts (rowid, content, cue, namespace) VALUES (?, ?, '', ?)").run(row.lastInsertRowid, unit.content, ns);
    }
    db.close();
    const store = await openSqliteStore(path);
    try {
      assert.deepEqual(ids(await store.searchLexical("ns-a", ["volcano"], 10)), ["ns-a:s1-u0"]);
      assert.deepEqual(ids(await store.searchLexical("ns-a.b", ["volcano"], 10)), ["ns-a.b:s1-u0"]);
      assert.deepEqual(await store.searchLexical("ns-b", ["volcano"], 10), []);
    } finally {
      await store.close();
    }
  });

  it("leaves out a term found in at least half the file's units (bm25 weighs it 1e-6) in a namespace above the index threshold", async () => {
    const below = await openSqliteStore(freshPath(), { annMinUnits: 10 });
    try {
      await below.bindEmbedder(TEST_EMBEDDER, TEST_DIMS);
      const s = makeSession();
      await below.replaceSession(s, "h", ["Alice: bread", "Alice: volcano", "Alice: nothing"].map((content, i) => makeRecord(s, i, { content })));
      // Below the threshold FTS5 answers as it is: "alice" alone still matches.
      assert.equal((await below.searchLexical("ns-a", ["alice", "volcano"], 10)).length, 3);
    } finally {
      await below.close();
    }
    const store = await openSqliteStore(freshPath(), { annMinUnits: 1 });
    try {
      await store.bindEmbedder(TEST_EMBEDDER, TEST_DIMS);
      const s = makeSession();
      const contents = ["Alice: we baked bread", "Alice: the volcano trip", "Alice: nothing much", "Bob: volcano photos", "Bob: more bread"];
      await store.replaceSession(s, "h", contents.map((content, i) => makeRecord(s, i, { content })));
      // "alice" is in 3 of 5 units: only "volcano" counts, so "nothing much" (alice alone) is not a hit.
      assert.deepEqual(ids(await store.searchLexical("ns-a", ["alice", "volcano"], 10)).sort(), ["ns-a:s1-u1", "ns-a:s1-u3"]);
      assert.deepEqual(ids(await store.searchLexical("ns-a", ["alice"], 10)).length, 3);
      // "bread" is in 2 of 5: below half, kept.
      assert.deepEqual(ids(await store.searchLexical("ns-a", ["bread"], 10)).sort(), ["ns-a:s1-u0", "ns-a:s1-u4"]);
    } finally {
      await store.close();
    }
  });
});
