/**
 * The deletes (unit, session, namespace) and restoreNamespace.
 * Part of runStoreContractSuite (contract-suite.ts), which runs every block in order.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { RamemError } from "../model/errors.js";
import type { MemoryStore } from "./contract.js";
import { sourceHashOf } from "./session-hash.js";
import { TEST_EMBEDDER, axisVector, makeRecord, makeRecords, makeSession } from "./testing/make-unit.js";
import { ids, unitIds, isRamemError, isAnyRamemError, type ContractSuiteContext } from "./contract-suite-helpers.js";

export function deletesContract({ withStore }: ContractSuiteContext): void {
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
}

export function restoreNamespaceContract({ withStore }: ContractSuiteContext): void {
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
}
