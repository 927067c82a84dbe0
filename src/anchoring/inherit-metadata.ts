import type { SessionWithTurns } from "../model/conversation.js";
import type { MemoryUnit } from "../model/memory-unit.js";
import { mergeMetadata } from "../model/metadata.js";

/**
 * Gives each unit the metadata of its session and of the turns it covers
 * (a turn's keys over the session's, later turns over earlier ones), so a
 * filter on a caller's field selects the units of the turns it was given on,
 * whatever the anchorer. Anchorers never see metadata: it is the caller's,
 * not the conversation's.
 */
export function inheritMetadata(units: readonly MemoryUnit[], input: SessionWithTurns): MemoryUnit[] {
  const byTurn = new Map(input.turns.map((t) => [t.id, t.metadata]));
  return units.map((u) => {
    const metadata = mergeMetadata(input.session.metadata, ...u.provenance.turnIds.map((id) => byTurn.get(id)));
    const { metadata: _drop, ...rest } = u;
    return metadata ? { ...rest, metadata } : rest;
  });
}
