/**
 * Plans end to end, through Memory.recall on the embedded store: "I'm going
 * back to Tokyo in May" said in March grounds to the coming May, is marked
 * planned, and the later turn that tells of the trip is linked to it — in the
 * hits and in the evidence pack.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { Memory } from "../memory.js";
import { openSqliteStore } from "../store/sqlite/sqlite-store.js";
import { createHashEmbedder } from "../providers/hash-embedder.js";
import type { SessionWithTurns } from "../model/conversation.js";
import { renderEvidence } from "../synthesis/render-evidence.js";
import { runRecall } from "./recall-pipeline.js";

const chat = (id: string, day: string, lines: string[]): SessionWithTurns => ({
  session: { id, namespace: "trips", startTime: `${day}T10:00:00.000Z`, endTime: `${day}T10:00:00.000Z`, participants: ["Ann", "Bo"] },
  turns: lines.map((text, i) => ({ id: `${id}:${i + 1}`, speaker: i % 2 ? "Bo" : "Ann", text })),
});

test("a plan grounds forward, is marked planned, and is linked to the later turn that tells of it as done", async () => {
  const memory = new Memory({ store: await openSqliteStore(":memory:"), embedder: createHashEmbedder() });
  try {
    await memory.ingest([
      chat("s1", "2023-03-10", ["I'm going back to Tokyo in May, I can't wait!", "Bring me some matcha."]),
      chat("s2", "2023-06-02", ["Tokyo was rainy, but we loved the food markets.", "Did you bring the matcha?"]),
    ]);
    const { hits } = await memory.recall("Ann's trip to Tokyo in May", { namespace: "trips", k: 4 });
    const plan = hits.find((h) => h.unit.provenance.turnIds[0] === "s1:1")!.unit;
    assert.equal(plan.context.planned, true);
    assert.equal(plan.context.eventTime?.start, "2023-05-01T00:00:00.000Z", "the coming May, not the last");
    assert.deepEqual(plan.planOutcome, { toldAsDoneBy: hits.find((h) => h.unit.provenance.turnIds[0] === "s2:1")!.unit.id, on: "2023-06-02T10:00:00.000Z" });
    assert.match(renderEvidence(hits.map((h) => h.unit)).text, /\(s1:1; at: Tokyo; planned; told as done 2 June 2023 \[3\]\)/);
    const report = hits.find((h) => h.unit.provenance.turnIds[0] === "s2:1")!.unit;
    assert.equal(report.context.planned, undefined);
    assert.equal(report.planOutcome, undefined);
  } finally {
    await memory.close();
  }
});

test("a plan's report outside the recall's candidates is found by the plan's names; one that names nothing of it is not", async () => {
  const memory = new Memory({ store: await openSqliteStore(":memory:"), embedder: createHashEmbedder() });
  try {
    await memory.ingest([
      chat("s1", "2023-03-10", ["I'm going back to Tokyo in May, I can't wait!", "Bring me some matcha."]),
      chat("s2", "2023-06-02", ["Tokyo was rainy, but we loved the food markets.", "Did you bring the matcha?"]),
      chat("s3", "2023-07-01", ["I'm going to Kyoto in August for the festival.", "Lucky you."]),
      chat("s4", "2023-09-01", ["The festival was loud and wonderful.", "Pictures please."]),
    ]);
    const deps = { store: memory.store, embedder: memory.embedder };
    // A pool of one: the plan is the only candidate, so its report can only come from the namespace.
    const tokyo = await runRecall(deps, { namespace: "trips", query: "going back to Tokyo in May", k: 1, pool: 1 });
    assert.equal(tokyo.hits[0]!.unit.provenance.turnIds[0], "s1:1");
    assert.equal(tokyo.hits[0]!.unit.planOutcome?.on, "2023-06-02T10:00:00.000Z");
    const kyoto = await runRecall(deps, { namespace: "trips", query: "going to Kyoto in August", k: 1, pool: 1 });
    assert.equal(kyoto.hits[0]!.unit.provenance.turnIds[0], "s3:1");
    assert.equal(kyoto.hits[0]!.unit.planOutcome, undefined, "the report names neither Kyoto nor another name of the plan");
  } finally {
    await memory.close();
  }
});

test("a plan's report told in answer to a question that names it is found in the namespace, and makes the trip an occurrence", async () => {
  const memory = new Memory({ store: await openSqliteStore(":memory:"), embedder: createHashEmbedder() });
  const bo = (id: string, day: string, lines: string[]): SessionWithTurns => ({ ...chat(id, day, lines), turns: lines.map((text, i) => ({ id: `${id}:${i + 1}`, speaker: i % 2 ? "Ann" : "Bo", text })) });
  try {
    await memory.ingest([
      chat("s1", "2023-03-10", ["I'm going home to Enugu in April for my mum's birthday.", "Give her my love."]),
      bo("s2", "2023-05-02", ["Ann! How was Enugu?", "So good. We cooked jollof for eighty guests and my mum danced until midnight."]),
      chat("s3", "2023-08-01", ["I visited my parents again last week, my dad's garden is huge now.", "Nice."]),
    ]);
    const deps = { store: memory.store, embedder: memory.embedder };
    const plan = await runRecall(deps, { namespace: "trips", query: "going home to Enugu in April", k: 1, pool: 1 });
    assert.equal(plan.hits[0]!.unit.provenance.turnIds[0], "s1:1");
    assert.equal(plan.hits[0]!.unit.planOutcome?.on, "2023-05-02T10:00:00.000Z", "Bo asks of Enugu, Ann's answer tells of it");
    const first = await runRecall(deps, { namespace: "trips", query: "What did Ann do on her first visit home?", k: 3 });
    assert.deepEqual(first.frame?.occurrence?.occurrences.map((o) => o.episodeId).includes("s2"), true, JSON.stringify(first.frame?.occurrence));
  } finally {
    await memory.close();
  }
});
