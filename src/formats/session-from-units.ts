import type { Session, SessionWithTurns, Turn } from "../model/conversation.js";
import type { MemoryUnit } from "../model/memory-unit.js";
import { RamemError } from "../model/errors.js";

/**
 * A session's turns read back from its units' verbatim sources, in
 * conversation order (units are listed in stored order), each turn once: what
 * re-anchoring and a re-ingest of an export start from. A unit without its
 * source (stored before turns were kept verbatim) makes that impossible, and
 * the error says which.
 */
export function sessionFromUnits(session: Session, units: readonly MemoryUnit[], where: string): SessionWithTurns {
  const turns: Turn[] = [];
  const seen = new Set<string>();
  for (const unit of units) {
    if (!unit.source?.length) {
      throw new RamemError("NO_VERBATIM_TURNS", `unit ${unit.id} of session ${session.id} has no verbatim turns to re-derive it from`, {
        where,
        hint: "it was stored before ramem kept turns verbatim: ingest the original conversation file again instead (its units are then re-anchorable)",
      });
    }
    for (const turn of unit.source) {
      if (seen.has(turn.id)) continue;
      seen.add(turn.id);
      turns.push(turn);
    }
  }
  if (turns.length === 0) {
    throw new RamemError("NO_VERBATIM_TURNS", `session ${session.id} has no units`, { where, hint: "a session without units has nothing to re-anchor" });
  }
  const { id, namespace, startTime, endTime, participants } = session;
  return { session: { id, namespace, startTime, endTime, participants }, turns };
}
