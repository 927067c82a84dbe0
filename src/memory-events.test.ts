/** Memory.observe: what an operator's metrics are told, and that an observer can neither break nor slow a call. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { Memory } from "./memory.js";
import { openSqliteStore } from "./store/sqlite/sqlite-store.js";
import { createHashEmbedder } from "./providers/hash-embedder.js";
import type { MemoryEvents } from "./memory-events.js";

async function memory(): Promise<Memory> {
  return new Memory({ store: await openSqliteStore(":memory:"), embedder: createHashEmbedder() });
}

test("observers are told each write's turns and units and each recall's stage times", async () => {
  const m = await memory();
  const ingested: Parameters<NonNullable<MemoryEvents["ingested"]>>[0][] = [];
  const recalled: Parameters<NonNullable<MemoryEvents["recalled"]>>[0][] = [];
  const stop = m.observe({ ingested: (e) => ingested.push(e), recalled: (e) => recalled.push(e) });
  const added = await m.add([{ role: "user", content: "I moved to Porto last month." }, { role: "assistant", content: "Porto is lovely." }], { namespace: "a" });
  await m.appendTurns({ namespace: "b", sessionId: "s1", turns: [{ speaker: "Ines", text: "I planted carrots." }] });
  const slugs = { session: { id: "s2", namespace: "c", startTime: "2023-01-01T00:00:00Z", endTime: "2023-01-01T00:00:00Z", participants: ["Ines"] }, turns: [{ id: "t1", speaker: "Ines", text: "The slugs ate my lettuce." }] };
  const beans = { session: { ...slugs.session, id: "s3" }, turns: [{ id: "t1", speaker: "Ines", text: "The beans are up." }, { id: "t2", speaker: "Ines", text: "So are the peas." }] };
  await m.ingest([slugs]);
  // The same session again is unchanged: nothing anchored or written, so nothing counted; only the new one is.
  const again = await m.ingest([slugs, beans]);
  assert.equal(again.turns, 3, "the report still says how many turns it was given");
  assert.deepEqual(ingested, [
    { namespace: "a", sessions: 1, turns: 2, units: added.unitsWritten },
    { namespace: "b", sessions: 1, turns: 1, units: 1 },
    { namespace: "c", sessions: 1, turns: 1, units: 1 },
    { namespace: "c", sessions: 1, turns: 2, units: again.unitsWritten },
  ]);
  await m.recall("Where do I live?", { namespace: "a" });
  assert.equal(recalled.length, 1);
  assert.equal(recalled[0]!.namespace, "a");
  for (const stage of ["content", "induction", "reinstatement"] as const) assert.ok(recalled[0]!.stageMs[stage] >= 0, stage);
  stop();
  await m.recall("Where do I live?", { namespace: "a" });
  assert.equal(recalled.length, 1, "a stopped observer hears nothing");
  await m.close();
});

test("an observer that throws changes nothing of the call it watched", async () => {
  const m = await memory();
  m.observe({
    ingested: () => {
      throw new Error("broken metrics");
    },
    recalled: () => {
      throw new Error("broken metrics");
    },
  });
  await m.add([{ role: "user", content: "I adopted a greyhound called Comet." }], { namespace: "a" });
  const { hits } = await m.recall("What is my dog called?", { namespace: "a" });
  assert.match(hits[0]!.unit.content, /Comet/);
  assert.throws(() => m.observe(undefined as never), /observer/);
  await m.close();
});
