/**
 * searchLexical and searchDense, and (when the dialect has one) the
 * approximate dense index agreeing with the exact search.
 * Part of runStoreContractSuite (contract-suite.ts), which runs every block in order.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import type { MemoryStore } from "./contract.js";
import { TEST_DIMS, TEST_EMBEDDER, axisVector, cosine, makeRecord, makeRecords, makeSession, seededVector } from "./testing/make-unit.js";
import { ids, unitIds, isAnyRamemError, mix, type ContractSuiteContext } from "./contract-suite-helpers.js";

export function searchLexicalContract({ withStore }: ContractSuiteContext): void {
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
}

export function searchDenseContract({ withStore }: ContractSuiteContext): void {
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
}

/** `openApproximate`: a fresh store of the same dialect whose dense search always goes through its approximate index. */
export function approximateDenseContract({ open }: ContractSuiteContext, openApproximate: () => Promise<MemoryStore>): void {
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
