import type { EpisodicContext } from "../model/memory-unit.js";
import type { RecallFrame } from "../model/recall-frame.js";
import type { ContentCandidate } from "./content-recall.js";
import { matchContext } from "./context-match.js";

export interface ReinstatedCandidate extends ContentCandidate {
  /** Frame conditions the unit met; empty when it is here on content alone. */
  contextReasons: string[];
}

export interface ReinstateOptions {
  k: number;
  /** false (ablation no-context-ranking): the frame is induced, but the order stays the content order. */
  contextRanking: boolean;
  /** false (ablation no-session-context): the session span does not count as a time coordinate. */
  sessionContext: boolean;
}

/**
 * Stage 3, selective reinstatement — the whole algorithm:
 *
 *   no active frame      → the content ranking, cut to K (fallback);
 *   an active frame      → C_ctx: content candidates whose episodic context
 *                          satisfies the frame, in content order;
 *                          then C_content: the content ranking;
 *                          de-duplicated, cut to K.
 *
 * Context-valid memories rank first; content-relevant ones are never thrown
 * away, because frame induction can be wrong.
 */
export function reinstate(
  contentRanking: readonly ContentCandidate[],
  frame: RecallFrame | null,
  contextOf: (unitId: string) => EpisodicContext | undefined,
  options: ReinstateOptions,
): ReinstatedCandidate[] {
  const reasonsOf = new Map<string, string[]>();
  const contextValid: ContentCandidate[] = [];
  if (frame?.active) {
    for (const c of contentRanking) {
      const context = contextOf(c.unitId);
      if (!context) continue;
      const match = matchContext(context, frame, { sessionContext: options.sessionContext });
      if (match.ok) {
        reasonsOf.set(c.unitId, match.met);
        contextValid.push(c);
      }
    }
  }
  const ordered = options.contextRanking ? [...contextValid, ...contentRanking] : contentRanking;
  const seen = new Set<string>();
  const out: ReinstatedCandidate[] = [];
  for (const c of ordered) {
    if (seen.has(c.unitId)) continue;
    seen.add(c.unitId);
    out.push({ ...c, contextReasons: reasonsOf.get(c.unitId) ?? [] });
    if (out.length === options.k) break;
  }
  return out;
}
