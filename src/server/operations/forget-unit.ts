import type { Memory } from "../../memory.js";
import { embedAll } from "../../anchoring/ingest-sessions.js";

/**
 * Deletes one unit so that its words are gone too. A unit's neighbours in its
 * session carry words of its turn in their `cue` (the rule anchorer cues each
 * unit with the previous turn), so deleting the unit alone would leave its
 * text searchable and exported through them. The neighbours' cues are cleared
 * and the session is written back in one transaction; without such a cue the
 * unit is just deleted. Callers serialise per namespace (KeyedLock).
 *
 * Returns false when the namespace has no such unit.
 */
export async function forgetUnit(memory: Memory, namespace: string, unitId: string): Promise<boolean> {
  const [unit] = await memory.store.getUnits(namespace, [unitId]);
  if (!unit) return false;
  const sessionId = unit.provenance.sessionId;
  const units = await memory.store.listUnits(namespace, { sessionId });
  const at = units.findIndex((u) => u.id === unitId);
  const neighbours = new Set([units[at - 1]?.id, units[at + 1]?.id].filter((id): id is string => id !== undefined));
  const session = await memory.store.getSession(namespace, sessionId);
  if (!session || !units.some((u) => neighbours.has(u.id) && u.cue !== "")) return memory.store.deleteUnit(namespace, unitId);
  const kept = units.filter((u) => u.id !== unitId).map((u) => (neighbours.has(u.id) ? { ...u, cue: "" } : u));
  // MemoryStore v1 cannot read vectors back; they are recomputed from content, as ingest computed them (cues are not embedded).
  const vectors = await embedAll(memory.embedder, kept.map((u) => u.content));
  const { contentHash, unitCount: _n, ...plain } = session;
  await memory.store.replaceSession(plain, contentHash, kept.map((u, i) => ({ unit: u, embedding: vectors[i]! })));
  return true;
}
