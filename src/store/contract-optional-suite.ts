/**
 * The contract's optional methods, when a dialect has them: nextUnits,
 * listStateUnits, namespaceVersion.
 * Part of runStoreContractSuite (contract-suite.ts), which runs every block in order.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import type { UnitRecord } from "./contract.js";
import type { MemoryUnit } from "../model/memory-unit.js";
import { makeRecords, makeSession, seededVector } from "./testing/make-unit.js";
import type { ContractSuiteContext } from "./contract-suite-helpers.js";

export function nextUnitsContract({ withStore }: ContractSuiteContext): void {
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
}

export function listStateUnitsContract({ withStore }: ContractSuiteContext): void {
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
}

export function namespaceVersionContract({ withStore }: ContractSuiteContext): void {
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
}
