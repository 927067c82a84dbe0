/**
 * A question that counts a category finds the turns that name its members
 * and never the category (Memory's store, hash embedder: no dense help from
 * meaning); the recall pipeline itself, so the weight can be switched off.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { Memory } from "../memory.js";
import { openSqliteStore } from "../store/sqlite/sqlite-store.js";
import { createHashEmbedder } from "../providers/hash-embedder.js";
import { runRecall } from "./recall-pipeline.js";

// Turns that hold no word of the question, enough to fill a content pool (100) without the kinds.
const FILLER = Array.from({ length: 150 }, (_, i) => `Weather note ${i}: cloudy over harbour ${i % 7} with a breeze from the west.`);
const LINES = [
  "I used the blender to make a smoothie this morning.",
  "Fruits are so expensive at the market this week.",
  "I squeezed fresh lime juice into a daiquiri for the party.",
  "We watched a documentary about volcanoes.",
  "My homemade lemon bars came out great.",
  "I have used the same backpack for ten years.",
];

async function memory(): Promise<Memory> {
  const m = new Memory({ store: await openSqliteStore(":memory:"), embedder: createHashEmbedder(), defaultNamespace: "t" });
  await m.ingest(
    [...LINES, ...FILLER].map((text, i) => ({
      session: { id: `s${i}`, namespace: "t", startTime: new Date(Date.UTC(2024, 0, 1 + i, 10)).toISOString(), endTime: new Date(Date.UTC(2024, 0, 1 + i, 10)).toISOString(), participants: ["User", "Assistant"] },
      turns: [{ id: `s${i}:1`, speaker: "User", role: "user" as const, text }],
    })),
  );
  return m;
}

test("how many citrus fruits: the turns naming a lime and a lemon are found through the kinds; without them, not at all", async () => {
  const m = await memory();
  try {
    const query = "How many different citrus fruits have I used?";
    const on = await runRecall(m, { namespace: "t", query, k: 5 });
    assert.equal(on.frame?.aggregates?.counts, "citrus fruits");
    const off = await runRecall(m, { namespace: "t", query, k: 5, signals: { countedKinds: 0 } });
    const turnsOf = (hits: typeof on.hits) => hits.map((h) => h.unit.provenance.turnIds[0]);
    const shown = JSON.stringify(on.hits.map((h) => [h.unit.provenance.turnIds[0], h.reasons]));
    // On: both among the first five, behind at most the three turns holding "fruits" or "used" in both channels.
    for (const turn of ["s2:1", "s4:1"]) {
      const hit = on.hits.find((h) => h.unit.provenance.turnIds[0] === turn);
      assert.ok(hit?.reasons.some((r) => /kinds of "citrus fruits" #[12]\b/.test(r)), shown);
    }
    // Off: the lemon bars sink among 150 turns that share no word with the question either.
    assert.ok(off.hits.every((h) => h.reasons.every((r) => !r.includes("kinds of"))));
    assert.ok(!turnsOf(off.hits).includes("s4:1"), JSON.stringify(turnsOf(off.hits)));
  } finally {
    await m.close();
  }
});

test("a question that counts nothing searches no kinds", async () => {
  const m = await memory();
  try {
    const outcome = await m.recall("What did I squeeze into the daiquiri?", { k: 3 });
    assert.equal(outcome.frame?.aggregates ?? null, null);
    assert.ok(outcome.hits.every((h) => h.reasons.every((r) => !r.includes("kinds of"))));
  } finally {
    await m.close();
  }
});
