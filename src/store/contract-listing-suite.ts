/**
 * The reads: listUnits' filters, getUnits, getUnitEmbeddings, historyRange.
 * Part of runStoreContractSuite (contract-suite.ts), which runs every block in order.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import type { MemoryStore } from "./contract.js";
import { TEST_DIMS, cosine, makeRecord, makeRecords, makeSession } from "./testing/make-unit.js";
import { ids, unitIds, type ContractSuiteContext } from "./contract-suite-helpers.js";

export function listUnitsFiltersContract({ withStore }: ContractSuiteContext): void {
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
}

export function getUnitsContract({ withStore }: ContractSuiteContext): void {
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
}

export function getUnitEmbeddingsContract({ withStore }: ContractSuiteContext): void {
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
}

export function historyRangeContract({ withStore }: ContractSuiteContext): void {
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
}
