import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { MemoryStore } from "../store/contract.js";
import { openSqliteStore } from "../store/sqlite/sqlite-store.js";
import { TEST_DIMS, TEST_EMBEDDER, makeRecords, makeSession } from "../store/testing/make-unit.js";
import { namespaceSnapshot } from "./namespace-snapshot.js";

/** The store, counting its listSessions calls; `versioned: false` hides namespaceVersion (a dialect without it). */
function counting(store: MemoryStore, versioned = true): { store: MemoryStore; reads: () => number } {
  let reads = 0;
  const wrapped = Object.create(store) as MemoryStore & { namespaceVersion?: MemoryStore["namespaceVersion"] };
  wrapped.listSessions = (namespace: string) => {
    reads++;
    return store.listSessions(namespace);
  };
  if (!versioned) wrapped.namespaceVersion = undefined;
  return { store: wrapped, reads: () => reads };
}

test("a namespace's snapshot is kept while its version stays, and read again after a write from another connection", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ramem-snapshot-"));
  const path = join(dir, "s.db");
  const raw = await openSqliteStore(path);
  const writer = await openSqliteStore(path);
  try {
    await raw.bindEmbedder(TEST_EMBEDDER, TEST_DIMS);
    const s1 = makeSession({ id: "s1", participants: ["Ana", "Bo"] });
    await raw.replaceSession(s1, "h1", makeRecords(s1, 2));
    const { store, reads } = counting(raw);
    const first = await namespaceSnapshot(store, s1.namespace);
    assert.deepEqual(first.knownPeople, ["Ana", "Bo"]);
    assert.equal(await namespaceSnapshot(store, s1.namespace), first);
    assert.equal(reads(), 1);
    assert.equal(await first.validity(), await first.validity(), "the validity is derived once per snapshot");
    const s2 = makeSession({ id: "s2", startTime: "2023-05-09T13:00:00Z", participants: ["Ana", "Cy"] });
    await writer.replaceSession(s2, "h2", makeRecords(s2, 2));
    const second = await namespaceSnapshot(store, s1.namespace);
    assert.notEqual(second, first);
    assert.deepEqual(second.knownPeople, ["Ana", "Bo", "Cy"]);
    assert.deepEqual(second.sessions.map((s) => s.id), ["s1", "s2"]);
    assert.equal(reads(), 2);
  } finally {
    await writer.close();
    await raw.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a store without namespaceVersion is read on every call", async () => {
  const raw = await openSqliteStore(":memory:");
  try {
    await raw.bindEmbedder(TEST_EMBEDDER, TEST_DIMS);
    const s1 = makeSession({ id: "s1" });
    await raw.replaceSession(s1, "h1", makeRecords(s1, 2));
    const { store, reads } = counting(raw, false);
    await namespaceSnapshot(store, s1.namespace);
    await namespaceSnapshot(store, s1.namespace);
    assert.equal(reads(), 2);
  } finally {
    await raw.close();
  }
});
