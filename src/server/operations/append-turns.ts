import { createHash } from "node:crypto";
import type { Memory } from "../../memory.js";
import type { Session } from "../../model/conversation.js";
import type { MemoryUnit } from "../../model/memory-unit.js";
import { RamemError } from "../../model/errors.js";
import { embedAll } from "../../anchoring/ingest-sessions.js";
import type { AppendInput } from "../rest/schemas.js";
import { checkSession, isoNormalize, toTurns } from "./build-session.js";

export interface AppendReport {
  created: boolean;
  turnIds: string[];
  unitsWritten: number;
  warnings: string[];
}

/**
 * Adds turns to a session, creating it when it does not exist. Only the new
 * turns are anchored (the store keeps units, not the raw turns, so the old
 * turns cannot be re-read); the session's units are then written back whole,
 * old and new, in one replaceSession transaction. The session span widens to
 * cover the new turns' times, and the old units' session coordinate follows.
 *
 * Callers must serialise appends per namespace (the server's KeyedLock):
 * this reads the session and writes it back.
 */
export async function appendTurns(memory: Memory, namespace: string, sessionId: string, input: AppendInput, now: Date = new Date()): Promise<AppendReport> {
  const existing = await memory.store.getSession(namespace, sessionId);
  if (!existing) {
    const times = input.turns.map((t) => t.time).filter((t): t is string => t !== undefined).map(isoNormalize);
    const startTime = isoNormalize(input.startTime ?? times[0] ?? now.toISOString());
    const endTime = [startTime, ...times].reduce((a, b) => (Date.parse(b) > Date.parse(a) ? b : a));
    const turns = toTurns(sessionId, input.turns);
    const session = checkSession({
      session: { id: sessionId, namespace, startTime, endTime, participants: input.participants ?? [...new Set(turns.map((t) => t.speaker))] },
      turns,
    });
    const report = await memory.ingest([session]);
    return { created: true, turnIds: turns.map((t) => t.id), unitsWritten: report.unitsWritten, warnings: report.warnings };
  }

  const oldUnits = await memory.store.listUnits(namespace, { sessionId });
  const taken = new Set(oldUnits.flatMap((u) => u.provenance.turnIds));
  const turns = toTurns(sessionId, input.turns, nextTurnIndex(sessionId, taken));
  for (const [i, t] of turns.entries()) {
    if (taken.has(t.id)) {
      throw new RamemError("DUPLICATE_TURN", `turns[${i}].id: session ${sessionId} already has a turn ${JSON.stringify(t.id)}`, {
        hint: "omit the id to get the next one, or use a new id; nothing was stored",
      });
    }
  }
  const times = turns.map((t) => t.time).filter((t): t is string => t !== undefined).map(isoNormalize);
  const startTime = [existing.startTime, ...times].reduce((a, b) => (Date.parse(b) < Date.parse(a) ? b : a));
  const endTime = [existing.endTime, ...times].reduce((a, b) => (Date.parse(b) > Date.parse(a) ? b : a));
  const session: Session = {
    id: sessionId,
    namespace,
    startTime,
    endTime,
    participants: [...new Set([...existing.participants, ...(input.participants ?? []), ...turns.map((t) => t.speaker)])],
  };
  const checked = checkSession({ session, turns });
  await memory.store.bindEmbedder(memory.embedder.id, memory.embedder.dimensions);
  const anchored = await memory.anchorer.anchorSession(checked);
  const span = { sessionId, start: startTime, end: endTime };
  const withSpan = (u: MemoryUnit): MemoryUnit => ({ ...u, context: { ...u.context, session: span } });
  const units = [...oldUnits.map(withSpan), ...anchored.units.map(withSpan)];
  // MemoryStore v1 cannot read vectors back: old units are re-embedded from their content, as ingest embedded them.
  const vectors = await embedAll(memory.embedder, units.map((u) => u.content));
  const hash = createHash("sha256").update(existing.contentHash).update("\u0000append\u0000").update(JSON.stringify(checked)).digest("hex");
  await memory.store.replaceSession(
    session,
    hash,
    units.map((unit, i) => ({ unit, embedding: vectors[i]! })),
  );
  return { created: false, turnIds: turns.map((t) => t.id), unitsWritten: anchored.units.length, warnings: anchored.warnings };
}

/**
 * The position of the next turn: one past the number of stored turns, or past
 * the highest "<session>:<n>" id if that is larger, so a default id is never
 * one the session already has.
 */
function nextTurnIndex(sessionId: string, taken: ReadonlySet<string>): number {
  let max = taken.size;
  const prefix = `${sessionId}:`;
  for (const id of taken) {
    if (!id.startsWith(prefix)) continue;
    const n = Number(id.slice(prefix.length));
    if (Number.isInteger(n) && n > max) max = n;
  }
  return max + 1;
}
