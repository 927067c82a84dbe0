import type { MemoryUnit } from "../model/memory-unit.js";
import type { ContentCandidate } from "./content-recall.js";

/**
 * A candidate's episode, as episode support, coverage and the spread read it:
 * its session, or its topic segment when `segmentedSupport` (falling back to
 * the session); none when the session is no coordinate (sessionContext false).
 */
export function episodeOfCandidate(
  unitOf: (unitId: string) => MemoryUnit | undefined,
  sessionContext: boolean,
  segmentedSupport: boolean,
): (c: ContentCandidate) => string | undefined {
  return (c) => {
    const context = sessionContext ? unitOf(c.unitId)?.context : undefined;
    return segmentedSupport ? (context?.episode?.id ?? context?.session.sessionId) : context?.session.sessionId;
  };
}
