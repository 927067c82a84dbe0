import type { Embedder } from "../providers/embedder.js";
import type { MemoryStore } from "../store/contract.js";
import { RamemError } from "../model/errors.js";
import { checkArgs } from "../model/check-args.js";
import { echoValue } from "../model/echo-value.js";
import { embedAll } from "../anchoring/ingest-sessions.js";
import { EXPORT_FORMAT, EXPORT_VERSION, encodeEmbedding, type ExportHeader, type SessionLine, type UnitLine } from "./export-format.js";

/**
 * A namespace as JSONL lines (see export-format.ts), header first.
 *
 * Each unit travels with the vector the store holds for it (getUnitEmbeddings),
 * so export → import is exact whatever the embedder (a remote model need not
 * even be reachable). Only a unit whose vector is missing is embedded again
 * from its content, and only with the embedder the store was built with.
 * Callers that want a consistent snapshot hold the namespace's write lock
 * (Memory.exportNamespace does).
 */
export async function exportNamespace(memory: { store: MemoryStore; embedder: Embedder }, namespace: string, now: Date = new Date()): Promise<string[]> {
  checkArgs("exportNamespace", { memory: [memory, "object"], namespace: [namespace, "string"], now: [now, "date"] });
  const stats = await memory.store.stats(namespace);
  const embedder = stats.embedder ?? memory.embedder.id;
  const dimensions = stats.dimensions ?? memory.embedder.dimensions;
  const sameEmbedder = embedder === memory.embedder.id && dimensions === memory.embedder.dimensions;
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
    const vectors = await memory.store.getUnitEmbeddings(namespace, sessionUnits.map((u) => u.id));
    const missing = sessionUnits.filter((u) => !vectors.has(u.id));
    if (missing.length > 0) {
      if (!sameEmbedder) {
        throw new RamemError("EMBEDDER_MISMATCH", `unit ${echoValue(missing[0]!.id)} has no stored vector, and the store holds vectors of ${embedder} while this process embeds with ${memory.embedder.id}`, {
          hint: "open the store with the embedder it was built with, so the missing vectors can be computed again",
        });
      }
      (await embedAll(memory.embedder, missing.map((u) => u.content))).forEach((v, i) => vectors.set(missing[i]!.id, v));
    }
    for (const unit of sessionUnits) {
      const u: UnitLine = { type: "unit", unit, embedding: encodeEmbedding(vectors.get(unit.id)!) };
      body.push(JSON.stringify(u));
    }
    units += sessionUnits.length;
  }
  const header: ExportHeader = { format: EXPORT_FORMAT, version: EXPORT_VERSION, namespace, embedder, dimensions, sessions: sessions.length, units, exportedAt: now.toISOString() };
  return [JSON.stringify(header), ...body];
}
