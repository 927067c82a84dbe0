/**
 * Stage 3 of RaMem, selective reinstatement: the whole retrieval algorithm,
 * step by step. Each step is a call into a file of its own under retrieval/;
 * every weight sits in one `ReinstateSignals` record (reinstate-signals.ts),
 * so each bench ablation is a setting of it, never a copy of the algorithm.
 */
import type { MemoryUnit } from "../model/memory-unit.js";
import { isReliable, type RecallFrame } from "../model/recall-frame.js";
import type { Validity } from "../anchoring/derive-validity.js";
import type { ContentCandidate } from "./content-recall.js";
import { DEFAULT_SIGNALS, type ReinstateSignals } from "./reinstate-signals.js";
import { answerAware } from "./answer-aware.js";
import { episodeOfCandidate } from "./episode-of.js";
import { addEpisodeSupport } from "./episode-support.js";
import { inheritFromSuperseded } from "./successor-lift.js";
import { stateAnswers } from "./state-answers.js";
import type { SlotStatements } from "./slot-statements.js";
import { contextValidUnits } from "./context-valid.js";
import { answersBeforeQuestions } from "./answers-before-questions.js";
import { spreadOverEpisodes } from "./spread-over-episodes.js";
import { statesFirst } from "./states-first.js";
import { staleBehindSuccessors } from "./validity-order.js";
import { sameKeyNewestFirst } from "./same-key-order.js";
import { newestRivalFirst } from "./newest-rival-first.js";
import { anchorBehindNextValid } from "./anchor-behind.js";
import { movedTimeFirst } from "./moved-time-first.js";
import { keepContentBest } from "./content-best-kept.js";
import { checkArgs, checkFields } from "../model/check-args.js";

export {
  AGGREGATE_SUPPORT_SHARE,
  ANSWER_LIFT,
  ASSISTANT_CHAT_COVERAGE,
  CONTEXT_DEPTH,
  COUNTED_KINDS,
  COVERAGE_WEIGHT,
  DEFAULT_SIGNALS,
  EPISODE_SPREAD,
  EPISODE_SUPPORT,
  QUESTION_PENALTY,
  RIVAL_DEPTH,
  SUCCESSOR_LIFT,
  SUPPORT_FLOOR,
  PLACE_ANSWER_BONUS,
  QUANTITY_ANSWER_BONUS,
  TIME_ANSWER_BONUS,
  type ReinstateSignals,
} from "./reinstate-signals.js";

export interface ReinstatedCandidate extends ContentCandidate {
  /** Frame conditions the unit met, and the episode support it got; empty when it is here on content alone. */
  contextReasons: string[];
  /** True for a member of C_ctx: ranked first because its episodic context satisfies the active frame. */
  contextValid?: boolean;
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
  /**
   * The unit that follows a unit in its session, when the caller knows it
   * (the pipeline looks it up for candidates that ask a question). Its
   * answer may sit outside the content pool: it joins the candidates then.
   */
  nextUnitOf?: (unitId: string) => string | undefined;
  /**
   * The validity of units that state a state (retrieval/derive-validity.ts),
   * when the caller derived it; the unit that superseded a candidate may sit
   * outside the pool and joins the candidates then (unitOf must know it).
   */
  validityOf?: (unitId: string) => Validity | undefined;
  /**
   * The units of the namespace that state a state — at least every one stating the frame's stateSlot: a question about a state is answered from them (unitOf must know them).
   * Or those of the frame's stateSlot already laid out (slot-statements.ts), as the pipeline keeps them per namespace.
   */
  stateUnits?: readonly MemoryUnit[] | SlotStatements;
  /** Who a relation names in the namespace ("ines's sister" → "ana"; namespaceValidity's aliases): whose state a question asks about is resolved through it. */
  aliasOf?: ReadonlyMap<string, string>;
  /** The caller asks for the state at this instant (ISO; needs validityOf): statements not valid then go last. */
  validAt?: string;
  /** Default DEFAULT_SIGNALS. */
  signals?: Partial<ReinstateSignals>;
}

/**
 * Stage 3, selective reinstatement — the whole algorithm:
 *
 *   dialogue and answer  → a candidate that asks a question loses
 *                          QUESTION_PENALTY and lends its answer (the next
 *                          unit of its session) ANSWER_LIFT of its score —
 *                          between people only: a user asking an assistant
 *                          states the facts in the question, and an
 *                          assistant's reply is generic; when the query asks
 *                          when, units that carry a time gain TIME_ANSWER_BONUS,
 *                          when it asks where, units that name a place gain
 *                          PLACE_ANSWER_BONUS, and when it asks how much or
 *                          how many, units that state a number gain
 *                          QUANTITY_ANSWER_BONUS;
 *   episode support      → each candidate's content score plus the score of
 *                          its episode (session): the mean of the
 *                          EPISODE_SUPPORT best content scores among the
 *                          episode's candidates that match the query's words
 *                          (SUPPORT_FLOOR), plus COVERAGE_WEIGHT times the
 *                          share of the query's words (minus the people the
 *                          frame names) that its candidates hold between them
 *                          (half of it in a chat with an assistant, whose
 *                          user states a request's facts in one turn).
 *                          Only people's turns lend it: an assistant's replies
 *                          echo the request at length and are no independent
 *                          sign that the episode is the one asked about.
 *                          Recalling a memory reinstates its episode, which
 *                          cues that episode's other memories; a unit relevant
 *                          on its own but alone in a wrong episode (a likely
 *                          distractor) sinks below the units of the episode
 *                          the query keeps hitting. Within an episode the
 *                          content order stays;
 *   no active frame      → that ranking, cut to K (fallback);
 *   an active frame      → C_ctx: the first CONTEXT_DEPTH candidates whose
 *                          episodic context satisfies the frame, in that
 *                          order; then C_content: the rest; cut to K;
 *                          a time counted before or after an event found
 *                          in memory puts that event's own memory behind
 *                          the next context-valid one (it is the reference,
 *                          not the answer);
 *   aggregating query    → its episode support keeps AGGREGATE_SUPPORT_SHARE of
 *                          the best hits' part (coverage stays whole), and the
 *                          list is spread over episodes (EPISODE_SPREAD),
 *                          C_ctx still first;
 *   one occurrence       → inside the occurrence the frame picked, a question
 *                          about it follows its answer (the frame already
 *                          chose the episode; the question only repeats the
 *                          event's words);
 *   states               → what superseded a statement inherits its score
 *                          (SUCCESSOR_LIFT) when the current state is asked;
 *                          a question about a state gets the statements of
 *                          that slot valid at the asked time first (of the
 *                          person asked about); of the candidates stating an
 *                          open-world thing the query names, the value valid
 *                          then goes first (after those); a
 *                          statement not valid then follows what superseded
 *                          it, or goes last; when no rule read a state and
 *                          the query says "now", the newest of the
 *                          candidates both channels rank in their first
 *                          RIVAL_DEPTH (or, said by the subject, one in
 *                          its first three) takes the best one's place;
 *   a time still set     → "When is …?": a memory telling that the time
 *                          moved ("they moved my appointment to Wednesday
 *                          the 16th") takes the place of the time first said;
 *   content's two best   → keep the ninth and tenth places if every step
 *                          above put them lower (not for an aggregating
 *                          query, nor when a time, a chat role or one
 *                          occurrence is grounded).
 *
 * Context-valid memories rank first; content-relevant ones are never thrown
 * away, because frame induction can be wrong.
 *
 * The steps' files: answer-aware.ts (with time-asked-boost.ts), episode-of.ts
 * and episode-support.ts, successor-lift.ts, state-answers.ts,
 * context-valid.ts (over context-match.ts), anchor-behind.ts, answers-before-questions.ts,
 * spread-over-episodes.ts, states-first.ts, same-key-order.ts, newest-rival-first.ts, moved-time-first.ts, content-best-kept.ts, validity-order.ts (with
 * valid-span.ts); speaks-for-a-service.ts is shared by two of them.
 */
export function reinstate(
  contentRanking: readonly ContentCandidate[],
  frame: RecallFrame | null,
  unitOf: (unitId: string) => MemoryUnit | undefined,
  options: ReinstateOptions,
): ReinstatedCandidate[] {
  checkArgs("reinstate", { contentRanking: [contentRanking, "array"], unitOf: [unitOf, "function"] });
  checkFields("reinstate", "options", options, "object", { k: "number", query: "string", contextRanking: "boolean", sessionContext: "boolean", validAt: "string?", signals: "object?" });
  // Ablation no-context-ranking: the content order, cut to K.
  if (!options.contextRanking) return contentRanking.slice(0, options.k).map((c) => ({ ...c, contextReasons: [] }));
  const signals = { ...DEFAULT_SIGNALS, ...options.signals };
  /** Why each candidate is where it is, filled by every step. */
  const reasonsOf = new Map<string, string[]>();

  // 1. Dialogue and answer: a question lends its score to its answer; "when" favours units that say when.
  const candidates = answerAware(contentRanking, frame, unitOf, options, signals, reasonsOf);

  // 2. Episode support: recalling a memory reinstates its episode, which cues the episode's other memories.
  const episodeOf = episodeOfCandidate(unitOf, options.sessionContext, signals.segmentedSupport);
  const supported = addEpisodeSupport(candidates, frame, unitOf, options.query, episodeOf, signals, reasonsOf);

  // 3. The current state asked: what superseded a statement answers the same question, newer
  //    (not necessarily valid at a caller's validAt: no lift then).
  if (frame?.currentState && !options.validAt && signals.successorLift > 0 && options.validityOf) inheritFromSuperseded(supported, unitOf, options.validityOf, signals.successorLift, reasonsOf);

  // 4. A question about a state: the statements of that slot valid at the asked time (placed in step 9).
  const answersFromStates = signals.stateLookup && options.validityOf ? stateAnswers(frame, options.stateUnits ?? [], options.validityOf, options.validAt, options.aliasOf) : [];

  // 5. The scored ranking, best first (ties by unit id, so the order never depends on the store's).
  supported.sort((a, b) => b.score - a.score || a.candidate.unitId.localeCompare(b.candidate.unitId));
  const ranking = supported.map((s) => s.candidate);
  const scoreOf = new Map(supported.map((s) => [s.candidate.unitId, s.score]));

  // 6. C_ctx first: the content-relevant candidates whose context satisfies the active frame, then the rest.
  const contextValid = contextValidUnits(ranking, frame, unitOf, options, signals, reasonsOf);
  let ordered = [...ranking.filter((c) => contextValid.has(c.unitId)), ...ranking.filter((c) => !contextValid.has(c.unitId))];

  // 6b. "Before/after <an event>": the event's own memory is the reference point, not the answer.
  if (signals.anchorBehind) ordered = anchorBehindNextValid(ordered, frame, contextValid, reasonsOf);

  // 7. One occurrence asked about: the frame chose the episode, so its answer tells more than the question about it.
  if (signals.occurrenceAnswerFirst && isReliable(frame?.occurrence ?? null) && frame!.occurrence!.episodeId !== null && options.nextUnitOf)
    ordered = answersBeforeQuestions(ordered, contextValid, unitOf, options.nextUnitOf, signals.roleAwareDialogue, reasonsOf);

  // 8. An aggregating query: spread the list over episodes as it will be read, C_ctx still ahead of the rest.
  if (frame?.aggregates && signals.episodeSpread > 0) ordered = spreadOverEpisodes(ordered, (c) => contextValid.has(c.unitId), scoreOf, episodeOf, signals.episodeSpread, reasonsOf);

  // 9. The statements of the asked state, valid at the asked time, answer it: first, newest first.
  ordered = statesFirst(ordered, answersFromStates, supported, frame, reasonsOf);

  // 9b. An open-world state asked (no named slot): of the candidates stating the thing the query names, the value valid at the asked time goes first (after 9's).
  if (signals.stateLookup) ordered = sameKeyNewestFirst(ordered, frame, unitOf, options, answersFromStates.length, reasonsOf);

  // 9c. The present asked and no named slot's state answers: of the memories that match the question alike, the newest
  // goes first — ahead of 9b's newest value too, which is only the newest a rule read ("a year into the Kobo now" is none).
  if (answersFromStates.length === 0 && !options.validAt) ordered = newestRivalFirst(ordered, frame, unitOf, contextValid, signals.rivalDepth, reasonsOf);

  // 9d. A time still set asked ("When is my appointment?"): the latest memory telling it moved goes before the time first said.
  if (signals.movedTimeFirst) ordered = movedTimeFirst(ordered, frame, unitOf, reasonsOf);

  // 9e. Frame and episode can be wrong together: the content ranking's two best keep the last places of the first ten.
  if (signals.contentBestKept) ordered = keepContentBest(ordered, contentRanking, frame, reasonsOf);

  // 10. History, not the answer: a statement not valid at the asked time follows what superseded it, or goes last.
  ordered = staleBehindSuccessors(ordered, frame, options, signals.successorLift, reasonsOf);

  // 11. Cut to K; each keeps its reasons, and C_ctx members say so.
  return ordered.slice(0, options.k).map((c) => ({ ...c, contextReasons: reasonsOf.get(c.unitId)!, ...(contextValid.has(c.unitId) ? { contextValid: true } : {}) }));
}
