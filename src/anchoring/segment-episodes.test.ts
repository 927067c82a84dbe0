import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { createRuleAnchorer } from "./rule-anchorer.js";
import { createHashEmbedder } from "../providers/hash-embedder.js";
import type { MemoryUnit } from "../model/memory-unit.js";
import { segmentEpisodes } from "./segment-episodes.js";

const LISBON = [
  "We finally landed in Lisbon, the flight from Boston was long.",
  "How was Lisbon? Did you get to Alfama?",
  "Alfama was lovely, we walked the steep streets up to the castle.",
  "Did you eat the grilled sardines there?",
  "Yes, grilled sardines with bread and wine at a tiny place near the castle.",
  "The castle views over the river must be amazing.",
];
const GARDEN = [
  "Anyway, my tomato plants finally came up in the garden this week.",
  "Tomatoes already? What soil did you use for the garden beds?",
  "Compost soil from the garden centre, and I water the tomato beds every morning.",
  "My basil in the garden never survives the watering.",
  "Basil needs less watering than tomatoes, plant it in drier soil.",
  "I'll move the basil to a drier corner of the garden then.",
];

async function anchor(texts: readonly string[], session = "s1"): Promise<{ units: MemoryUnit[]; vectors: Float32Array[] }> {
  const { units } = await createRuleAnchorer().anchorSession({
    session: { id: session, namespace: "ns", startTime: "2023-05-01T10:00:00.000Z", endTime: "2023-05-01T11:00:00.000Z", participants: ["Ann", "Bo"] },
    turns: texts.map((text, i) => ({ id: `${session}:${i + 1}`, speaker: i % 2 === 0 ? "Ann" : "Bo", text })),
  });
  const vectors = await createHashEmbedder().embed(units.map((u) => u.content));
  return { units, vectors };
}

const episodeIds = (units: readonly MemoryUnit[]) => units.map((u) => u.context.episode?.id);

describe("segmentEpisodes", () => {
  it("cuts where the subject changes: the Lisbon trip, then the garden", async () => {
    const { units, vectors } = await anchor([...LISBON, ...GARDEN]);
    const segmented = segmentEpisodes(units, vectors);
    const ids = episodeIds(segmented);
    assert.deepEqual(ids, [...LISBON.map(() => "s1#s1:1"), ...GARDEN.map(() => "s1#s1:7")]);
    const trip = segmented[4]!.context.episode!;
    // The sardines turn names no place: its episode does.
    assert.equal(segmented[4]!.context.location, null);
    assert.deepEqual([trip.firstTurnId, trip.lastTurnId, trip.place], ["s1:1", "s1:6", "Lisbon"]);
    assert.deepEqual(trip.participants.slice(0, 2), ["Ann", "Bo"]);
    assert.equal(segmented[8]!.context.episode!.place, null);
  });

  it("keeps a session that stays on one subject as one episode", async () => {
    const { units, vectors } = await anchor([...GARDEN, ...GARDEN.map((t) => t.replace("Anyway, ", ""))]);
    assert.equal(new Set(episodeIds(segmentEpisodes(units, vectors))).size, 1);
  });

  it("never makes an episode shorter than the minimum, and a short session is one episode", async () => {
    const { units, vectors } = await anchor([...LISBON.slice(0, 3), ...GARDEN.slice(0, 3)]);
    assert.equal(new Set(episodeIds(segmentEpisodes(units, vectors))).size, 1);
    assert.deepEqual(segmentEpisodes([], []), []);
  });

  it("decides on the words alone when there are no vectors", async () => {
    const { units } = await anchor([...LISBON, ...GARDEN]);
    assert.equal(new Set(episodeIds(segmentEpisodes(units))).size, 2);
  });

  it("continues the episode an append follows: its id, first turn and place carry over", async () => {
    const { units, vectors } = await anchor(LISBON.slice(3), "s1");
    const continues = { id: "s1#s1:0", firstTurnId: "s1:0", lastTurnId: "s1:0", place: "Lisbon", topic: null, participants: ["Ann"] };
    const segmented = segmentEpisodes(units, vectors, { continues });
    assert.deepEqual(new Set(episodeIds(segmented)), new Set(["s1#s1:0"]));
    const episode = segmented[0]!.context.episode!;
    assert.deepEqual([episode.firstTurnId, episode.lastTurnId, episode.place], ["s1:0", units[units.length - 1]!.provenance.turnIds[0], "Lisbon"]);
    assert.deepEqual(episode.participants.slice(0, 2), ["Ann", "Bo"]);
  });
});
