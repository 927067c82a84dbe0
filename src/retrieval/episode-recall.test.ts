/**
 * Episodes end to end, through Memory.recall on the embedded store: the turn
 * about grilled sardines never says Lisbon, but its episode — the Lisbon
 * trip — does, so a question about Lisbon finds it context-valid.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { Memory } from "../memory.js";
import { openSqliteStore } from "../store/sqlite/sqlite-store.js";
import { createHashEmbedder } from "../providers/hash-embedder.js";

test("a place condition is met by the unit's episode: the sardines turn of the Lisbon trip", async () => {
  const memory = new Memory({ store: await openSqliteStore(":memory:"), embedder: createHashEmbedder() });
  try {
    const lines = [
      "We finally landed in Lisbon, the flight from Boston was long.",
      "How was Lisbon? Did you get to Alfama?",
      "Alfama was lovely, we walked the steep streets up to the castle.",
      "What did you eat there?",
      "We ate grilled sardines with bread at a tiny place near the castle.",
      "The castle views over the river must be amazing.",
      "Anyway, my tomato plants finally came up in the garden this week.",
      "Tomatoes already? What soil did you use for the garden beds?",
      "Compost soil from the garden centre, and I water the tomato beds every morning.",
      "My basil in the garden never survives the watering.",
      "We ate grilled peppers from the garden for dinner.",
      "Basil needs less watering than tomatoes.",
    ];
    await memory.ingest([
      {
        session: { id: "s1", namespace: "trip", startTime: "2023-05-01T10:00:00.000Z", endTime: "2023-05-01T11:00:00.000Z", participants: ["Ann", "Bo"] },
        turns: lines.map((text, i) => ({ id: `s1:${i + 1}`, speaker: i % 2 ? "Bo" : "Ann", text })),
      },
    ]);
    const { hits, frame } = await memory.recall("What did Ann eat in Lisbon?", { namespace: "trip", k: 5 });
    assert.equal(frame?.location?.names[0], "Lisbon");
    const sardines = hits.find((h) => /sardines/.test(h.unit.content));
    assert.ok(sardines, hits.map((h) => h.unit.content).join("\n"));
    assert.equal(sardines!.unit.context.location, null, "the turn names no place");
    assert.match(sardines!.reasons.join(" "), /in an episode at Lisbon/);
    // The garden episode's "grilled peppers" shares the words but not the place: it ranks below.
    const peppers = hits.findIndex((h) => /peppers/.test(h.unit.content));
    assert.ok(peppers === -1 || peppers > hits.indexOf(sardines!), hits.map((h) => `${h.unit.content} | ${h.reasons.join("; ")}`).join("\n"));
  } finally {
    await memory.close();
  }
});
