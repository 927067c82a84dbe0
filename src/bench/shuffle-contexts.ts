import type { EpisodicContext, MemoryUnit } from "../model/memory-unit.js";
import { seededRandom } from "../util/seeded-random.js";

/**
 * The context-shuffle ablation: every unit gets the episodic context of
 * another unit of its namespace, by a seeded permutation, so runs repeat.
 * Content and provenance stay; only the coordinates lie.
 */
export function shuffledContexts(units: readonly MemoryUnit[], seed = 42): (unit: MemoryUnit) => EpisodicContext {
  const ids = units.map((u) => u.id).sort();
  const byId = new Map(units.map((u) => [u.id, u.context]));
  const order = [...ids];
  const random = seededRandom(seed);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const donor = new Map(ids.map((id, i) => [id, byId.get(order[i]!)!]));
  return (unit) => donor.get(unit.id) ?? unit.context;
}

/** A tiny seeded PRNG; Math.random cannot be seeded. */
