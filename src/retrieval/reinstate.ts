import type { MemoryUnit } from "../model/memory-unit.js";
import { ACTIVATION_CONFIDENCE, type RecallFrame } from "../model/recall-frame.js";
import type { ContentCandidate } from "./content-recall.js";
import { matchContext } from "./context-match.js";
import { stemmedTerms } from "./stemmed-terms.js";

export interface ReinstatedCandidate extends ContentCandidate {
  /** Frame conditions the unit met, and the episode support it got; empty when it is here on content alone. */
  contextReasons: string[];
}

export interface ReinstateOptions {
  k: number;
  /** The query, whose words an episode's candidates may cover between them. */
  query: string;
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
 * How many of an episode's best strong candidates make its score. Measured on
 * LoCoMo (README › RaMem targets): 2 to 5 stay within 0.01 Recall@10 of 3;
 * the mean (not the sum) keeps the episode score on the content score's scale.
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
 * What an episode adds when its candidates between them hold every word of
 * the query (a share of them adds that share). A question's cues are often
 * spread over several turns of the one episode it is about ("what did she
 * realise after the charity race": "race" in one turn, "realised" in the
 * next); a wrong episode rarely holds them all. Measured on LoCoMo: 0.05–0.2
 * all help; 0.1 keeps Recall@10 and cuts D@1 most for it.
 */
export const COVERAGE_WEIGHT = 0.1;

/**
 * Stage 3, selective reinstatement — the whole algorithm:
 *
 *   episode support      → each candidate's content score plus the score of
 *                          its episode (session): the mean of the
 *                          EPISODE_SUPPORT best content scores among the
 *                          episode's candidates that match the query's words
 *                          well (SUPPORT_FLOOR), plus COVERAGE_WEIGHT times the
 *                          share of the query's words (minus the people the
 *                          frame names) that its candidates hold between them.
 *                          Recalling a memory reinstates its episode, which
 *                          cues that episode's other memories; a unit relevant
 *                          on its own but alone in a wrong episode (a likely
 *                          distractor) sinks below the units of the episode
 *                          the query keeps hitting. Within an episode the
 *                          content order stays;
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
  unitOf: (unitId: string) => MemoryUnit | undefined,
  options: ReinstateOptions,
): ReinstatedCandidate[] {
  if (!options.contextRanking) return contentRanking.slice(0, options.k).map((c) => ({ ...c, contextReasons: [] }));
  const reasonsOf = new Map<string, string[]>(contentRanking.map((c) => [c.unitId, []]));

  // Episode score: the mean of the episode's EPISODE_SUPPORT best strong lexical
  // hits, plus COVERAGE_WEIGHT times the share of the need's words its candidates hold.
  const episodeOf = (c: ContentCandidate) => (options.sessionContext ? unitOf(c.unitId)?.context.session.sessionId : undefined);
  const bestLexical = Math.max(0, ...contentRanking.map((c) => c.lexical?.score ?? 0));
  const lendsSupport = (c: ContentCandidate) => bestLexical > 0 && (c.lexical?.score ?? 0) >= SUPPORT_FLOOR * bestLexical;
  const need = needTerms(options.query, frame);
  const strongScores = new Map<string, number[]>();
  const covered = new Map<string, Set<string>>();
  for (const c of contentRanking) {
    const episode = episodeOf(c);
    const unit = unitOf(c.unitId);
    if (episode === undefined || !unit) continue;
    if (lendsSupport(c)) strongScores.set(episode, [...(strongScores.get(episode) ?? []), c.score]);
    const words = covered.get(episode) ?? new Set<string>();
    for (const t of stemmedTerms(`${unit.content} ${unit.cue}`)) if (need.has(t)) words.add(t);
    covered.set(episode, words);
  }
  const episodeScore = (episode: string) =>
    (strongScores.get(episode) ?? []).slice(0, EPISODE_SUPPORT).reduce((sum, s) => sum + s, 0) / EPISODE_SUPPORT +
    (need.size > 0 ? (COVERAGE_WEIGHT * covered.get(episode)!.size) / need.size : 0);
  const supported = contentRanking.map((c) => {
    const episode = episodeOf(c);
    const support = episode === undefined ? 0 : episodeScore(episode);
    if (support > 0) reasonsOf.get(c.unitId)!.push(`episode ${episode} +${support.toFixed(3)}`);
    return { candidate: c, score: c.score + support };
  });
  supported.sort((a, b) => b.score - a.score || a.candidate.unitId.localeCompare(b.candidate.unitId));
  const ranking = supported.map((s) => s.candidate);

  const contextValid = new Set<string>();
  if (frame?.active) {
    for (const c of ranking) {
      const unit = unitOf(c.unitId);
      if (!unit) continue;
      const match = matchContext(unit.context, frame, { sessionContext: options.sessionContext });
      if (match.ok) {
        reasonsOf.get(c.unitId)!.unshift(...match.met);
        contextValid.add(c.unitId);
      }
    }
  }
  const ordered = [...ranking.filter((c) => contextValid.has(c.unitId)), ...ranking.filter((c) => !contextValid.has(c.unitId))];
  return ordered.slice(0, options.k).map((c) => ({ ...c, contextReasons: reasonsOf.get(c.unitId)! }));
}

/**
 * The query's words minus the people the frame already conditions on: a
 * speaker's name is in nearly every turn of theirs, so it would make every
 * episode look like it covers the query.
 */
function needTerms(query: string, frame: RecallFrame | null): Set<string> {
  const terms = stemmedTerms(query);
  const people = frame?.participants && frame.participants.confidence >= ACTIVATION_CONFIDENCE ? frame.participants.names : [];
  for (const name of people) for (const t of stemmedTerms(name)) terms.delete(t);
  return terms;
}
