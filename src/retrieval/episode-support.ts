import type { MemoryUnit } from "../model/memory-unit.js";
import { isReliable, type RecallFrame } from "../model/recall-frame.js";
import { stemmedTerms } from "../language/stemmed-terms.js";
import type { ContentCandidate } from "./content-recall.js";
import type { ReinstateSignals } from "./reinstate-signals.js";
import { speaksForAService } from "./speaks-for-a-service.js";

/** A candidate with its score after episode support (and, later, the successor lift). */
export interface SupportedCandidate {
  candidate: ContentCandidate;
  score: number;
}

/**
 * Episode support: each candidate's content score plus its episode's score —
 * the mean of the episode's EPISODE_SUPPORT best strong lexical hits (at least
 * SUPPORT_FLOOR of the best BM25 score), plus COVERAGE_WEIGHT times the share
 * of the need's words (the query's, minus the people the frame names) its
 * candidates hold between them. A query that aggregates keeps
 * aggregateSupportShare of the first part; in a chat with an assistant (the
 * candidates carry roles) coverage weighs assistantChatCoverage of itself.
 * Only people's turns lend it when personsLendSupport. `episodeOf` gives a candidate's episode (undefined: none,
 * no support). In the candidates' order; reasons go into `reasonsOf`.
 */
export function addEpisodeSupport(
  candidates: readonly ContentCandidate[],
  frame: RecallFrame | null,
  unitOf: (unitId: string) => MemoryUnit | undefined,
  query: string,
  episodeOf: (c: ContentCandidate) => string | undefined,
  signals: ReinstateSignals,
  reasonsOf: Map<string, string[]>,
): SupportedCandidate[] {
  const bestLexical = Math.max(0, ...candidates.map((c) => c.lexical?.score ?? 0));
  const lendsSupport = (c: ContentCandidate) => bestLexical > 0 && (c.lexical?.score ?? 0) >= signals.supportFloor * bestLexical;
  const need = needTerms(query, frame);
  const strongScores = new Map<string, number[]>();
  const covered = new Map<string, Set<string>>();
  for (const c of candidates) {
    const episode = episodeOf(c);
    const unit = unitOf(c.unitId);
    if (episode === undefined || !unit) continue;
    const words = covered.get(episode) ?? new Set<string>();
    covered.set(episode, words);
    if (signals.personsLendSupport && speaksForAService(unit)) continue;
    if (lendsSupport(c)) strongScores.set(episode, [...(strongScores.get(episode) ?? []), c.score]);
    for (const t of stemmedTerms(`${unit.content} ${unit.cue}`)) if (need.has(t)) words.add(t);
  }
  // A query that gathers several episodes keeps only a share of the best hits' part: it would hold the list in one episode.
  const bestHitsShare = frame?.aggregates ? signals.aggregateSupportShare : 1;
  // A chat with an assistant (its turns carry roles): a user's one request holds what coverage would gather from several turns.
  const coverageWeight = candidates.some((c) => unitOf(c.unitId)?.context.role) ? signals.assistantChatCoverage * signals.coverageWeight : signals.coverageWeight;
  const episodeScore = (episode: string) =>
    (signals.episodeSupport > 0 ? (bestHitsShare * (strongScores.get(episode) ?? []).slice(0, signals.episodeSupport).reduce((sum, s) => sum + s, 0)) / signals.episodeSupport : 0) +
    (need.size > 0 ? (coverageWeight * covered.get(episode)!.size) / need.size : 0);
  return candidates.map((c) => {
    const episode = episodeOf(c);
    const support = episode === undefined ? 0 : episodeScore(episode);
    if (support > 0) reasonsOf.get(c.unitId)!.push(`episode ${episode} +${support.toFixed(3)}`);
    return { candidate: c, score: c.score + support };
  });
}

/**
 * The query's words minus the people the frame already conditions on: a
 * speaker's name is in nearly every turn of theirs, so it would make every
 * episode look like it covers the query.
 */
function needTerms(query: string, frame: RecallFrame | null): Set<string> {
  const terms = stemmedTerms(query);
  const people = frame && isReliable(frame.participants) ? frame.participants.names : [];
  for (const name of people) for (const t of stemmedTerms(name)) terms.delete(t);
  return terms;
}
