/**
 * Namespace isolation: no read, search or write of one namespace sees or
 * touches another's.
 * Part of runStoreContractSuite (contract-suite.ts), which runs every block in order.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import type { MemoryStore } from "./contract.js";
import { axisVector, makeRecord, makeSession } from "./testing/make-unit.js";
import { ids, untimed, unitIds, type ContractSuiteContext } from "./contract-suite-helpers.js";

export function namespaceIsolationContract({ withStore }: ContractSuiteContext): void {
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
        assert.deepEqual(await store.namespaceSizes(10), [
          { namespace: "ns-a", sessions: 2, units: 4 },
          { namespace: "ns-b", sessions: 1, units: 2 },
        ]);
        assert.deepEqual(await store.namespaceSizes(1), [{ namespace: "ns-a", sessions: 2, units: 4 }], "largest first, cut to the limit");
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
}
