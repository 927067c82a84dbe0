import { test } from "node:test";
import assert from "node:assert/strict";
import { Memory } from "../memory.js";
import { openSqliteStore } from "../store/sqlite/sqlite-store.js";
import { createHashEmbedder } from "../providers/hash-embedder.js";
import type { SessionWithTurns } from "../model/conversation.js";
import { reportsOfPlans } from "./reports-of-plans.js";

const chat = (id: string, day: string, speakers: [string, string], lines: string[]): SessionWithTurns => ({
  session: { id, namespace: "ns", startTime: `${day}T10:00:00.000Z`, endTime: `${day}T10:00:00.000Z`, participants: ["Ann", "Bo"] },
  turns: lines.map((text, i) => ({ id: `${id}:${i + 1}`, speaker: speakers[i % 2]!, text })),
});

test("reportsOfPlans: a plan's report is found in the namespace by the plan's names, or as the answer to a question naming them", async () => {
  const memory = new Memory({ store: await openSqliteStore(":memory:"), embedder: createHashEmbedder() });
  try {
    await memory.ingest([
      chat("s1", "2023-03-10", ["Ann", "Bo"], ["I'm going back to Tokyo in May!", "Lucky you.", "And I'm going home to Enugu in June.", "Give them my love."]),
      chat("s2", "2023-06-02", ["Ann", "Bo"], ["Tokyo was rainy, but we loved the food markets.", "Nice."]),
      chat("s3", "2023-07-02", ["Bo", "Ann"], ["How was Enugu?", "So good, we cooked jollof for eighty guests."]),
    ]);
    const units = await memory.store.listUnits("ns");
    const byTurn = (t: string) => units.find((u) => u.provenance.turnIds[0] === t)!;
    const reports = await reportsOfPlans(memory.store, "ns", [byTurn("s1:1"), byTurn("s1:3"), byTurn("s1:2")]);
    assert.equal(reports.get(byTurn("s1:1").id)?.provenance.turnIds[0], "s2:1", "names Tokyo");
    assert.equal(reports.get(byTurn("s1:3").id)?.provenance.turnIds[0], "s3:2", "answers Bo's question that names Enugu");
    assert.equal(reports.has(byTurn("s1:2").id), false, "no plan, no report");

    // A recall's second ask of the same plans reads what the first found (`seen`), with no search; a plan not asked yet is searched.
    let searches = 0;
    const counting = new Proxy(memory.store, {
      get: (target, key, receiver) => (key === "searchLexical" ? (...args: unknown[]) => (searches++, (target.searchLexical as (...a: unknown[]) => unknown).apply(target, args)) : Reflect.get(target, key, receiver)),
    });
    const seen = new Map();
    const first = await reportsOfPlans(counting, "ns", [byTurn("s1:1")], undefined, seen);
    const afterFirst = searches;
    const again = await reportsOfPlans(counting, "ns", [byTurn("s1:1")], undefined, seen);
    assert.ok(afterFirst > 0);
    assert.equal(searches, afterFirst, "nothing searched again");
    assert.equal(again.get(byTurn("s1:1").id)?.id, first.get(byTurn("s1:1").id)?.id);
    const withEnugu = await reportsOfPlans(counting, "ns", [byTurn("s1:1"), byTurn("s1:3")], undefined, seen);
    assert.ok(searches > afterFirst, "the plan not looked up yet is");
    assert.equal(withEnugu.get(byTurn("s1:3").id)?.provenance.turnIds[0], "s3:2");
  } finally {
    await memory.close();
  }
});
