import type { Session, SessionWithTurns, Turn } from "../model/conversation.js";
import type { MemoryUnit } from "../model/memory-unit.js";
import { RamemError } from "../model/errors.js";

/**
 * A session's turns read back from its units' verbatim sources, in
 * conversation order (units are listed in stored order), each turn once: what
 * re-anchoring and a re-ingest of an export start from. A unit without its
 * source (stored before turns were kept verbatim) makes that impossible, and
 * the error says which.
 *
 * Units of a window anchorer share turns, and `update` corrects the words of
 * one unit's first turn only (anchoring/update-unit.ts): where copies of a
 * turn differ, the one that opens the unit updated last wins, so a correction
 * is not undone by an older copy listed before it.
 */
export function sessionFromUnits(session: Session, units: readonly MemoryUnit[], where: string): SessionWithTurns {
  const turns: Turn[] = [];
  /** Each turn's place in `turns`, and when the unit it opens was last updated (-Infinity: it opens none, or no time is known). */
  const seen = new Map<string, { at: number; updated: number }>();
  for (const unit of units) {
    if (!unit.source?.length) {
      throw new RamemError("NO_VERBATIM_TURNS", `unit ${unit.id} of session ${session.id} has no verbatim turns to re-derive it from`, {
        where,
        hint: "it was stored before ramem kept turns verbatim: ingest the original conversation file again instead (its units are then re-anchorable)",
      });
    }
    const parsed = unit.updatedAt ? Date.parse(unit.updatedAt) : Number.NaN;
    const updated = Number.isNaN(parsed) ? Number.NEGATIVE_INFINITY : parsed;
    unit.source.forEach((turn, i) => {
      const opens = i === 0 ? updated : Number.NEGATIVE_INFINITY;
      const known = seen.get(turn.id);
      if (!known) {
        seen.set(turn.id, { at: turns.length, updated: opens });
        turns.push(turn);
      } else if (opens > known.updated) {
        turns[known.at] = turn;
        known.updated = opens;
      }
    });
  }
  if (turns.length === 0) {
    throw new RamemError("NO_VERBATIM_TURNS", `session ${session.id} has no units`, { where, hint: "a session without units has nothing to re-anchor" });
  }
  const { id, namespace, startTime, endTime, participants } = session;
  return { session: { id, namespace, startTime, endTime, participants }, turns };
}
