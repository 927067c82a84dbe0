import type { Memory } from "../memory.js";
import { RamemError } from "../model/errors.js";
import { embedAll } from "../anchoring/ingest-sessions.js";
import { EXPORT_FORMAT, EXPORT_VERSION, encodeEmbedding, type ExportHeader, type SessionLine, type UnitLine } from "./export-format.js";

/**
 * A namespace as JSONL lines (see export-format.ts), header first.
 *
 * MemoryStore v1 has no call that reads vectors back, so each unit's vector
 * is recomputed from its content with the store's own embedder, which is how
 * ingest computed it. For a deterministic embedder (hash, use-lite) that is the
 * stored vector; importing writes these vectors verbatim, embedding nothing.
 */
export async function exportNamespace(memory: Memory, namespace: string, now: Date = new Date()): Promise<string[]> {
  const stats = await memory.store.stats(namespace);
  if (stats.embedder !== null && (stats.embedder !== memory.embedder.id || stats.dimensions !== memory.embedder.dimensions)) {
    throw new RamemError("EMBEDDER_MISMATCH", `the store holds vectors of ${stats.embedder}, this process embeds with ${memory.embedder.id}`, {
      hint: "open the store with the embedder it was built with",
    });
  }
  const sessions = await memory.store.listSessions(namespace);
  const body: string[] = [];
  let units = 0;
  for (const s of sessions) {
    const line: SessionLine = {
      type: "session",
      session: { id: s.id, namespace: s.namespace, startTime: s.startTime, endTime: s.endTime, participants: s.participants },
      contentHash: s.contentHash,
    };
    body.push(JSON.stringify(line));
    const sessionUnits = await memory.store.listUnits(namespace, { sessionId: s.id });
    const vectors = await embedAll(memory.embedder, sessionUnits.map((u) => u.content));
    sessionUnits.forEach((unit, i) => {
      const u: UnitLine = { type: "unit", unit, embedding: encodeEmbedding(vectors[i]!) };
      body.push(JSON.stringify(u));
    });
    units += sessionUnits.length;
  }
  const header: ExportHeader = {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    namespace,
    embedder: memory.embedder.id,
    dimensions: memory.embedder.dimensions,
    sessions: sessions.length,
    units,
    exportedAt: now.toISOString(),
  };
  return [JSON.stringify(header), ...body];
}
