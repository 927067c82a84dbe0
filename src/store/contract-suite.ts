import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { RamemError } from "../model/errors.js";
import type { MemoryStore, UnitRecord } from "./contract.js";
import type { MemoryUnit } from "../model/memory-unit.js";
import { runWritesContractSuite } from "./writes-contract-suite.js";
import { sourceHashOf } from "./session-hash.js";
import {
  TEST_DIMS,
  TEST_EMBEDDER,
  axisVector,
  cosine,
  makeRecord,
  makeRecords,
  makeSession,
  seededVector,
} from "./testing/make-unit.js";

export interface ContractSuiteOptions {
  /**
   * A fresh store of the same dialect whose dense search goes through its
   * approximate index at any namespace size: it must agree with the exact
   * store up to recall, and see every write at once.
   */
  openApproximate?: () => Promise<MemoryStore>;
}

/**
 * The behaviour every MemoryStore dialect must show. `open` must return a
 * fresh, empty store on each call; each test closes the store it opened.
 */
export function runStoreContractSuite(name: string, open: () => Promise<MemoryStore>, suiteOptions: ContractSuiteOptions = {}): void {
  async function withStore(fn: (store: MemoryStore) => Promise<void>, bind = true): Promise<void> {
    const store = await open();
    try {
      if (bind) await store.bindEmbedder(TEST_EMBEDDER, TEST_DIMS);
      await fn(store);
    } finally {
      await store.close();
    }
  }

  const ids = (xs: readonly { id: string }[]) => xs.map((x) => x.id);
  /** Units as written: the store adds createdAt and updatedAt. */
  const untimed = (us: readonly MemoryUnit[]) => us.map(({ createdAt: _c, updatedAt: _u, ...u }) => u);
  const unitIds = (recs: readonly UnitRecord[]) => recs.map((r) => r.unit.id);
  const isRamemError = (code: string) => (err: unknown) => {
    assert.ok(err instanceof RamemError, `expected RamemError, got ${String(err)}`);
    assert.equal(err.code, code);
    return true;
  };
  const isAnyRamemError = (err: unknown) => {
    assert.ok(err instanceof RamemError, `expected RamemError, got ${String(err)}`);
    return true;
  };

  describe(`MemoryStore contract: ${name}`, () => {
    describe("bindEmbedder", () => {
      it("records the embedder and accepts the same binding again", async () => {
        await withStore(async (store) => {
          assert.equal(store.specificationVersion, "v1");
          const before = await store.stats();
          assert.equal(before.embedder, null);
          assert.equal(before.dimensions, null);
          await store.bindEmbedder(TEST_EMBEDDER, TEST_DIMS);
          await store.bindEmbedder(TEST_EMBEDDER, TEST_DIMS);
          const after = await store.stats();
          assert.equal(after.embedder, TEST_EMBEDDER);
          assert.equal(after.dimensions, TEST_DIMS);
        }, false);
      });

      it("refuses another embedder id or size with EMBEDDER_MISMATCH and a hint", async () => {
        await withStore(async (store) => {
          await assert.rejects(store.bindEmbedder("other-model@2", TEST_DIMS), (err: unknown) => {
            isRamemError("EMBEDDER_MISMATCH")(err);
            assert.ok((err as RamemError).hint, "mismatch error carries a hint");
            return true;
          });
          await assert.rejects(store.bindEmbedder(TEST_EMBEDDER, TEST_DIMS * 2), isRamemError("EMBEDDER_MISMATCH"));
          assert.equal((await store.stats()).embedder, TEST_EMBEDDER);
        });
      });

      it("refuses units before an embedder is bound", async () => {
        await withStore(async (store) => {
          const s = makeSession();
          await assert.rejects(store.replaceSession(s, "h1", makeRecords(s, 2)), isAnyRamemError);
          assert.equal(await store.getSession(s.namespace, s.id), null);
        }, false);
      });
    });

    describe("replaceSession", () => {
      it("inserts a session and its units", async () => {
        await withStore(async (store) => {
          const s = makeSession({ participants: ["Caroline", "Melanie"] });
          const recs = makeRecords(s, 3);
          await store.replaceSession(s, "hash-1", recs);
          const got = await store.getSession(s.namespace, s.id);
          assert.ok(got);
          assert.equal(got.contentHash, "hash-1");
          assert.equal(got.unitCount, 3);
          assert.equal(got.startTime, s.startTime);
          assert.equal(got.endTime, s.endTime);
          assert.deepEqual(got.participants, s.participants);
          assert.deepEqual(untimed(await store.getUnits(s.namespace, unitIds(recs))), recs.map((r) => r.unit));
          assert.ok((await store.getUnits(s.namespace, unitIds(recs))).every((u) => u.createdAt && u.updatedAt), "a stored unit carries createdAt and updatedAt");
          assert.deepEqual(ids(await store.listUnits(s.namespace)), unitIds(recs));
          assert.deepEqual(ids(await store.listSessions(s.namespace)), [s.id]);
        });
      });

      it("compare-and-swap: writes only over the expected hash (null: only a new session), else SESSION_CHANGED and nothing written", async () => {
        await withStore(async (store) => {
          const s = makeSession();
          const first = makeRecords(s, 2);
          await store.replaceSession(s, "h1", first, { expectedHash: null });
          await assert.rejects(store.replaceSession(s, "h-dup", makeRecords(s, 1), { expectedHash: null }), isRamemError("SESSION_CHANGED"));
          await assert.rejects(store.replaceSession(s, "h-stale", makeRecords(s, 1), { expectedHash: "h0" }), isRamemError("SESSION_CHANGED"));
          assert.equal((await store.getSession(s.namespace, s.id))?.contentHash, "h1");
          assert.deepEqual(ids(await store.listUnits(s.namespace)), unitIds(first));
          const second = [...first, makeRecord(s, 2)];
          await store.replaceSession(s, "h2", second, { expectedHash: "h1" });
          assert.deepEqual(ids(await store.listUnits(s.namespace)), unitIds(second));
          await store.deleteSession(s.namespace, s.id);
          await assert.rejects(store.replaceSession(s, "h3", first, { expectedHash: "h2" }), isRamemError("SESSION_CHANGED"));
          assert.equal(await store.getSession(s.namespace, s.id), null);
        });
      });

      it("compare-and-swap under concurrency: of two writers over the same hash exactly one wins", async () => {
        await withStore(async (store) => {
          const s = makeSession();
          await store.replaceSession(s, "h1", makeRecords(s, 1));
          const a = [...makeRecords(s, 1), makeRecord(s, 7)];
          const b = [...makeRecords(s, 1), makeRecord(s, 8)];
          const results = await Promise.allSettled([
            store.replaceSession(s, "ha", a, { expectedHash: "h1" }),
            store.replaceSession(s, "hb", b, { expectedHash: "h1" }),
          ]);
          assert.equal(results.filter((r) => r.status === "fulfilled").length, 1);
          const lost = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
          assert.ok(lost.reason instanceof RamemError && lost.reason.code === "SESSION_CHANGED");
          const won = (await store.getSession(s.namespace, s.id))!.contentHash;
          assert.deepEqual(ids(await store.listUnits(s.namespace)), unitIds(won === "ha" ? a : b));
        });
      });

      it("replaces: afterwards the store holds exactly the new units", async () => {
        await withStore(async (store) => {
          const s = makeSession();
          const old = [
            makeRecord(s, 0, { content: "Caroline adopted a golden retriever." }),
            makeRecord(s, 1, { content: "Melanie painted a sunrise over the lake." }),
          ];
          await store.replaceSession(s, "h1", old);
          const fresh = [makeRecord(s, 5, { content: "Caroline joined a pottery class." })];
          await store.replaceSession(s, "h2", fresh);
          assert.deepEqual(ids(await store.listUnits(s.namespace)), unitIds(fresh));
          assert.deepEqual(await store.getUnits(s.namespace, unitIds(old)), []);
          assert.deepEqual(await store.searchLexical(s.namespace, ["retriever"], 10), []);
          assert.deepEqual(ids(await store.searchDense(s.namespace, old[0]!.embedding, 10)), unitIds(fresh));
          const got = await store.getSession(s.namespace, s.id);
          assert.equal(got?.contentHash, "h2");
          assert.equal(got?.unitCount, 1);
          assert.equal((await store.stats(s.namespace)).units, 1);
        });
      });

      it("is idempotent: the same input twice gives the same state", async () => {
        await withStore(async (store) => {
          const s = makeSession();
          const recs = makeRecords(s, 4);
          await store.replaceSession(s, "h1", recs);
          const first = { stats: await store.stats(), units: await store.listUnits(s.namespace) };
          await store.replaceSession(s, "h1", recs);
          assert.deepEqual(await store.stats(), first.stats);
          assert.deepEqual(await store.listUnits(s.namespace), first.units, "createdAt and updatedAt survive an unchanged rewrite");
          assert.equal((await store.searchDense(s.namespace, recs[0]!.embedding, 100)).length, 4);
        });
      });

      it("accepts a session with no units", async () => {
        await withStore(async (store) => {
          const s = makeSession();
          await store.replaceSession(s, "h0", []);
          assert.equal((await store.getSession(s.namespace, s.id))?.unitCount, 0);
          assert.deepEqual(await store.listUnits(s.namespace), []);
        });
      });

      it("is atomic: a failing call leaves the previous state intact", async () => {
        await withStore(async (store) => {
          const s = makeSession();
          const good = [makeRecord(s, 0, { content: "Melanie ran a charity race for mental health." })];
          await store.replaceSession(s, "good", good);

          const snapshot = async () => ({
            session: await store.getSession(s.namespace, s.id),
            units: await store.listUnits(s.namespace),
            stats: await store.stats(),
            lexical: await store.searchLexical(s.namespace, ["charity", "pottery"], 10),
            dense: await store.searchDense(s.namespace, good[0]!.embedding, 10),
          });
          const before = await snapshot();

          const wrongDims = [
            makeRecord(s, 1, { content: "Caroline went to a pottery class." }),
            makeRecord(s, 2, { content: "pottery again", embedding: seededVector("x", TEST_DIMS + 3) }),
          ];
          await assert.rejects(store.replaceSession(s, "bad-dims", wrongDims));
          assert.deepEqual(await snapshot(), before);

          const otherNs = makeSession({ namespace: "ns-other" });
          const wrongNs = [makeRecord(s, 1, { content: "pottery" }), makeRecord(otherNs, 2, { content: "pottery" })];
          await assert.rejects(store.replaceSession(s, "bad-ns", wrongNs), isAnyRamemError);
          assert.deepEqual(await snapshot(), before);
          assert.deepEqual(await store.listNamespaces(), [s.namespace]);

          const invalid = makeRecord(s, 3, { content: "pottery" });
          (invalid.unit as unknown as { provenance: unknown }).provenance = { sessionId: s.id, turnIds: [] };
          await assert.rejects(store.replaceSession(s, "bad-unit", [makeRecord(s, 4), invalid]), isAnyRamemError);
          assert.deepEqual(await snapshot(), before);

          const dup = makeRecord(s, 1, { content: "pottery" });
          await assert.rejects(store.replaceSession(s, "dup", [dup, dup]));
          assert.deepEqual(await snapshot(), before);

          // A unit id already owned by another session of the namespace is refused;
          // this one fails mid-write (after the old units were deleted), so it tests rollback.
          const other = makeSession({ id: "s-other" });
          await store.replaceSession(other, "o", [makeRecord(other, 0, { id: "taken" })]);
          const beforeTaken = await snapshot();
          await assert.rejects(store.replaceSession(s, "taken", [makeRecord(s, 1), makeRecord(s, 2, { id: "taken" })]));
          assert.deepEqual(await snapshot(), beforeTaken);
          assert.equal((await store.getUnits(s.namespace, ["taken"]))[0]?.provenance.sessionId, "s-other");

          // A failed first ingest of a session must not leave a session row behind.
          const s2 = makeSession({ id: "s2" });
          await assert.rejects(store.replaceSession(s2, "x", [makeRecord(s2, 0, { embedding: new Float32Array(2) })]));
          assert.equal(await store.getSession(s2.namespace, s2.id), null);
        });
      });
    });

    describe("namespace isolation", () => {
      // Both namespaces use the same session id, and one unit id exists in both.
      async function twoNamespaces(store: MemoryStore) {
        const a = makeSession({ namespace: "ns-a", id: "s1", startTime: "2023-01-01T10:00:00Z", endTime: "2023-01-01T11:00:00Z" });
        const b = makeSession({ namespace: "ns-b", id: "s1", startTime: "2024-01-01T10:00:00Z", endTime: "2024-01-01T11:00:00Z" });
        const aRecs = [
          makeRecord(a, 0, { content: "Caroline climbed a volcano in Iceland.", embedding: axisVector(0) }),
          makeRecord(a, 1, { content: "Caroline likes quiet evenings.", embedding: axisVector(1) }),
          makeRecord(a, 2, { id: "shared-id", content: "Alpha version of the shared unit about lanterns.", embedding: axisVector(2) }),
        ];
        const bRecs = [
          makeRecord(b, 0, { content: "Melanie baked bread with her kids.", embedding: axisVector(4) }),
          makeRecord(b, 1, { id: "shared-id", content: "Beta version of the shared unit about kites.", embedding: axisVector(5) }),
        ];
        await store.replaceSession(a, "ha", aRecs);
        await store.replaceSession(b, "hb", bRecs);
        const aOnly = makeSession({ namespace: "ns-a", id: "s-a-only", startTime: "2023-02-01T10:00:00Z" });
        await store.replaceSession(aOnly, "ha2", [makeRecord(aOnly, 0, { content: "Caroline visited a volcano museum." })]);
        return { a, b, aRecs, bRecs, aOnly };
      }

      it("reads: getUnits, listUnits, sessions, stats, historyRange", async () => {
        await withStore(async (store) => {
          const { a, b, aRecs, bRecs } = await twoNamespaces(store);
          assert.deepEqual(await store.getUnits("ns-b", unitIds(aRecs).filter((id) => id !== "shared-id")), []);
          assert.deepEqual(untimed(await store.getUnits("ns-b", ["shared-id"])), [bRecs[1]!.unit]);
          assert.deepEqual(untimed(await store.getUnits("ns-a", ["shared-id"])), [aRecs[2]!.unit]);
          assert.deepEqual(ids(await store.listUnits("ns-b")), unitIds(bRecs));
          assert.deepEqual(ids(await store.listUnits("ns-b", { sessionId: "s-a-only" })), []);
          assert.equal((await store.getSession("ns-b", "s1"))?.contentHash, "hb");
          assert.equal((await store.getSession("ns-a", "s1"))?.contentHash, "ha");
          assert.equal(await store.getSession("ns-b", "s-a-only"), null);
          assert.deepEqual(ids(await store.listSessions("ns-b")), ["s1"]);
          assert.deepEqual((await store.listSessions("ns-a")).length, 2);
          assert.deepEqual(await store.listNamespaces(), ["ns-a", "ns-b"]);
          const sa = await store.stats("ns-a");
          const sb = await store.stats("ns-b");
          assert.deepEqual([sa.namespaces, sa.sessions, sa.units], [1, 2, 4]);
          assert.deepEqual([sb.namespaces, sb.sessions, sb.units], [1, 1, 2]);
          const all = await store.stats();
          assert.deepEqual([all.namespaces, all.sessions, all.units], [2, 3, 6]);
          assert.deepEqual(await store.historyRange("ns-b"), { start: b.startTime, end: b.endTime });
          assert.equal((await store.historyRange("ns-a"))?.start, a.startTime);
          assert.equal(await store.historyRange("ns-c"), null);
          assert.deepEqual(await store.listUnits("ns-c"), []);
          assert.deepEqual((await store.stats("ns-c")).units, 0);
        });
      });

      it("searches: lexical and dense never cross namespaces", async () => {
        await withStore(async (store) => {
          const { aRecs } = await twoNamespaces(store);
          assert.deepEqual(await store.searchLexical("ns-b", ["volcano"], 10), []);
          assert.equal((await store.searchLexical("ns-a", ["volcano"], 10)).length, 2);
          assert.deepEqual(ids(await store.searchLexical("ns-b", ["shared", "lanterns"], 10)), ["shared-id"]);
          assert.deepEqual(await store.searchLexical("ns-b", ["lanterns"], 10), []);
          const dense = await store.searchDense("ns-b", aRecs[0]!.embedding, 10);
          assert.equal(dense.length, 2);
          const bIds = new Set(ids(await store.listUnits("ns-b")));
          for (const h of dense) assert.ok(bIds.has(h.id));
          assert.deepEqual(await store.searchDense("ns-c", aRecs[0]!.embedding, 10), []);
          assert.deepEqual(await store.searchLexical("ns-c", ["volcano"], 10), []);
        });
      });

      it("writes: deletes and replaces in one namespace leave the other untouched", async () => {
        await withStore(async (store) => {
          const { b, aRecs, bRecs } = await twoNamespaces(store);
          const aBefore = await store.listUnits("ns-a");
          assert.equal(await store.deleteUnit("ns-b", aRecs[0]!.unit.id), false);
          assert.equal(await store.deleteSession("ns-b", "s-a-only"), 0);
          assert.equal(await store.deleteUnit("ns-b", "shared-id"), true);
          assert.deepEqual(await store.listUnits("ns-a"), aBefore);
          assert.deepEqual(ids(await store.searchLexical("ns-a", ["lanterns"], 10)), ["shared-id"]);

          await store.replaceSession(b, "hb2", [makeRecord(b, 9, { content: "Melanie flew kites." })]);
          assert.deepEqual(await store.listUnits("ns-a"), aBefore);
          assert.equal((await store.getSession("ns-a", "s1"))?.contentHash, "ha");

          assert.equal(await store.deleteSession("ns-b", "s1"), 1);
          assert.deepEqual(await store.listUnits("ns-a"), aBefore);
          assert.ok(await store.getSession("ns-a", "s1"));

          await store.replaceSession(b, "hb", bRecs);
          assert.equal(await store.deleteNamespace("ns-b"), 2);
          assert.deepEqual(await store.listUnits("ns-a"), aBefore);
          assert.equal((await store.searchDense("ns-a", aRecs[0]!.embedding, 10)).length, 4);
          assert.deepEqual(await store.listNamespaces(), ["ns-a"]);
          assert.equal(await store.deleteNamespace("ns-b"), 0);
        });
      });
    });

    describe("searchLexical", () => {
      async function corpus(store: MemoryStore) {
        const s = makeSession();
        const recs = [
          makeRecord(s, 0, { content: "Caroline talked about her weekend plans." }),
          makeRecord(s, 1, { content: "Melanie went on a volcano hike with friends last summer." }),
          makeRecord(s, 2, { content: "Caroline mentioned a hike near the coast." }),
          makeRecord(s, 3, { content: "Melanie read a book about the ocean." }),
          makeRecord(s, 4, { content: "Caroline bought new running shoes." }),
        ];
        await store.replaceSession(s, "h", recs);
        return { s, recs };
      }

      it("ranks the unit holding the query words first, with 1-based ranks and falling scores", async () => {
        await withStore(async (store) => {
          const { s, recs } = await corpus(store);
          const hits = await store.searchLexical(s.namespace, ["volcano", "hike"], 10);
          assert.equal(hits[0]?.id, recs[1]!.unit.id);
          assert.deepEqual(new Set(ids(hits)), new Set([recs[1]!.unit.id, recs[2]!.unit.id]));
          hits.forEach((h, i) => assert.equal(h.rank, i + 1));
          for (let i = 1; i < hits.length; i++) assert.ok(hits[i - 1]!.score >= hits[i]!.score);
          assert.ok(hits.every((h) => Number.isFinite(h.score)));
          assert.equal((await store.searchLexical(s.namespace, ["caroline"], 2)).length, 2);
        });
      });

      it("searches the cue too, weighted below content", async () => {
        await withStore(async (store) => {
          const s = makeSession();
          const recs = [
            makeRecord(s, 0, { content: "Melanie likes a quiet garden", cue: "what does she enjoy" }),
            makeRecord(s, 1, { content: "what does she enjoy painting", cue: "Melanie likes a quiet garden" }),
            makeRecord(s, 2, { content: "Nothing related here at all", cue: "where did Caroline travel" }),
          ];
          await store.replaceSession(s, "h", recs);
          assert.deepEqual(ids(await store.searchLexical(s.namespace, ["travel"], 10)), [recs[2]!.unit.id]);
          assert.deepEqual(ids(await store.searchLexical(s.namespace, ["garden"], 10)), [recs[0]!.unit.id, recs[1]!.unit.id]);
        });
      });

      it("treats terms as plain words: no syntax errors, empty terms give no hits", async () => {
        await withStore(async (store) => {
          const { s } = await corpus(store);
          assert.deepEqual(await store.searchLexical(s.namespace, [], 10), []);
          assert.deepEqual(await store.searchLexical(s.namespace, ["", "  "], 10), []);
          for (const t of ['"', "AND", "NEAR(", "content:x", "a*", "(", "-", "^", "'s", 'say "hi"']) {
            await store.searchLexical(s.namespace, [t, "hike"], 10);
          }
          assert.deepEqual(await store.searchLexical(s.namespace, ["hike"], 0), []);
        });
      });
    });

    describe("searchDense", () => {
      it("returns nearest first, in exact cosine order", async () => {
        await withStore(async (store) => {
          const s = makeSession();
          const recs = makeRecords(s, 20);
          await store.replaceSession(s, "h", recs);
          const target = recs[7]!;
          const hits = await store.searchDense(s.namespace, target.embedding, 20);
          assert.equal(hits[0]?.id, target.unit.id);
          assert.ok(Math.abs(hits[0]!.score - 1) < 1e-4, `self-similarity ${hits[0]!.score}`);
          const expected = [...recs]
            .sort((x, y) => cosine(target.embedding, y.embedding) - cosine(target.embedding, x.embedding))
            .map((r) => r.unit.id);
          assert.deepEqual(ids(hits), expected);
          hits.forEach((h, i) => {
            assert.equal(h.rank, i + 1);
            const r = recs.find((x) => x.unit.id === h.id)!;
            assert.ok(Math.abs(h.score - cosine(target.embedding, r.embedding)) < 1e-4);
          });
          assert.equal((await store.searchDense(s.namespace, target.embedding, 5)).length, 5);
          assert.deepEqual(await store.searchDense(s.namespace, target.embedding, 0), []);
        });
      });

      it("returns a complete top-k per namespace: min(limit, units in namespace)", async () => {
        await withStore(async (store) => {
          const big = makeSession({ namespace: "ns-big" });
          const small = makeSession({ namespace: "ns-small" });
          // The big namespace crowds the query's neighbourhood: a global top-k
          // filtered afterwards would return nothing for the small one.
          const query = axisVector(0);
          const bigRecs = Array.from({ length: 60 }, (_, i) =>
            makeRecord(big, i, { embedding: mix(query, seededVector(`big${i}`), 0.05) }),
          );
          const smallRecs = Array.from({ length: 3 }, (_, i) => makeRecord(small, i, { embedding: mix(query, seededVector(`small${i}`), 5) }));
          await store.replaceSession(big, "h", bigRecs);
          await store.replaceSession(small, "h", smallRecs);
          assert.equal((await store.searchDense("ns-small", query, 10)).length, 3);
          assert.equal((await store.searchDense("ns-small", query, 2)).length, 2);
          assert.equal((await store.searchDense("ns-big", query, 10)).length, 10);
          assert.equal((await store.searchDense("ns-big", query, 100)).length, 60);
          assert.deepEqual(new Set(ids(await store.searchDense("ns-small", query, 10))), new Set(unitIds(smallRecs)));
        });
      });

      it("refuses a query vector of the wrong size", async () => {
        await withStore(async (store) => {
          const s = makeSession();
          await store.replaceSession(s, "h", makeRecords(s, 2));
          await assert.rejects(store.searchDense(s.namespace, new Float32Array(TEST_DIMS + 1), 5), isAnyRamemError);
        });
      });
    });

    describe("listUnits filters", () => {
      async function threeSessions(store: MemoryStore) {
        const s1 = makeSession({ id: "s1", startTime: "2023-05-01T10:00:00Z", endTime: "2023-05-01T11:00:00Z", participants: ["Caroline", "Melanie"] });
        const s2 = makeSession({ id: "s2", startTime: "2023-05-08T10:00:00Z", participants: ["Caroline", "Jon"] });
        const s3 = makeSession({ id: "s3", startTime: "2023-06-01T10:00:00Z", endTime: "2023-06-02T10:00:00Z", participants: ["Gina"] });
        const r1 = makeRecords(s1, 3);
        const r2 = [makeRecord(s2, 0, { participants: ["Jon"] }), makeRecord(s2, 1, { participants: ["caroline", "Jon"] })];
        const r3 = makeRecords(s3, 2);
        // Inserted out of time order: listing must sort by session start, then turn order.
        await store.replaceSession(s3, "h3", r3);
        await store.replaceSession(s1, "h1", r1);
        await store.replaceSession(s2, "h2", r2);
        return { ns: s1.namespace, r1, r2, r3 };
      }

      it("orders by session start, then turn order; supports limit and offset", async () => {
        await withStore(async (store) => {
          const { ns, r1, r2, r3 } = await threeSessions(store);
          const all = [...unitIds(r1), ...unitIds(r2), ...unitIds(r3)];
          assert.deepEqual(ids(await store.listUnits(ns)), all);
          assert.deepEqual(ids(await store.listUnits(ns, { limit: 2 })), all.slice(0, 2));
          assert.deepEqual(ids(await store.listUnits(ns, { limit: 3, offset: 2 })), all.slice(2, 5));
          assert.deepEqual(ids(await store.listUnits(ns, { offset: 6 })), all.slice(6));
          assert.deepEqual(ids(await store.listSessions(ns)), ["s1", "s2", "s3"]);
        });
      });

      it("filters by session and by participant, case-insensitively", async () => {
        await withStore(async (store) => {
          const { ns, r1, r2 } = await threeSessions(store);
          assert.deepEqual(ids(await store.listUnits(ns, { sessionId: "s2" })), unitIds(r2));
          assert.deepEqual(ids(await store.listUnits(ns, { participant: "CAROLINE" })), [...unitIds(r1), r2[1]!.unit.id]);
          assert.deepEqual(ids(await store.listUnits(ns, { participant: "jon", sessionId: "s2" })), unitIds(r2));
          assert.deepEqual(await store.listUnits(ns, { participant: "Nobody" }), []);
          assert.deepEqual(await store.listUnits(ns, { participant: "Carol" }), []);
        });
      });

      it("filters by overlap of the session span with [from, to)", async () => {
        await withStore(async (store) => {
          const { ns, r1, r2, r3 } = await threeSessions(store);
          const list = async (from?: string, to?: string) =>
            ids(await store.listUnits(ns, { ...(from ? { from } : {}), ...(to ? { to } : {}) }));
          assert.deepEqual(await list("2023-05-01T10:30:00Z", "2023-05-01T10:45:00Z"), unitIds(r1));
          assert.deepEqual(await list("2023-05-02T00:00:00Z", "2023-06-01T00:00:00Z"), unitIds(r2));
          assert.deepEqual(await list("2023-06-01T20:00:00Z"), unitIds(r3));
          assert.deepEqual(await list(undefined, "2023-05-01T10:00:00Z"), []);
          assert.deepEqual(await list(undefined, "2023-05-08T10:00:01Z"), [...unitIds(r1), ...unitIds(r2)]);
          assert.deepEqual(await list("2023-05-01T11:00:00Z", "2023-05-08T10:00:00Z"), []);
          assert.deepEqual(await list("2023-07-01T00:00:00Z"), []);
        });
      });
    });

    describe("deletes", () => {
      async function seeded(store: MemoryStore) {
        const s1 = makeSession({ id: "s1" });
        const s2 = makeSession({ id: "s2", startTime: "2023-06-01T10:00:00Z" });
        const r1 = [
          makeRecord(s1, 0, { content: "Caroline found a rare seashell.", embedding: axisVector(0) }),
          makeRecord(s1, 1, { content: "Melanie planted tomatoes.", embedding: axisVector(1) }),
        ];
        const r2 = [makeRecord(s2, 0, { content: "Caroline framed the seashell.", embedding: axisVector(2) })];
        await store.replaceSession(s1, "h1", r1);
        await store.replaceSession(s2, "h2", r2);
        return { ns: s1.namespace, r1, r2 };
      }

      it("deleteUnit removes the unit from every channel", async () => {
        await withStore(async (store) => {
          const { ns, r1, r2 } = await seeded(store);
          const gone = r1[0]!.unit.id;
          assert.equal(await store.deleteUnit(ns, gone), true);
          assert.equal(await store.deleteUnit(ns, gone), false);
          assert.deepEqual(await store.getUnits(ns, [gone]), []);
          assert.ok(!ids(await store.listUnits(ns)).includes(gone));
          assert.deepEqual(ids(await store.searchLexical(ns, ["seashell"], 10)), [r2[0]!.unit.id]);
          assert.ok(!ids(await store.searchDense(ns, axisVector(0), 10)).includes(gone));
          assert.equal((await store.searchDense(ns, axisVector(0), 10)).length, 2);
          assert.equal((await store.getSession(ns, "s1"))?.unitCount, 1);
          assert.equal((await store.stats(ns)).units, 2);
        });
      });

      it("deleteUnit revises its session's hash (keeping the source part) and, given expectedHash, is a compare-and-swap", async () => {
        await withStore(async (store) => {
          const { ns, r1 } = await seeded(store);
          const refused = store.deleteUnit(ns, r1[0]!.unit.id, { expectedHash: "not-h1" });
          await assert.rejects(refused, (e: unknown) => e instanceof RamemError && e.code === "SESSION_CHANGED");
          assert.equal((await store.getUnits(ns, [r1[0]!.unit.id])).length, 1, "a refused delete deleted");
          assert.equal(await store.deleteUnit(ns, r1[0]!.unit.id, { expectedHash: "h1" }), true);
          const revised = (await store.getSession(ns, "s1"))!.contentHash;
          assert.notEqual(revised, "h1", "another writer's swap on h1 would write the unit back");
          assert.equal(sourceHashOf(revised), "h1");
          // A writer that read the session before the delete is refused.
          await assert.rejects(store.replaceSession(makeSession({ id: "s1" }), "h1", r1, { expectedHash: "h1" }), (e: unknown) => e instanceof RamemError && e.code === "SESSION_CHANGED");
          assert.equal((await store.getSession(ns, "s1"))?.unitCount, 1);
        });
      });

      it("deleteSession removes the session row and its units everywhere", async () => {
        await withStore(async (store) => {
          const { ns, r1, r2 } = await seeded(store);
          assert.equal(await store.deleteSession(ns, "s1"), 2);
          assert.equal(await store.getSession(ns, "s1"), null);
          assert.deepEqual(await store.getUnits(ns, unitIds(r1)), []);
          assert.deepEqual(ids(await store.listUnits(ns)), unitIds(r2));
          assert.deepEqual(await store.searchLexical(ns, ["tomatoes"], 10), []);
          assert.deepEqual(ids(await store.searchDense(ns, axisVector(1), 10)), unitIds(r2));
          assert.equal(await store.deleteSession(ns, "s1"), 0);
          assert.equal(await store.deleteSession(ns, "no-such-session"), 0);
          assert.deepEqual(await store.historyRange(ns), { start: "2023-06-01T10:00:00Z", end: "2023-06-01T10:00:00Z" });
        });
      });

      it("deleteNamespace removes everything of it", async () => {
        await withStore(async (store) => {
          const { ns, r1 } = await seeded(store);
          assert.equal(await store.deleteNamespace(ns), 3);
          assert.deepEqual(await store.listNamespaces(), []);
          assert.deepEqual(await store.listSessions(ns), []);
          assert.deepEqual(await store.listUnits(ns), []);
          assert.deepEqual(await store.getUnits(ns, unitIds(r1)), []);
          assert.deepEqual(await store.searchLexical(ns, ["seashell", "tomatoes"], 10), []);
          assert.deepEqual(await store.searchDense(ns, axisVector(0), 10), []);
          assert.equal(await store.historyRange(ns), null);
          const st = await store.stats();
          assert.deepEqual([st.namespaces, st.sessions, st.units], [0, 0, 0]);
          assert.equal(st.embedder, TEST_EMBEDDER, "the embedder binding outlives the data");
          // Re-ingest after a delete works (no leftovers collide).
          const s = makeSession();
          await store.replaceSession(s, "again", [r1[0]!]);
          assert.equal((await store.searchLexical(ns, ["seashell"], 10)).length, 1);
        });
      });

      it("scrubDeleted (with and without vacuum) keeps everything not deleted, searchable, and reports what it did", async () => {
        await withStore(async (store) => {
          const { ns, r1, r2 } = await seeded(store);
          await store.replaceSession(makeSession({ namespace: "ns-other", id: "o1" }), "ho", [makeRecord(makeSession({ namespace: "ns-other", id: "o1" }), 0, { content: "Other tenant keeps tomatoes." })]);
          await store.deleteSession(ns, "s1");
          for (const vacuum of [false, true]) {
            const report = await store.scrubDeleted({ vacuum });
            assert.ok(Array.isArray(report.steps), "steps");
            assert.equal(typeof report.complete, "boolean");
            if (!report.complete) assert.ok(report.note, "an incomplete scrub says what remains");
            assert.deepEqual(await store.getUnits(ns, unitIds(r1)), []);
            assert.deepEqual(ids(await store.searchLexical(ns, ["seashell", "tomatoes"], 10)), unitIds(r2));
            assert.deepEqual(ids(await store.searchDense(ns, axisVector(2), 1)), unitIds(r2));
            assert.equal((await store.searchLexical("ns-other", ["tomatoes"], 10)).length, 1);
            assert.equal((await store.stats()).units, 2);
          }
          assert.ok((await store.scrubDeleted({ vacuum: true })).complete, "a vacuum leaves no deleted row in the store's files");
        });
      });
    });

    describe("restoreNamespace", () => {
      const restoreSet = (namespace: string) => {
        const sessions = [0, 1, 2].map((i) => makeSession({ namespace, id: `r${i}`, startTime: `2023-0${i + 1}-01T10:00:00Z` }));
        return sessions.map((session, i) => ({ session, contentHash: `h${i}`, units: makeRecords(session, 2) }));
      };

      it("writes every session of an empty namespace, as replaceSession would", async () => {
        await withStore(async (store) => {
          const set = restoreSet("ns-r");
          await store.restoreNamespace("ns-r", set);
          assert.deepEqual(ids(await store.listSessions("ns-r")), ["r0", "r1", "r2"]);
          assert.deepEqual(ids(await store.listUnits("ns-r")), set.flatMap((s) => unitIds(s.units)));
          assert.equal((await store.getSession("ns-r", "r1"))?.contentHash, "h1");
          assert.equal((await store.searchDense("ns-r", set[2]!.units[1]!.embedding, 1))[0]?.id, set[2]!.units[1]!.unit.id);
          assert.equal((await store.searchLexical("ns-r", ["ordinary"], 10)).length, 6);
        });
      });

      it("is all or nothing: a refused session, a non-empty namespace or a foreign session leaves nothing", async () => {
        await withStore(async (store) => {
          const set = restoreSet("ns-r");
          const clash = { ...set[2]!, units: [{ ...set[2]!.units[0]!, unit: { ...set[0]!.units[0]!.unit, provenance: { ...set[0]!.units[0]!.unit.provenance, sessionId: "r2" }, context: { ...set[0]!.units[0]!.unit.context, session: { ...set[0]!.units[0]!.unit.context.session, sessionId: "r2" } } } }] };
          await assert.rejects(store.restoreNamespace("ns-r", [set[0]!, set[1]!, clash]), isAnyRamemError);
          assert.deepEqual(await store.listSessions("ns-r"), []);
          assert.deepEqual(await store.listUnits("ns-r"), []);
          const wrong = { ...set[1]!, units: [{ ...set[1]!.units[0]!, embedding: new Float32Array(3) }] };
          await assert.rejects(store.restoreNamespace("ns-r", [set[0]!, wrong]), isRamemError("EMBEDDING_DIMENSION_MISMATCH"));
          await assert.rejects(store.restoreNamespace("ns-other", set), isRamemError("NAMESPACE_MISMATCH"));
          assert.equal((await store.stats()).units, 0);
          await store.restoreNamespace("ns-r", set);
          await assert.rejects(store.restoreNamespace("ns-r", restoreSet("ns-r")), isRamemError("NAMESPACE_NOT_EMPTY"));
          assert.equal((await store.stats("ns-r")).units, 6);
        });
      });
    });

    describe("nextUnits (optional)", () => {
      it("gives each unit's successor in its session, as listUnits orders them, through an append and a delete", async () => {
        await withStore(async (store) => {
          // Optional in v1: a dialect without it is read through listUnits by the pipeline.
          if (!store.nextUnits) return;
          const s1 = makeSession({ id: "s1" });
          const s2 = makeSession({ id: "s2", startTime: "2023-05-09T13:00:00Z" });
          const other = makeSession({ namespace: "ns-b", id: "s1" });
          await store.replaceSession(s1, "h1", makeRecords(s1, 4));
          await store.replaceSession(s2, "h2", makeRecords(s2, 2));
          await store.replaceSession(other, "hb", makeRecords(other, 2));
          const ids = async (namespace: string, sessionId: string) => (await store.listUnits(namespace, { sessionId })).map((u) => u.id);
          const [a0, a1, a2, a3] = await ids("ns-a", "s1");
          const [b0, b1] = await ids("ns-a", "s2");
          const [o0] = await ids("ns-b", "s1");
          const next = await store.nextUnits!("ns-a", [a3!, a0!, b0!, b1!, o0!, "nope", a2!]);
          assert.deepEqual([...next].map(([id, u]) => [id, u.id]).sort(), [[a0, a1], [a2, a3], [b0, b1]].sort());
          assert.deepEqual(next.get(a0!), (await store.getUnits("ns-a", [a1!]))[0], "the whole unit, as getUnits reads it");
          await store.deleteUnit("ns-a", a1!);
          const s1b = makeSession({ id: "s1" });
          // The delete revised the session's hash: the append swaps on the one it has now.
          const revised = (await store.getSession("ns-a", "s1"))!.contentHash;
          await store.appendUnits(s1b, "h1b", makeRecords(s1b, 6).slice(4), { expectedHash: revised });
          const [, , , a4] = await ids("ns-a", "s1");
          const after = await store.nextUnits!("ns-a", [a0!, a3!]);
          assert.deepEqual([after.get(a0!)?.id, after.get(a3!)?.id], [a2, a4]);
        });
      });
    });

    describe("listStateUnits (optional)", () => {
      it("gives the units that state a state or carry a correction, and the successors they name, in listUnits' order", async () => {
        await withStore(async (store) => {
          // Optional in v1: without it, namespaceValidity filters listUnits.
          if (!store.listStateUnits) return;
          const state = { subject: "Caroline", slot: "residence", value: "lisbon", additive: false, ends: false, evidence: "I live in Lisbon" };
          const s1 = makeSession({ id: "s1" });
          const s2 = makeSession({ id: "s2", startTime: "2023-04-01T13:00:00Z" });
          const other = makeSession({ namespace: "ns-b", id: "s1" });
          const r1 = makeRecords(s1, 5);
          const r2 = makeRecords(s2, 3);
          const ro = makeRecords(other, 2);
          const id = (r: UnitRecord[], i: number) => r[i]!.unit.id;
          const withUnit = (r: UnitRecord[], i: number, change: Partial<MemoryUnit>) => {
            r[i] = { ...r[i]!, unit: { ...r[i]!.unit, ...change } };
          };
          withUnit(r1, 1, { context: { ...r1[1]!.unit.context, states: [state] } });
          // A correction naming a successor (r1[4]) that states nothing itself.
          withUnit(r1, 3, { supersession: { supersededBy: id(r1, 4), at: "2023-05-09T10:00:00.000Z" } });
          // "Not superseded, whatever the rules say" names no successor.
          withUnit(r2, 2, { supersession: { supersededBy: null, at: "2023-05-09T10:00:00.000Z" } });
          withUnit(r2, 0, { context: { ...r2[0]!.unit.context, states: [] } });
          withUnit(ro, 0, { context: { ...ro[0]!.unit.context, states: [state] } });
          await store.replaceSession(s1, "h1", r1);
          await store.replaceSession(s2, "h2", r2);
          await store.replaceSession(other, "hb", ro);
          const listed = async () => (await store.listStateUnits!("ns-a")).map((u) => u.id);
          // s2 starts before s1: listUnits' order is by session start, then seq.
          assert.deepEqual(await listed(), [id(r2, 2), id(r1, 1), id(r1, 3), id(r1, 4)]);
          const [first] = await store.listStateUnits!("ns-a");
          assert.deepEqual(first, (await store.getUnits("ns-a", [id(r2, 2)]))[0], "the whole unit, as getUnits reads it");
          assert.deepEqual((await store.listStateUnits!("ns-b")).map((u) => u.id), [id(ro, 0)]);
          await store.deleteUnit("ns-a", id(r1, 1));
          assert.deepEqual(await listed(), [id(r2, 2), id(r1, 3), id(r1, 4)]);
          assert.deepEqual(await store.listStateUnits!("ns-empty"), []);
        });
      });
    });

    describe("namespaceVersion (optional)", () => {
      it("stays through reads and moves with every kind of write to the namespace, units alone included", async () => {
        await withStore(async (store) => {
          // Optional in v1: without it the pipeline reads the namespace's sessions on every recall.
          if (!store.namespaceVersion) return;
          const ns = "ns-a";
          const empty = await store.namespaceVersion(ns);
          const s1 = makeSession({ id: "s1" });
          const seen = new Set<string>([empty]);
          const moved = async (what: string) => {
            const v = await store.namespaceVersion!(ns);
            assert.ok(!seen.has(v), `${what}: the version moved (${v})`);
            seen.add(v);
            return v;
          };
          await store.replaceSession(s1, "h1", makeRecords(s1, 3));
          const written = await moved("replaceSession");
          await store.listSessions(ns);
          await store.listUnits(ns);
          await store.searchLexical(ns, ["ordinary"], 5);
          await store.searchDense(ns, seededVector("q"), 5);
          assert.equal(await store.namespaceVersion(ns), written, "reads leave it");
          await store.appendUnits(s1, "h2", makeRecords(s1, 5).slice(3), { expectedHash: "h1" });
          await moved("appendUnits");
          const [first] = await store.listUnits(ns);
          // A correction writes the unit alone, not its session row.
          await store.updateUnits(ns, s1.id, "h3", [{ unit: { ...first!, content: "corrected text" }, embedding: seededVector("c") }], { expectedHash: "h2" });
          await moved("updateUnits");
          await store.deleteUnit(ns, first!.id);
          await moved("deleteUnit");
          const s2 = makeSession({ id: "s2", startTime: "2023-05-09T13:00:00Z" });
          await store.replaceSession(s2, "hs2", makeRecords(s2, 2));
          await moved("a second session");
          await store.deleteSession(ns, s2.id);
          await moved("deleteSession");
          const before = await store.namespaceVersion(ns);
          await store.deleteNamespace(ns);
          // Empty again: it may read as it did before the first write (an empty namespace is the same whatever was forgotten).
          assert.notEqual(await store.namespaceVersion(ns), before, "deleteNamespace: the version moved");
        });
      });
    });

    describe("getUnits", () => {
      it("keeps the order asked and drops unknown ids", async () => {
        await withStore(async (store) => {
          const s = makeSession();
          const recs = makeRecords(s, 4);
          await store.replaceSession(s, "h", recs);
          const asked = [recs[3]!.unit.id, "nope", recs[0]!.unit.id, recs[2]!.unit.id];
          assert.deepEqual(ids(await store.getUnits(s.namespace, asked)), [recs[3]!.unit.id, recs[0]!.unit.id, recs[2]!.unit.id]);
          assert.deepEqual(await store.getUnits(s.namespace, []), []);
        });
      });
    });

    describe("getUnitEmbeddings", () => {
      it("returns exactly the stored vectors, only for the namespace asked, and forgets deleted units", async () => {
        await withStore(async (store) => {
          const a = makeSession({ namespace: "ns-ea", id: "s" });
          const b = makeSession({ namespace: "ns-eb", id: "s" });
          const recsA = makeRecords(a, 3);
          const recsB = makeRecords(b, 2);
          await store.replaceSession(a, "h", recsA);
          await store.replaceSession(b, "h", recsB);
          const asked = [recsA[2]!.unit.id, "nope", recsA[0]!.unit.id, recsB[0]!.unit.id];
          const got = await store.getUnitEmbeddings(a.namespace, asked);
          assert.deepEqual([...got.keys()].sort(), [recsA[0]!.unit.id, recsA[2]!.unit.id].sort());
          for (const rec of [recsA[0]!, recsA[2]!]) {
            const v = got.get(rec.unit.id)!;
            assert.equal(v.length, TEST_DIMS);
            assert.ok(cosine(v, rec.embedding) > 0.9999, "the stored vector comes back");
          }
          assert.equal((await store.getUnitEmbeddings(a.namespace, [])).size, 0);
          await store.deleteUnit(a.namespace, recsA[0]!.unit.id);
          assert.deepEqual([...(await store.getUnitEmbeddings(a.namespace, asked)).keys()], [recsA[2]!.unit.id]);
        });
      });
    });

    runWritesContractSuite((fn) => withStore(fn));

    const openApproximate = suiteOptions.openApproximate;
    if (openApproximate) {
      describe("approximate dense search (a namespace above the index threshold)", () => {
        /** Six sessions of 50 units in ns-a, and one session of ns-b with the same vectors. */
        async function fill(store: MemoryStore): Promise<void> {
          await store.bindEmbedder(TEST_EMBEDDER, TEST_DIMS);
          for (let i = 0; i < 6; i++) {
            const s = makeSession({ id: `s${i}`, startTime: `2023-05-0${i + 1}T10:00:00Z` });
            await store.replaceSession(s, `h${i}`, makeRecords(s, 50));
          }
          const b = makeSession({ namespace: "ns-b", id: "s0" });
          await store.replaceSession(b, "h", makeRecords(makeSession({ id: "s0" }), 50).map((r, j) => ({ unit: { ...r.unit, id: `b-${j}`, namespace: "ns-b" }, embedding: r.embedding })));
        }

        it("agrees with the exact search up to recall (≥ 0.95 of the exact top 20), inside the namespace", async () => {
          const exact = await open();
          const approximate = await openApproximate();
          try {
            await fill(exact);
            await fill(approximate);
            let overlap = 0;
            for (let q = 0; q < 20; q++) {
              const v = seededVector(`query-${q}`);
              const want = new Set(ids(await exact.searchDense("ns-a", v, 20)));
              const got = await approximate.searchDense("ns-a", v, 20);
              assert.equal(got.length, 20);
              assert.ok(got.every((h) => !h.id.startsWith("b-")), "a hit of another namespace");
              assert.deepEqual(got.map((h) => h.rank), Array.from({ length: 20 }, (_, i) => i + 1));
              overlap += got.filter((h) => want.has(h.id)).length / 20;
            }
            assert.ok(overlap / 20 >= 0.95, `recall@20 against exact ${overlap / 20}`);
            // Asked for more than the namespace holds: every unit, as the exact search returns.
            assert.equal((await approximate.searchDense("ns-b", seededVector("q"), 80)).length, 50);
          } finally {
            await exact.close();
            await approximate.close();
          }
        });

        it("sees a unit written after the index was built at once, and never returns a deleted one", async () => {
          const store = await openApproximate();
          try {
            await fill(store);
            const v = seededVector("new-one");
            await store.searchDense("ns-a", v, 10);
            const s = makeSession({ id: "late", startTime: "2023-06-01T10:00:00Z" });
            await store.replaceSession(s, "h", [makeRecord(s, 0, { id: "late-0", embedding: v })]);
            assert.equal((await store.searchDense("ns-a", v, 10))[0]!.id, "late-0");
            assert.equal(await store.deleteUnit("ns-a", "late-0"), true);
            const after = await store.searchDense("ns-a", v, 10);
            assert.equal(after.length, 10);
            assert.ok(!ids(after).includes("late-0"));
            await store.deleteSession("ns-a", "s0");
            const left = new Set(ids(await store.listUnits("ns-a")));
            for (const h of await store.searchDense("ns-a", v, 100)) assert.ok(left.has(h.id), `${h.id} was deleted`);
          } finally {
            await store.close();
          }
        });
      });
    }

    describe("historyRange", () => {
      it("spans the earliest session start to the latest session end", async () => {
        await withStore(async (store) => {
          const ns = "ns-h";
          assert.equal(await store.historyRange(ns), null);
          const long = makeSession({ namespace: ns, id: "long", startTime: "2023-01-01T00:00:00Z", endTime: "2023-12-31T00:00:00Z" });
          const late = makeSession({ namespace: ns, id: "late", startTime: "2023-06-01T00:00:00Z", endTime: "2023-06-02T00:00:00Z" });
          const early = makeSession({ namespace: ns, id: "early", startTime: "2022-03-01T00:00:00Z" });
          for (const s of [late, long, early]) await store.replaceSession(s, "h", makeRecords(s, 1));
          assert.deepEqual(await store.historyRange(ns), { start: early.startTime, end: long.endTime });
        });
      });
    });
  });
}

/** `base` nudged towards `noise` by `amount`, renormalised. */
function mix(base: Float32Array, noise: Float32Array, amount: number): Float32Array {
  const v = base.map((x, i) => x + amount * noise[i]!);
  let n = 0;
  for (const x of v) n += x * x;
  return v.map((x) => x / Math.sqrt(n));
}
