/**
 * The contract's first writes: binding an embedder, and replaceSession (what
 * it stores, how it checks, that it is atomic).
 * Part of runStoreContractSuite (contract-suite.ts), which runs every block in order.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { RamemError } from "../model/errors.js";
import { TEST_DIMS, TEST_EMBEDDER, makeRecord, makeRecords, makeSession, seededVector } from "./testing/make-unit.js";
import { ids, untimed, unitIds, isRamemError, isAnyRamemError, type ContractSuiteContext } from "./contract-suite-helpers.js";

export function bindEmbedderContract({ withStore }: ContractSuiteContext): void {
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
}

export function replaceSessionContract({ withStore }: ContractSuiteContext): void {
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
}
