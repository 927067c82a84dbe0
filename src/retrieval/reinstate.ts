import type { EpisodicContext } from "../model/memory-unit.js";
import type { RecallFrame } from "../model/recall-frame.js";
import type { ContentCandidate } from "./content-recall.js";
import { matchContext } from "./context-match.js";

export interface ReinstatedCandidate extends ContentCandidate {
  /** Frame conditions the unit met, and the episode support it got; empty when it is here on content alone. */
  contextReasons: string[];
}

export interface ReinstateOptions {
  k: number;
  /** false (ablation no-context-ranking): the frame is induced, but the order stays the content order. */
  contextRanking: boolean;
  /**
   * false (ablation no-session-context): the session is no coordinate at all —
   * its span does not match a time window, and its units lend each other no
   * episode support.
   */
  sessionContext: boolean;
}

/**
 * How many of an episode's other best-scoring candidates lend a unit their
 * support. Measured on LoCoMo (README › Benchmarks): 2 and 4 do about as well
 * as 3; the mean (not the sum) keeps the support on the content score's scale.
 */
export const EPISODE_SUPPORT = 3;

/**
 * Only candidates that match the query's words at least this strongly
 * (BM25, relative to the best lexical match) lend support. Rank fusion
 * flattens scores, so without this floor units found only by the dense
 * channel, or only by a speaker's name, would pull in their whole session —
 * which in a small store is every session.
 */
export const SUPPORT_FLOOR = 0.5;

/**
 * Stage 3, selective reinstatement — the whole algorithm:
 *
 *   episode support      → each candidate's content score plus the mean of the
 *                          EPISODE_SUPPORT best content scores of the other
 *                          candidates from its session that match the query's
 *                          words well (SUPPORT_FLOOR): recalling a memory
 *                          reinstates its episode, which cues that episode's
 *                          other memories. A unit relevant on its own but
 *                          alone in its episode (a likely distractor) sinks
 *                          below units of an episode the query keeps hitting;
 *   no active frame      → that ranking, cut to K (fallback);
 *   an active frame      → C_ctx: candidates whose episodic context satisfies
 *                          the frame, in that order; then C_content: the
 *                          rest; cut to K.
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
  if (!options.contextRanking) return contentRanking.slice(0, options.k).map((c) => ({ ...c, contextReasons: [] }));
  const reasonsOf = new Map<string, string[]>(contentRanking.map((c) => [c.unitId, []]));

  // Episode support: the supporting candidates of each session, best first (contentRanking is sorted).
  const episodeOf = (c: ContentCandidate) => (options.sessionContext ? contextOf(c.unitId)?.session.sessionId : undefined);
  const bestLexical = Math.max(0, ...contentRanking.map((c) => c.lexical?.score ?? 0));
  const lendsSupport = (c: ContentCandidate) => bestLexical > 0 && (c.lexical?.score ?? 0) >= SUPPORT_FLOOR * bestLexical;
  const byEpisode = new Map<string, ContentCandidate[]>();
  for (const c of contentRanking) {
    const episode = lendsSupport(c) ? episodeOf(c) : undefined;
    if (episode !== undefined) byEpisode.set(episode, [...(byEpisode.get(episode) ?? []), c]);
  }
  const supported = contentRanking.map((c) => {
    const episode = episodeOf(c);
    const others = episode === undefined ? [] : (byEpisode.get(episode) ?? []).filter((o) => o.unitId !== c.unitId).slice(0, EPISODE_SUPPORT);
    const support = others.reduce((sum, o) => sum + o.score, 0) / EPISODE_SUPPORT;
    if (support > 0) reasonsOf.get(c.unitId)!.push(`episode ${episode} +${support.toFixed(3)}`);
    return { candidate: c, score: c.score + support };
  });
  supported.sort((a, b) => b.score - a.score || a.candidate.unitId.localeCompare(b.candidate.unitId));
  const ranking = supported.map((s) => s.candidate);

  const contextValid = new Set<string>();
  if (frame?.active) {
    for (const c of ranking) {
      const context = contextOf(c.unitId);
      if (!context) continue;
      const match = matchContext(context, frame, { sessionContext: options.sessionContext });
      if (match.ok) {
        reasonsOf.get(c.unitId)!.unshift(...match.met);
        contextValid.add(c.unitId);
      }
    }
  }
  const ordered = [...ranking.filter((c) => contextValid.has(c.unitId)), ...ranking.filter((c) => !contextValid.has(c.unitId))];
  return ordered.slice(0, options.k).map((c) => ({ ...c, contextReasons: reasonsOf.get(c.unitId)! }));
}
