/**
 * Occurrences end to end, through Memory.recall on the embedded store: two
 * trips to Japan, each announced as a plan and told after it; "her second
 * trip" is answered from the episode that tells the second.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { Memory } from "../memory.js";
import { openSqliteStore } from "../store/sqlite/sqlite-store.js";
import { createHashEmbedder } from "../providers/hash-embedder.js";
import type { SessionWithTurns } from "../model/conversation.js";
import { renderFrame } from "../cli/render.js";

const chat = (id: string, day: string, lines: Array<[string, string]>): SessionWithTurns => ({
  session: { id, namespace: "trips", startTime: `${day}T10:00:00.000Z`, endTime: `${day}T11:00:00.000Z`, participants: ["Ines", "Tom"] },
  turns: lines.map(([speaker, text], i) => ({ id: `${id}:${i + 1}`, speaker, text })),
});

async function tripsMemory(): Promise<Memory> {
  const memory = new Memory({ store: await openSqliteStore(":memory:"), embedder: createHashEmbedder() });
  await memory.ingest([
    chat("s1", "2022-03-03", [["Ines", "Big news: I'm going to Japan in May, my first trip there!"], ["Tom", "Bring me some snacks."]]),
    chat("s2", "2022-06-22", [["Tom", "Welcome back! How was the trip to Japan?"], ["Ines", "Unreal. The highlight was a sumo tournament at the Ryogoku arena, and we stayed in a capsule hotel."]]),
    chat("s3", "2023-02-18", [["Ines", "I booked another trip to Japan for May, to Kyoto this time."], ["Tom", "Kyoto in spring, lovely."]]),
    chat("s4", "2023-06-09", [["Tom", "How was the second trip to Japan?"], ["Ines", "Calm. We stayed in an old wooden guesthouse near the Kamo river and did a tea ceremony."]]),
  ]);
  return memory;
}

test("'her second trip' reinstates the episode that tells the second trip, not the first or the plans", async () => {
  const memory = await tripsMemory();
  const { hits, frame } = await memory.recall("Where did Ines stay on her second trip to Japan?", { namespace: "trips", k: 5 });
  const why = hits.map((h) => `${h.unit.provenance.turnIds[0]} ${h.reasons.join("; ")}`).join("\n");
  assert.equal(frame?.occurrence?.episodeId, "s4", JSON.stringify(frame?.occurrence));
  assert.deepEqual(frame?.occurrence?.occurrences.map((o) => o.episodeId), ["s2", "s4"]);
  assert.equal(frame?.active, true);
  assert.equal(hits[0]!.unit.provenance.turnIds[0], "s4:2", why);
  assert.match(hits[0]!.reasons.join(" "), /occurrence 2 of 2/);
  assert.match(renderFrame(frame!), /occurrence: s4 ← "her second trip to Japan"/);
  await memory.close();
});

test("'her first trip' picks the first told trip; the same words without the ordinal leave the frame inactive", async () => {
  const memory = await tripsMemory();
  const first = await memory.recall("Where did Ines stay on her first trip to Japan?", { namespace: "trips", k: 5 });
  assert.equal(first.frame?.occurrence?.episodeId, "s2");
  assert.equal(first.hits[0]!.unit.provenance.turnIds[0], "s2:2", first.hits.map((h) => `${h.unit.provenance.turnIds[0]} ${h.reasons.join("; ")}`).join("\n"));
  const plain = await memory.recall("Where did Ines stay in Japan?", { namespace: "trips", k: 5 });
  assert.equal(plain.frame?.occurrence ?? null, null);
  await memory.close();
});

test("a plan told inside the picked occurrence is no part of it", async () => {
  const memory = new Memory({ store: await openSqliteStore(":memory:"), embedder: createHashEmbedder() });
  await memory.ingest([
    chat("s2", "2022-06-22", [["Tom", "Welcome back! What happened on the trip to Japan?"], ["Ines", "Unreal. A sumo tournament at the Ryogoku arena."]]),
    chat("s4", "2023-06-09", [
      ["Tom", "Ines! What happened on your second trip to Japan?"],
      ["Ines", "Calm. A tea ceremony in an old guesthouse near the Kamo river."],
      ["Ines", "And I'm going to Japan again next year, a third trip, to Hokkaido."],
    ]),
  ]);
  const { hits, frame } = await memory.recall("What happened on Ines's second trip to Japan?", { namespace: "trips", k: 5 });
  assert.equal(frame?.occurrence?.episodeId, "s4");
  const told = hits.find((h) => h.unit.provenance.turnIds[0] === "s4:2");
  const plan = hits.find((h) => h.unit.provenance.turnIds[0] === "s4:3");
  assert.match(told!.reasons.join(" "), /occurrence 2 of 2/);
  assert.ok(plan && !plan.reasons.some((r) => r.includes("occurrence 2 of 2")), plan?.reasons.join("; "));
  await memory.close();
});

test("'her next trip' is the plan not yet told as done; 'again' is the repeat", async () => {
  const memory = await tripsMemory();
  const again = await memory.recall("Where did Ines stay when she went to Japan again?", { namespace: "trips", k: 5 });
  assert.equal(again.frame?.occurrence?.position, "repeat");
  assert.equal(again.frame?.occurrence?.episodeId, "s4");
  assert.equal(again.hits[0]!.unit.provenance.turnIds[0], "s4:2");
  await memory.close();
  const before = new Memory({ store: await openSqliteStore(":memory:"), embedder: createHashEmbedder() });
  await before.ingest([
    chat("s1", "2022-03-03", [["Ines", "Big news: I'm going to Japan in May, my first trip there!"], ["Tom", "Bring me some snacks."]]),
    chat("s2", "2022-06-22", [["Tom", "Welcome back! How was the trip to Japan?"], ["Ines", "Unreal. The highlight was a sumo tournament at the Ryogoku arena, and we stayed in a capsule hotel."]]),
    chat("s3", "2023-02-18", [["Ines", "I booked another trip to Japan for May, to Kyoto this time."], ["Tom", "Kyoto in spring, lovely."]]),
  ]);
  const next = await before.recall("Where is Ines going on her next trip to Japan?", { namespace: "trips", k: 5 });
  assert.equal(next.frame?.occurrence?.position, "upcoming");
  assert.equal(next.frame?.occurrence?.episodeId, "s3", JSON.stringify(next.frame?.occurrence));
  assert.equal(next.hits[0]!.unit.provenance.turnIds[0], "s3:1");
  await before.close();
});
