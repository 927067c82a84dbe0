import type { MemoryUnit } from "../model/memory-unit.js";
import type { RecallHit } from "../model/recall.js";
import type { ContentCandidate } from "./content-recall.js";

/** Joins ranked candidates with their units; a reason line says which channels found each one. */
export function toHits(ranked: readonly ContentCandidate[], units: readonly MemoryUnit[], extraReasons?: (c: ContentCandidate) => string[]): RecallHit[] {
  const byId = new Map(units.map((u) => [u.id, u]));
  const hits: RecallHit[] = [];
  for (const c of ranked) {
    const unit = byId.get(c.unitId);
    if (!unit) continue; // deleted between search and fetch
    const channels: string[] = [];
    if (c.lexical) channels.push(`lexical #${c.lexical.rank}`);
    if (c.dense) channels.push(`dense #${c.dense.rank}`);
    hits.push({
      unit,
      rank: hits.length + 1,
      score: c.score,
      channels: { ...(c.lexical ? { lexical: c.lexical } : {}), ...(c.dense ? { dense: c.dense } : {}) },
      reasons: [`content: ${channels.join(", ")}`, ...(extraReasons?.(c) ?? [])],
    });
  }
  return hits;
}
