import type { SessionWithTurns } from "../model/conversation.js";
import type { MemoryStore } from "../store/contract.js";

/**
 * A session ingested again over a stored one keeps the user's corrections:
 * a turn whose unit was corrected (`update`, its history says "updated")
 * is anchored with the corrected words, not the input's, so an upgrade of
 * the anchorer or a re-export of the chat does not silently bring the old
 * words back. To change such a turn, update it again or forget it.
 */
export async function carryCorrections(store: MemoryStore, s: SessionWithTurns): Promise<SessionWithTurns> {
  const stored = await store.listUnits(s.session.namespace, { sessionId: s.session.id });
  // Only a unit whose text changed after it was stored can hold a correction: the history is read for those alone.
  const changed = stored.filter((u) => u.updatedAt && u.createdAt && u.updatedAt > u.createdAt && u.source?.length);
  const corrected = new Map<string, string>();
  for (const u of changed) {
    const history = await store.unitHistory(s.session.namespace, u.id);
    if (!history.some((e) => e.event === "updated")) continue;
    const turn = u.source!.find((t) => t.id === u.provenance.turnIds[0]);
    if (turn) corrected.set(turn.id, turn.text);
  }
  if (corrected.size === 0) return s;
  return { ...s, turns: s.turns.map((t) => (corrected.has(t.id) ? { ...t, text: corrected.get(t.id)! } : t)) };
}
