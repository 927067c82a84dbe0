import type { MemoryUnit } from "../model/memory-unit.js";
import type { RecallFrame } from "../model/recall-frame.js";
import type { Validity } from "../anchoring/derive-validity.js";
import { spokenText } from "../model/spoken-text.js";
import type { ContentCandidate } from "./content-recall.js";
import type { ReinstateSignals } from "./reinstate-signals.js";
import { matchContext } from "./context-match.js";

/**
 * C_ctx: the candidates among the first CONTEXT_DEPTH of the scored ranking
 * whose episodic context satisfies the active frame (context-match.ts; with
 * validityTimes, a state valid at the asked time meets a past time too). The
 * conditions each met go first in its reasons. Empty without an active frame
 * or with contextFirst off.
 *
 * Deeper (validEpisodeBeyondDepth, with the session as a coordinate), a
 * candidate joins when a candidate of its session met the frame within the
 * depth: recalling a memory in a valid context reinstates its episode. "Who
 * did I go with to the music event last Saturday?" finds Saturday's session
 * by one turn about a festival; the turn that says "saw them live … with my
 * parents" sits at 49 on content, and a day's other sessions stay out.
 */
export function contextValidUnits(
  ranking: readonly ContentCandidate[],
  frame: RecallFrame | null,
  unitOf: (unitId: string) => MemoryUnit | undefined,
  options: { sessionContext: boolean; validityOf?: (unitId: string) => Validity | undefined },
  signals: ReinstateSignals,
  reasonsOf: Map<string, string[]>,
): Set<string> {
  const contextValid = new Set<string>();
  if (frame?.active && signals.contextFirst) {
    const reinstated = new Set<string>();
    const beyondDepth = signals.validEpisodeBeyondDepth && options.sessionContext;
    for (const [place, c] of ranking.entries()) {
      // C_ctx holds the content-relevant candidates only: a weak match in a valid context does not pass a strong one.
      const deep = signals.contextDepth > 0 && place >= signals.contextDepth;
      if (deep && (!beyondDepth || !reinstated.size)) break;
      const unit = unitOf(c.unitId);
      if (!unit || (deep && !reinstated.has(unit.context.session.sessionId))) continue;
      const validity = signals.validityTimes ? options.validityOf?.(c.unitId) : undefined;
      const match = matchContext(unit.context, frame, {
        sessionContext: options.sessionContext,
        fineTimesOnly: signals.fineTimesOnly,
        episodeContext: signals.episodeContext,
        ...(validity ? { validDuring: { start: validity.validFrom, end: validity.validTo } } : {}),
        ...(signals.addresseesNotSubjects ? { spoken: spokenText(unit) } : {}),
      });
      if (match.ok) {
        reasonsOf.get(c.unitId)!.unshift(...match.met);
        contextValid.add(c.unitId);
        if (!deep) reinstated.add(unit.context.session.sessionId);
      }
    }
  }
  return contextValid;
}
