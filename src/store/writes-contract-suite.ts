import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { RamemError } from "../model/errors.js";
import { MAX_FILTER_LIST, parseFilter } from "../model/memory-filter.js";
import type { MemoryStore } from "./contract.js";
import type { Metadata } from "../model/metadata.js";
import { TEST_DIMS, axisVector, makeRecord, makeRecords, makeSession, seededVector } from "./testing/make-unit.js";

/**
 * The contract of appendUnits, updateUnits, the unit history and filters:
 * run by runStoreContractSuite on every dialect, with the same fixtures, so
 * the dialects select and record exactly the same things.
 */
export function runWritesContractSuite(withStore: (fn: (store: MemoryStore) => Promise<void>) => Promise<void>): void {
  const code = (c: string) => (err: unknown) => {
    assert.ok(err instanceof RamemError, `expected RamemError, got ${String(err)}`);
    assert.equal(err.code, c);
    return true;
  };
  const ids = (xs: readonly { id: string }[]) => xs.map((x) => x.id);
  const change = (at: string, actor = "tester") => ({ change: { actor, at } });

  describe("appendUnits", () => {
    it("adds units after the stored ones, moves the span of every unit with the session row, and is a compare-and-swap", async () => {
      await withStore(async (store) => {
        const s = makeSession({ startTime: "2023-05-08T13:00:00Z" });
        const first = makeRecords(s, 2);
        await store.replaceSession(s, "h1", first);
        const wider = { ...s, endTime: "2023-05-08T15:00:00Z", participants: [...s.participants, "Jon"] };
        const added = [makeRecord(wider, 2), makeRecord(wider, 3)];
        await store.appendUnits(wider, "h2", added, { expectedHash: "h1", ...change("2023-05-08T15:00:01Z") });
        const units = await store.listUnits(s.namespace);
        assert.deepEqual(ids(units), [...ids(first.map((r) => r.unit)), ...ids(added.map((r) => r.unit))]);
        assert.ok(units.every((u) => u.context.session.end === "2023-05-08T15:00:00Z"), "old units show the widened span");
        const [old] = await store.getUnits(s.namespace, [first[0]!.unit.id]);
        assert.equal(old?.context.session.end, "2023-05-08T15:00:00Z");
        const stored = await store.getSession(s.namespace, s.id);
        assert.equal(stored?.contentHash, "h2");
        assert.equal(stored?.unitCount, 4);
        assert.deepEqual(stored?.participants, wider.participants);
        assert.equal((await store.searchLexical(s.namespace, ["ordinary"], 10)).length, 4);
        assert.equal((await store.searchDense(s.namespace, added[1]!.embedding, 1))[0]?.id, added[1]!.unit.id);
        assert.equal((await store.getUnits(s.namespace, [added[0]!.unit.id]))[0]?.createdAt, "2023-05-08T15:00:01Z");
        assert.deepEqual(await store.listTurnIds(s.namespace, s.id), ["s1-t0", "s1-t1", "s1-t2", "s1-t3"]);
        assert.deepEqual(await store.listTurnIds("ns-other", s.id), []);

        await assert.rejects(store.appendUnits(wider, "h3", [makeRecord(wider, 4)], { expectedHash: "h1" }), code("SESSION_CHANGED"));
        await assert.rejects(store.appendUnits(makeSession({ id: "nope" }), "h", [makeRecord(makeSession({ id: "nope" }), 0)], { expectedHash: "h" }), code("SESSION_CHANGED"));
        await assert.rejects(store.appendUnits(wider, "h3", [makeRecord(wider, 9, { id: first[0]!.unit.id })], { expectedHash: "h2" }), code("UNIT_ID_CONFLICT"));
        assert.equal((await store.getSession(s.namespace, s.id))?.contentHash, "h2", "a refused append wrote nothing");
        assert.equal((await store.listUnits(s.namespace)).length, 4);
      });
    });

    it("of two appends over the same hash exactly one lands", async () => {
      await withStore(async (store) => {
        const s = makeSession();
        await store.replaceSession(s, "h1", makeRecords(s, 1));
        const results = await Promise.allSettled([
          store.appendUnits(s, "h-a", [makeRecord(s, 1)], { expectedHash: "h1" }),
          store.appendUnits(s, "h-b", [makeRecord(s, 2)], { expectedHash: "h1" }),
        ]);
        assert.equal(results.filter((r) => r.status === "fulfilled").length, 1);
        assert.equal((await store.listUnits(s.namespace)).length, 2);
      });
    });
  });

  describe("updateUnits", () => {
    it("replaces a unit in place (position, search channels, vector), keeps createdAt, records the old text", async () => {
      await withStore(async (store) => {
        const s = makeSession();
        const recs = makeRecords(s, 3);
        await store.replaceSession(s, "h1", recs, change("2023-05-08T13:00:00Z"));
        const target = recs[1]!.unit;
        const changed = { unit: { ...target, content: "Caroline adopted a greyhound called Pixel." }, embedding: axisVector(3) };
        await store.updateUnits(s.namespace, s.id, "h2", [changed], { expectedHash: "h1", ...change("2023-06-01T09:00:00Z", "key-a") });
        assert.deepEqual(ids(await store.listUnits(s.namespace)), ids(recs.map((r) => r.unit)), "same position");
        const [got] = await store.getUnits(s.namespace, [target.id]);
        assert.equal(got?.content, changed.unit.content);
        assert.equal(got?.createdAt, "2023-05-08T13:00:00Z");
        assert.equal(got?.updatedAt, "2023-06-01T09:00:00Z");
        assert.equal((await store.searchLexical(s.namespace, ["greyhound"], 5))[0]?.id, target.id);
        assert.equal((await store.searchLexical(s.namespace, ["ordinary"], 5)).length, 2, "the old words are out of the index");
        assert.equal((await store.searchDense(s.namespace, axisVector(3), 1))[0]?.id, target.id);
        assert.equal((await store.getSession(s.namespace, s.id))?.contentHash, "h2");
        const history = await store.unitHistory(s.namespace, target.id);
        assert.deepEqual(
          history.map((e) => [e.event, e.actor, e.at, e.text, e.previousText]),
          [
            ["created", "tester", "2023-05-08T13:00:00Z", target.content, null],
            ["updated", "key-a", "2023-06-01T09:00:00Z", changed.unit.content, target.content],
          ],
        );
        await assert.rejects(store.updateUnits(s.namespace, s.id, "h3", [changed], { expectedHash: "h1" }), code("SESSION_CHANGED"));
        const ghost = { unit: { ...target, id: "ghost" }, embedding: seededVector("g", TEST_DIMS) };
        await assert.rejects(store.updateUnits(s.namespace, s.id, "h3", [ghost], { expectedHash: "h2" }), code("UNIT_NOT_FOUND"));
        assert.equal((await store.getSession(s.namespace, s.id))?.contentHash, "h2");
      });
    });
  });

  describe("unit history", () => {
    it("records created, superseded and forgotten with who and when; a forget clears every text of the unit", async () => {
      await withStore(async (store) => {
        const s = makeSession();
        const recs = makeRecords(s, 3);
        await store.replaceSession(s, "h1", recs, change("2023-01-01T00:00:00Z"));
        // A re-ingest that drops unit 2 supersedes it; a forget-unit rewrite drops unit 1 as forgotten.
        await store.replaceSession(s, "h2", recs.slice(0, 2), change("2023-01-02T00:00:00Z"));
        await store.replaceSession(s, "h3", recs.slice(0, 1), { ...change("2023-01-03T00:00:00Z"), removedAs: "forgotten" });
        const superseded = await store.unitHistory(s.namespace, recs[2]!.unit.id);
        assert.deepEqual(superseded.map((e) => [e.event, e.text, e.previousText]), [
          ["created", recs[2]!.unit.content, null],
          ["superseded", null, recs[2]!.unit.content],
        ]);
        const forgotten = await store.unitHistory(s.namespace, recs[1]!.unit.id);
        assert.deepEqual(forgotten.map((e) => [e.event, e.at, e.text, e.previousText]), [
          ["created", "2023-01-01T00:00:00Z", null, null],
          ["forgotten", "2023-01-03T00:00:00Z", null, null],
        ]);
        assert.equal(await store.deleteUnit(s.namespace, recs[0]!.unit.id, change("2023-01-04T00:00:00Z", "key-b")), true);
        assert.deepEqual((await store.unitHistory(s.namespace, recs[0]!.unit.id)).map((e) => [e.event, e.actor, e.text]), [
          ["created", "tester", null],
          ["forgotten", "key-b", null],
        ]);
        assert.deepEqual(await store.unitHistory(s.namespace, "never-was"), []);
        assert.deepEqual(await store.unitHistory("ns-other", recs[2]!.unit.id), [], "history is namespace-scoped");
      });
    });

    it("deleteSession records forgotten for each unit and erases the texts and the session id; deleteNamespace erases the namespace's history", async () => {
      await withStore(async (store) => {
        const a = makeSession({ id: "a" });
        const b = makeSession({ id: "b", startTime: "2023-06-01T00:00:00Z" });
        const ra = makeRecords(a, 2);
        const rb = makeRecords(b, 1);
        await store.replaceSession(a, "ha", ra);
        await store.replaceSession(b, "hb", rb);
        await store.deleteSession(a.namespace, a.id, change("2023-07-01T00:00:00Z"));
        assert.deepEqual((await store.unitHistory(a.namespace, ra[1]!.unit.id)).map((e) => [e.event, e.sessionId, e.text]), [
          ["created", "", null],
          ["forgotten", "", null],
        ]);
        assert.equal((await store.unitHistory(b.namespace, rb[0]!.unit.id))[0]?.text, rb[0]!.unit.content, "another session keeps its texts");
        await store.deleteNamespace(b.namespace, change("2023-07-02T00:00:00Z"));
        assert.deepEqual(await store.unitHistory(b.namespace, rb[0]!.unit.id), []);
      });
    });
  });

  describe("metadata and filters", () => {
    /** Five units over two sessions with metadata of every kind a filter reads. */
    async function seed(store: MemoryStore) {
      const ns = "ns-f";
      const s1 = { ...makeSession({ namespace: ns, id: "s1", startTime: "2023-05-01T10:00:00Z", endTime: "2023-05-01T11:00:00Z" }), metadata: { channel: "slack" } };
      const s2 = makeSession({ namespace: ns, id: "s2", startTime: "2023-06-01T10:00:00Z", endTime: "2023-06-01T11:00:00Z", participants: ["Jon", "Gina"] });
      const meta: Metadata[] = [
        { project: "apollo", priority: 1, done: true, due: "2023-05-10T00:00:00Z" },
        { project: "gemini", priority: 3, done: false, due: "2023-07-01T00:00:00Z", nested: { team: "red-1" } },
        { project: "apollo", priority: 5, owner: null },
      ];
      const r1 = meta.map((m, i) => {
        const r = makeRecord(s1, i, { content: `Caroline talks about topic number ${i}.`, embedding: axisVector(i) });
        return { ...r, unit: { ...r.unit, metadata: { channel: "slack", ...m } } };
      });
      const r2 = [0, 1].map((i) => {
        const r = makeRecord(s2, i, { content: `Jon talks about topic number ${i + 3}.`, embedding: axisVector(i + 3) });
        return { ...r, unit: { ...r.unit, context: { ...r.unit.context, role: i === 0 ? ("user" as const) : ("assistant" as const) } } };
      });
      await store.replaceSession(s1, "h1", r1, change("2023-05-01T12:00:00Z"));
      await store.replaceSession(s2, "h2", r2, change("2023-06-01T12:00:00Z"));
      return { ns, r1, r2, s1 };
    }
    const cases: Array<[string, unknown, number[]]> = [
      ["equality on metadata", { "metadata.project": "apollo" }, [0, 2]],
      ["a session's metadata inherited", { "metadata.channel": "slack" }, [0, 1, 2]],
      ["number equality", { "metadata.priority": 3 }, [1]],
      ["boolean", { "metadata.done": false }, [1]],
      ["null", { "metadata.owner": null }, [2]],
      ["nested path", { "metadata.nested.team": "red-1" }, [1]],
      ["in", { "metadata.project": { in: ["gemini", "mercury"] } }, [1]],
      ["nin also matches units without the key", { "metadata.project": { nin: ["apollo"] } }, [1, 3, 4]],
      ["ne", { "metadata.priority": { ne: 1 } }, [1, 2, 3, 4]],
      ["number range", { "metadata.priority": { gte: 2, lt: 5 } }, [1]],
      ["date range in metadata", { "metadata.due": { gt: "2023-06-01" } }, [1]],
      ["a range never matches a string that is no number", { "metadata.project": { gt: 0 } }, []],
      ["session", { sessionId: "s2" }, [3, 4]],
      ["participant, case-insensitive", { participant: "gina" }, [3, 4]],
      ["role", { role: { in: ["assistant"] } }, [4]],
      ["time: the session span overlaps the range", { time: { gte: "2023-05-01T10:30:00Z", lt: "2023-05-02" } }, [0, 1, 2]],
      ["time eq: the span contains it", { time: "2023-06-01T10:30:00Z" }, [3, 4]],
      ["createdAt", { createdAt: { gte: "2023-06-01T00:00:00Z" } }, [3, 4]],
      ["AND", { AND: [{ "metadata.project": "apollo" }, { "metadata.priority": { gt: 2 } }] }, [2]],
      ["OR", { OR: [{ "metadata.priority": 1 }, { sessionId: "s2" }] }, [0, 3, 4]],
      ["NOT", { NOT: { "metadata.channel": "slack" } }, [3, 4]],
      ["several keys are an AND", { sessionId: "s1", "metadata.done": true }, [0]],
    ];
    for (const [name, filter, expected] of cases) {
      it(`filter: ${name}`, async () => {
        await withStore(async (store) => {
          const { ns, r1, r2 } = await seed(store);
          const all = [...r1, ...r2].map((r) => r.unit.id);
          const want = expected.map((i) => all[i]!);
          const where = parseFilter(filter);
          assert.deepEqual(ids(await store.listUnits(ns, { where })), want, "listUnits");
          assert.equal(await store.countUnits(ns, { where }), want.length, "countUnits");
          const dense = await store.searchDense(ns, axisVector(0), 10, { where });
          assert.deepEqual(dense.map((h) => h.id).sort(), [...want].sort(), "searchDense returns every selected unit");
          const lexical = await store.searchLexical(ns, ["topic"], 10, { where });
          assert.deepEqual(lexical.map((h) => h.id).sort(), [...want].sort(), "searchLexical");
        });
      });
    }

    it("units carry their metadata; sessions keep theirs; counts and limits agree", async () => {
      await withStore(async (store) => {
        const { ns, r1, s1 } = await seed(store);
        const [u] = await store.getUnits(ns, [r1[1]!.unit.id]);
        assert.deepEqual(u?.metadata, r1[1]!.unit.metadata);
        assert.deepEqual((await store.getSession(ns, s1.id))?.metadata, { channel: "slack" });
        assert.equal(await store.countUnits(ns), 5);
        assert.equal(await store.countUnits("ns-none"), 0);
        assert.deepEqual(ids(await store.listUnits(ns, { limit: 2, offset: 1 })), [r1[1]!.unit.id, r1[2]!.unit.id]);
        const near = await store.searchDense(ns, axisVector(1), 2, { where: parseFilter({ sessionId: "s1" }) });
        assert.equal(near[0]?.id, r1[1]!.unit.id, "a filtered dense search still ranks by cosine");
      });
    });

    // in/nin lists of the filter language's longest length (MAX_FILTER_LIST), with the values
    // that select something last, and with the other JSON types mixed in where a type must not match.
    const long = (wanted: readonly unknown[], filler: (i: number) => unknown = (i) => `filler-${i}`): unknown[] => [
      ...Array.from({ length: MAX_FILTER_LIST - wanted.length }, (_, i) => filler(i)),
      ...wanted,
    ];
    const longCases: Array<[string, unknown, number[]]> = [
      ["metadata in, strings", { "metadata.project": { in: long(["gemini"]) } }, [1]],
      ["metadata nin, strings: also units without the key", { "metadata.project": { nin: long(["apollo"]) } }, [1, 3, 4]],
      ["metadata in, numbers", { "metadata.priority": { in: long([5, 1], (i) => 1000 + i) } }, [0, 2]],
      ["metadata in: the string \"3\" is not the number 3", { "metadata.priority": { in: long(["3", "5"]) } }, []],
      ["metadata in: the number 1 is not the string \"1\" nor true", { "metadata.done": { in: long([1, 0], (i) => 1000 + i) } }, []],
      ["metadata in, a boolean among strings and numbers", { "metadata.done": { in: long([false, "true", 1]) } }, [1]],
      ["metadata in, both booleans", { "metadata.done": { in: long([true, false]) } }, [0, 1]],
      ["metadata in, null", { "metadata.owner": { in: long([null]) } }, [2]],
      ["metadata nin, null and strings", { "metadata.owner": { nin: long([null]) } }, [0, 1, 3, 4]],
      ["metadata in never matches an object by its JSON text", { "metadata.nested": { in: long(['{"team":"red-1"}', '{"team": "red-1"}']) } }, []],
      ["metadata in, nested path", { "metadata.nested.team": { in: long(["red-1"]) } }, [1]],
      ["sessionId in", { sessionId: { in: long(["s2"]) } }, [3, 4]],
      ["sessionId nin", { sessionId: { nin: long(["s2"]) } }, [0, 1, 2]],
      ["participant in, case-insensitive", { participant: { in: long(["GINA"]) } }, [3, 4]],
      ["participant nin", { participant: { nin: long(["gina"]) } }, [0, 1, 2]],
      ["role in", { role: { in: long(["assistant"]) } }, [4]],
      ["role nin also matches units without a role", { role: { nin: long(["assistant"]) } }, [0, 1, 2, 3]],
      ["NOT of an in list", { NOT: { "metadata.project": { in: long(["apollo", "gemini"]) } } }, [3, 4]],
      [
        "an OR of many long lists",
        { OR: Array.from({ length: 20 }, (_, i) => ({ "metadata.project": { in: long([i === 19 ? "gemini" : `none-${i}`]) } })) },
        [1],
      ],
    ];
    for (const [name, filter, expected] of longCases) {
      it(`filter with ${MAX_FILTER_LIST} values: ${name}`, async () => {
        await withStore(async (store) => {
          const { ns, r1, r2 } = await seed(store);
          const all = [...r1, ...r2].map((r) => r.unit.id);
          const want = expected.map((i) => all[i]!);
          const where = parseFilter(filter);
          assert.deepEqual(ids(await store.listUnits(ns, { where })), want, "listUnits");
          assert.equal(await store.countUnits(ns, { where }), want.length, "countUnits");
          const dense = await store.searchDense(ns, axisVector(0), 10, { where });
          assert.deepEqual(dense.map((h) => h.id).sort(), [...want].sort(), "searchDense");
          const lexical = await store.searchLexical(ns, ["topic"], 10, { where });
          assert.deepEqual(lexical.map((h) => h.id).sort(), [...want].sort(), "searchLexical");
        });
      });
    }
  });
}
