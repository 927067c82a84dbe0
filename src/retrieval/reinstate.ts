import type { MemoryUnit } from "../model/memory-unit.js";
import { isReliable, type RecallFrame } from "../model/recall-frame.js";
import type { ContentCandidate } from "./content-recall.js";
import { asksQuestion } from "./asks-question.js";
import { matchContext } from "./context-match.js";
import { stemmedTerms } from "../language/stemmed-terms.js";
import { spokenText } from "../model/spoken-text.js";
import type { Validity } from "../anchoring/derive-validity.js";

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
  /** The units of the namespace that state a state — at least every one stating the frame's stateSlot: a question about a state is answered from them (unitOf must know them). */
  stateUnits?: readonly MemoryUnit[];
  /** The caller asks for the state at this instant (ISO; needs validityOf): statements not valid then go last. */
  validAt?: string;
  /** Default DEFAULT_SIGNALS. */
  signals?: Partial<ReinstateSignals>;
}

/**
 * How many of an episode's best strong candidates make its score. Measured on
 * LoCoMo (README › RaMem targets): 2 to 5 stay within 0.01 Recall@10 of 3;
 * the mean (not the sum) keeps the episode score on the content score's scale.
 */
export const EPISODE_SUPPORT = 3;

/**
 * Only candidates whose BM25 score is at least this share of the best
 * lexical match lend support. Measured on both data sets (README › RaMem on
 * LoCoMo and LongMemEval): 0.5, the LoCoMo-era value, cost the LongMemEval dev
 * split 0.08 turn recall_all@5; 0 is best on both (LoCoMo Recall@10 +0.003).
 * Since only people's turns lend support and C_ctx stops at CONTEXT_DEPTH, a
 * session of weak co-hits no longer needs the floor to be kept down.
 */
export const SUPPORT_FLOOR = 0;

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
 * A turn that asks a question matches a query's words but rarely holds the
 * fact (README › RaMem targets: 14 % of LoCoMo's question turns are evidence,
 * 28 % of the others), so it loses this much; its answer, the turn that
 * follows, gets at least ANSWER_LIFT times the question's score. Measured on
 * LoCoMo: penalty 0.01–0.03 and lift 0.6–0.9 all land within 0.002 Recall@10.
 */
export const QUESTION_PENALTY = 0.02;
export const ANSWER_LIFT = 0.8;

/**
 * What a unit that carries a time (event time or a mentioned time) gains when
 * the query asks when: the answer to "When did…" is a unit that says when.
 * Measured on LoCoMo: 0.03–0.08 all help temporal questions; 0.05 most.
 */
export const TIME_ANSWER_BONUS = 0.05;

/**
 * When the query gathers evidence from several episodes ("how many", "in
 * total", "which … first"): what each unit already taken from an episode costs
 * the next unit from it, so the budget reaches the other episodes' strong
 * hits. Measured: 0.01–0.03 all help LongMemEval turn recall (0.02 most) and
 * leave LoCoMo within 0.001.
 */
export const EPISODE_SPREAD = 0.02;

/**
 * C_ctx is drawn from the content-relevant candidates: the first this-many of
 * the scored ranking. Deeper, a weak match in a valid context (any user turn
 * that day) passes strong hits of the episode asked about; shallower, valid
 * evidence found a little lower is lost. Measured on both data sets: 15–30
 * within 0.003 LoCoMo Recall@10; 20 best on LongMemEval.
 */
export const CONTEXT_DEPTH = 20;

/**
 * When the query asks for the state that holds now, the statement that
 * superseded a candidate ("I moved to Porto" for "I live in Lisbon") gets at
 * least this share of the candidate's score: it answers the same question,
 * newer. The superseded candidate itself follows it (or goes last): it
 * never ranks above the statement that replaced it. Measured on the
 * LongMemEval dev split, whose knowledge-update gold holds the old value
 * beside the new: behind every valid memory instead, the older evidence fell
 * out of the top K (turn recall_all@10 0.800 vs 0.810 with this;
 * knowledge-update turn recall_all@5 0.733 vs 0.800).
 */
export const SUCCESSOR_LIFT = 1;

/**
 * Every weight of the algorithm below, in one place, so that each signal can
 * be switched off on its own (0 or false) — the bench's per-signal ablations
 * are settings of this, never copies of the algorithm.
 */
export interface ReinstateSignals {
  questionPenalty: number;
  answerLift: number;
  timeAnswerBonus: number;
  /** How many strong candidates make an episode's score; 0 turns episode support off. */
  episodeSupport: number;
  supportFloor: number;
  coverageWeight: number;
  /** Context-valid candidates (C_ctx) before the rest; false keeps the scored order. */
  contextFirst: boolean;
  /** The answer-aware step reads the speakers' roles: a user's question to an assistant keeps its score, an assistant's reply inherits none. */
  roleAwareDialogue: boolean;
  /** When the query aggregates: what each unit already taken from an episode costs the next one from it; 0 = off. */
  episodeSpread: number;
  /** A unit's event or mentioned time meets a bounded window only when it is no coarser than the window. */
  fineTimesOnly: boolean;
  /** Only turns of people (no assistant, system or tool turns) lend their episode support and coverage. */
  personsLendSupport: boolean;
  /** How deep in the scored ranking a candidate may sit and still join C_ctx (0 = the whole pool). */
  contextDepth: number;
  /** A current-state query: a superseded statement follows what superseded it (or goes last), which inherits this share of its score (0 = off). */
  successorLift: number;
  /** A past time also matches a state valid then (its validity interval), not only when it was said. */
  validityTimes: boolean;
  /** A question about a state (frame.stateSlot) puts the statements of that slot valid at the asked time first. */
  stateLookup: boolean;
  /** Place, topic and people conditions are met by the unit's episode (topic segment) too. */
  episodeContext: boolean;
  /** Episode support, coverage and the spread read the unit's topic segment instead of its whole session. */
  segmentedSupport: boolean;
  /** In the occurrence the frame picked, a question about it follows its own answer. */
  occurrenceAnswerFirst: boolean;
  /** A person the unit names only to address them ("Nadia, I've moved!") does not make it about that person. */
  addresseesNotSubjects: boolean;
}

export const DEFAULT_SIGNALS: ReinstateSignals = {
  questionPenalty: QUESTION_PENALTY,
  answerLift: ANSWER_LIFT,
  timeAnswerBonus: TIME_ANSWER_BONUS,
  episodeSupport: EPISODE_SUPPORT,
  supportFloor: SUPPORT_FLOOR,
  coverageWeight: COVERAGE_WEIGHT,
  contextFirst: true,
  roleAwareDialogue: true,
  episodeSpread: EPISODE_SPREAD,
  fineTimesOnly: true,
  personsLendSupport: true,
  contextDepth: CONTEXT_DEPTH,
  successorLift: SUCCESSOR_LIFT,
  validityTimes: true,
  stateLookup: true,
  episodeContext: true,
  segmentedSupport: false,
  occurrenceAnswerFirst: true,
  addresseesNotSubjects: true,
};

/**
 * Stage 3, selective reinstatement — the whole algorithm:
 *
 *   dialogue and answer  → a candidate that asks a question loses
 *                          QUESTION_PENALTY and lends its answer (the next
 *                          unit of its session) ANSWER_LIFT of its score —
 *                          between people only: a user asking an assistant
 *                          states the facts in the question, and an
 *                          assistant's reply is generic; when the query asks
 *                          when, units that carry a time gain TIME_ANSWER_BONUS;
 *   episode support      → each candidate's content score plus the score of
 *                          its episode (session): the mean of the
 *                          EPISODE_SUPPORT best content scores among the
 *                          episode's candidates that match the query's words
 *                          (SUPPORT_FLOOR), plus COVERAGE_WEIGHT times the
 *                          share of the query's words (minus the people the
 *                          frame names) that its candidates hold between them.
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
 *   aggregating query    → the list is spread over episodes (EPISODE_SPREAD),
 *                          C_ctx still first;
 *   one occurrence       → inside the occurrence the frame picked, a question
 *                          about it follows its answer (the frame already
 *                          chose the episode; the question only repeats the
 *                          event's words).
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
  const signals = { ...DEFAULT_SIGNALS, ...options.signals };
  const reasonsOf = new Map<string, string[]>();
  const candidates = answerAware(contentRanking, frame, unitOf, options, signals, reasonsOf);

  // Episode score: the mean of the episode's EPISODE_SUPPORT best strong lexical
  // hits, plus COVERAGE_WEIGHT times the share of the need's words its candidates hold.
  const episodeOf = (c: ContentCandidate) => {
    const context = options.sessionContext ? unitOf(c.unitId)?.context : undefined;
    return signals.segmentedSupport ? (context?.episode?.id ?? context?.session.sessionId) : context?.session.sessionId;
  };
  const bestLexical = Math.max(0, ...candidates.map((c) => c.lexical?.score ?? 0));
  const lendsSupport = (c: ContentCandidate) => bestLexical > 0 && (c.lexical?.score ?? 0) >= signals.supportFloor * bestLexical;
  const need = needTerms(options.query, frame);
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
  const episodeScore = (episode: string) =>
    (signals.episodeSupport > 0 ? (strongScores.get(episode) ?? []).slice(0, signals.episodeSupport).reduce((sum, s) => sum + s, 0) / signals.episodeSupport : 0) +
    (need.size > 0 ? (signals.coverageWeight * covered.get(episode)!.size) / need.size : 0);
  const supported = candidates.map((c) => {
    const episode = episodeOf(c);
    const support = episode === undefined ? 0 : episodeScore(episode);
    if (support > 0) reasonsOf.get(c.unitId)!.push(`episode ${episode} +${support.toFixed(3)}`);
    return { candidate: c, score: c.score + support };
  });
  // What superseded a statement is newer, not necessarily valid at a caller's validAt: no lift then.
  if (frame?.currentState && !options.validAt && signals.successorLift > 0 && options.validityOf) inheritFromSuperseded(supported, unitOf, options.validityOf, signals.successorLift, reasonsOf);
  const answersFromStates = signals.stateLookup && options.validityOf ? stateAnswers(frame, options.stateUnits ?? [], options.validityOf, options.validAt) : [];
  supported.sort((a, b) => b.score - a.score || a.candidate.unitId.localeCompare(b.candidate.unitId));
  const ranking = supported.map((s) => s.candidate);
  const scoreOf = new Map(supported.map((s) => [s.candidate.unitId, s.score]));

  const contextValid = new Set<string>();
  if (frame?.active && signals.contextFirst) {
    for (const [place, c] of ranking.entries()) {
      // C_ctx holds the content-relevant candidates only: a weak match in a valid context does not pass a strong one.
      if (signals.contextDepth > 0 && place >= signals.contextDepth) break;
      const unit = unitOf(c.unitId);
      if (!unit) continue;
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
      }
    }
  }
  let ordered = [...ranking.filter((c) => contextValid.has(c.unitId)), ...ranking.filter((c) => !contextValid.has(c.unitId))];
  // The frame already said which occurrence: the other speaker's question about it
  // ("How was Jeju with your mum?") only repeats the event's words; the answer tells it.
  if (signals.occurrenceAnswerFirst && isReliable(frame?.occurrence ?? null) && frame!.occurrence!.episodeId !== null && options.nextUnitOf)
    ordered = answersBeforeQuestions(ordered, contextValid, unitOf, options.nextUnitOf, signals.roleAwareDialogue, reasonsOf);
  // Spread the list as it will be read: C_ctx stays ahead of the rest.
  if (frame?.aggregates && signals.episodeSpread > 0) ordered = spreadOverEpisodes(ordered, (c) => contextValid.has(c.unitId), scoreOf, episodeOf, signals.episodeSpread, reasonsOf);
  // The statements of the asked state, valid at the asked time, answer a question about it: first, newest first.
  if (answersFromStates.length > 0) {
    const scoreOfState = new Map(supported.map((x) => [x.candidate.unitId, x]));
    const first = answersFromStates.map((u) => scoreOfState.get(u.id)?.candidate ?? { unitId: u.id, score: 0 });
    for (const c of first) {
      if (!reasonsOf.has(c.unitId)) reasonsOf.set(c.unitId, []);
      reasonsOf.get(c.unitId)!.unshift(`states the ${frame!.stateSlot!.slots[0]} ${frame!.currentState ? "valid now" : "valid then"}`);
    }
    const ids = new Set(first.map((c) => c.unitId));
    ordered = [...first, ...ordered.filter((c) => !ids.has(c.unitId))];
  }
  // History, not the answer: a statement not valid at the asked time — superseded, for a
  // current-state query; outside its validity interval, for validAt — never ranks above what
  // superseded it: it follows it (the change read together, "Porto, since …; Lisbon, before"),
  // or goes last when that is not in the list. Never dropped.
  const asksNow = Boolean(frame?.currentState) && signals.successorLift > 0;
  if (options.validityOf && (options.validAt || asksNow)) {
    const at = options.validAt ? Date.parse(options.validAt) : null;
    const notValid = (v: Validity) => {
      if (at === null) return v.supersededBy !== null;
      const { from, to } = validSpan(v);
      return !(from <= at && at < to);
    };
    const stale = (c: ContentCandidate) => {
      const v = options.validityOf!(c.unitId);
      return v !== undefined && notValid(v);
    };
    for (const c of ordered.filter(stale)) {
      const v = options.validityOf(c.unitId)!;
      const why =
        at !== null && Date.parse(v.validFrom) > at
          ? `not yet valid on ${options.validAt!.slice(0, 10)} (stated ${v.validFrom.slice(0, 10)})`
          : `superseded${v.validTo ? ` on ${v.validTo.slice(0, 10)}` : ""} by ${v.supersededBy}${v.origin === "user" ? " (a user's correction)" : ""}`;
      reasonsOf.get(c.unitId)!.push(why);
    }
    const fresh = ordered.filter((c) => !stale(c));
    const freshIds = new Set(fresh.map((c) => c.unitId));
    const behind = new Map<string, ContentCandidate[]>();
    const last: ContentCandidate[] = [];
    for (const c of ordered.filter(stale)) {
      // Along a chain (Lisbon → Porto → Braga) the first successor still in the list.
      let successor = options.validityOf(c.unitId)?.supersededBy ?? null;
      for (let step = 0; successor !== null && !freshIds.has(successor) && step < 4; step++) successor = options.validityOf(successor)?.supersededBy ?? null;
      if (successor !== null && freshIds.has(successor)) behind.set(successor, [...(behind.get(successor) ?? []), c]);
      else last.push(c);
    }
    ordered = [...fresh.flatMap((c) => [c, ...(behind.get(c.unitId) ?? [])]), ...last];
  }
  return ordered.slice(0, options.k).map((c) => ({ ...c, contextReasons: reasonsOf.get(c.unitId)!, ...(contextValid.has(c.unitId) ? { contextValid: true } : {}) }));
}

/**
 * The dialogue and answer-kind step: adjusted copies of the candidates (plus
 * answers that were not in the pool), best first. Reasons go into `reasonsOf`.
 */
function answerAware(
  contentRanking: readonly ContentCandidate[],
  frame: RecallFrame | null,
  unitOf: (unitId: string) => MemoryUnit | undefined,
  options: ReinstateOptions,
  signals: ReinstateSignals,
  reasonsOf: Map<string, string[]>,
): ContentCandidate[] {
  const byId = new Map(contentRanking.map((c) => [c.unitId, { ...c }]));
  const reasons = (id: string) => reasonsOf.get(id) ?? (reasonsOf.set(id, []), reasonsOf.get(id)!);
  if (options.sessionContext && options.nextUnitOf) {
    for (const [rank, c] of contentRanking.entries()) {
      const unit = unitOf(c.unitId);
      if (!unit || !asksQuestion(unit)) continue;
      // A user asking an assistant is asking for help, and the question itself
      // carries the user's facts ("I've had my Fitbit for nine months, can
      // you…?"); only a question put to a person is answered with the fact.
      if (signals.roleAwareDialogue && unit.context.role === "user") continue;
      if (signals.questionPenalty > 0) {
        byId.get(c.unitId)!.score -= signals.questionPenalty;
        reasons(c.unitId).push(`asks a question −${signals.questionPenalty}`);
      }
      const next = options.nextUnitOf(c.unitId);
      if (signals.answerLift <= 0 || next === undefined || !unitOf(next)) continue;
      // An assistant's reply is long and generic: it inherits nothing.
      if (signals.roleAwareDialogue && speaksForAService(unitOf(next)!)) continue;
      const answer = byId.get(next) ?? { unitId: next, score: 0 };
      if (signals.answerLift * c.score > answer.score) {
        answer.score = signals.answerLift * c.score;
        reasons(next).push(`answers ${unit.provenance.turnIds.join(",")} (content #${rank + 1})`);
      }
      byId.set(next, answer);
    }
  }
  if (frame?.asksFor === "time" && signals.timeAnswerBonus > 0) {
    for (const c of byId.values()) {
      const context = unitOf(c.unitId)?.context;
      if (!context?.eventTime && !context?.mentionedTimes.length) continue;
      c.score += signals.timeAnswerBonus;
      reasons(c.unitId).push("carries a time, as the query asks when");
    }
  }
  for (const c of byId.values()) reasons(c.unitId);
  return [...byId.values()].sort((a, b) => b.score - a.score || a.unitId.localeCompare(b.unitId));
}

/** Each context-valid question is moved behind its answer when the answer is context-valid too. */
function answersBeforeQuestions(
  ordered: readonly ContentCandidate[],
  contextValid: ReadonlySet<string>,
  unitOf: (unitId: string) => MemoryUnit | undefined,
  nextUnitOf: (unitId: string) => string | undefined,
  roleAware: boolean,
  reasonsOf: Map<string, string[]>,
): ContentCandidate[] {
  const out = [...ordered];
  for (const question of ordered) {
    const unit = unitOf(question.unitId);
    if (!contextValid.has(question.unitId) || !unit || !asksQuestion(unit)) continue;
    // A user asking an assistant states their own facts in the question (as in answerAware).
    if (roleAware && unit.context.role === "user") continue;
    const answer = nextUnitOf(question.unitId);
    const at = out.indexOf(question);
    const answerAt = out.findIndex((c) => c.unitId === answer);
    if (answer === undefined || !contextValid.has(answer) || answerAt < at) continue;
    out.splice(at, 1);
    out.splice(answerAt, 0, question);
    reasonsOf.get(question.unitId)!.push(`follows its answer ${answer} in the occurrence`);
  }
  return out;
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

/** Assistant, system and tool turns speak for a service, not a person. */
function speaksForAService(unit: MemoryUnit): boolean {
  const role = unit.context.role;
  return role === "assistant" || role === "system" || role === "tool";
}

/**
 * Greedy: the next unit is the best score minus `spread` for every unit
 * already taken from its episode, so an aggregating query's budget reaches
 * the other episodes that hold a strong hit. Context-valid units are placed
 * before the rest, as without the spread; the count of units taken carries over.
 */
function spreadOverEpisodes(
  ordered: readonly ContentCandidate[],
  valid: (c: ContentCandidate) => boolean,
  scoreOf: Map<string, number>,
  episodeOf: (c: ContentCandidate) => string | undefined,
  spread: number,
  reasonsOf: Map<string, string[]>,
): ContentCandidate[] {
  const taken = new Map<string, number>();
  const out: ContentCandidate[] = [];
  for (const part of [ordered.filter(valid), ordered.filter((c) => !valid(c))]) {
    const left = [...part];
    while (left.length > 0) {
      let best = 0;
      let bestScore = Number.NEGATIVE_INFINITY;
      for (const [i, c] of left.entries()) {
        const score = (scoreOf.get(c.unitId) ?? c.score) - spread * (taken.get(episodeOf(c) ?? "") ?? 0);
        if (score > bestScore) [best, bestScore] = [i, score];
      }
      const [next] = left.splice(best, 1);
      const episode = episodeOf(next!);
      const already = episode === undefined ? 0 : (taken.get(episode) ?? 0);
      if (already > 0) reasonsOf.get(next!.unitId)!.push(`spread: ${already} from its episode already −${(spread * already).toFixed(3)}`);
      if (episode !== undefined) taken.set(episode, already + 1);
      out.push(next!);
    }
  }
  return out;
}

/**
 * The statement that superseded a candidate answers the same question, newer:
 * it gets at least `lift` times the candidate's final score (episode support
 * included), joining the candidates if it was not among them; along a chain
 * (Lisbon → Porto → Braga) the newest inherits too.
 */
function inheritFromSuperseded(
  supported: Array<{ candidate: ContentCandidate; score: number }>,
  unitOf: (unitId: string) => MemoryUnit | undefined,
  validityOf: (unitId: string) => Validity | undefined,
  lift: number,
  reasonsOf: Map<string, string[]>,
): void {
  const byId = new Map(supported.map((s) => [s.candidate.unitId, s]));
  for (let step = 0; step < 4; step++) {
    for (const s of [...byId.values()]) {
      const next = validityOf(s.candidate.unitId)?.supersededBy;
      if (!next || !unitOf(next)) continue;
      let successor = byId.get(next);
      if (!successor) {
        successor = { candidate: { unitId: next, score: 0 }, score: 0 };
        byId.set(next, successor);
        supported.push(successor);
        reasonsOf.set(next, reasonsOf.get(next) ?? []);
      }
      if (lift * s.score > successor.score) {
        successor.score = lift * s.score;
        const why = `supersedes ${s.candidate.unitId}`;
        if (!reasonsOf.get(next)!.includes(why)) reasonsOf.get(next)!.push(why);
      }
    }
  }
}

/**
 * The units that state the slot a question asks about (frame.stateSlot), of
 * the person it names (any speaker when it names none), valid at the asked
 * time — now (not superseded) for a current-state question, overlapping the
 * window for a past one — newest first.
 */
function stateAnswers(
  frame: RecallFrame | null,
  stateUnits: readonly MemoryUnit[],
  validityOf: (unitId: string) => Validity | undefined,
  validAt?: string,
): MemoryUnit[] {
  const slot = frame?.stateSlot;
  if (!frame || !slot) return [];
  const people = isReliable(frame.participants) ? frame.participants.names.map((n) => n.toLowerCase()) : [];
  // The query's own past time wins; else the caller's validAt, as a one-instant window; else now.
  const atInstant = validAt ? { relation: "during" as const, window: { start: validAt, end: new Date(Date.parse(validAt) + 1).toISOString() } } : null;
  const window = isReliable(frame.time) && !frame.currentState ? frame.time : atInstant;
  if (!frame.currentState && !window) return [];
  // Read once per recall, not per statement: a slot can have thousands of statements at 100k units.
  const firstNames = people.map((p) => p.split(/\s+/)[0]);
  // A slot's statements share a handful of subjects: each is judged once.
  const judged = new Map<string, boolean>();
  const about = (subject: string) => {
    if (people.length === 0) return true;
    let found = judged.get(subject);
    if (found === undefined) {
      const name = subject.toLowerCase();
      const first = name.split(/\s+/)[0];
      found = people.some((p, i) => p === name || firstNames[i] === first);
      judged.set(subject, found);
    }
    return found;
  };
  const start = window ? Date.parse(window.window.start) : 0;
  const end = window ? Date.parse(window.window.end) : 0;
  const validAtAskedTime = (v: Validity) => {
    if (!window) return v.supersededBy === null;
    const { from, to } = validSpan(v);
    switch (window.relation) {
      case "before":
        return from < start;
      case "after":
        return to > end;
      default:
        return from < end && start < to;
    }
  };
  return stateUnits
    .filter((u) => (u.context.states ?? []).some((s) => !s.ends && slot.slots.includes(s.slot) && about(s.subject)))
    .filter((u) => {
      const v = validityOf(u.id);
      return v !== undefined && validAtAskedTime(v);
    })
    .sort((a, b) => b.context.session.start.localeCompare(a.context.session.start));
}

// Validities live as long as the namespace's snapshot, and a state question reads thousands of them.
// The same objects travel out with the hits (unit.validity), so a caller may change one: its span is then parsed again.
const spans = new WeakMap<Validity, { from: number; to: number; validFrom: string; validTo: string | null }>();

/** When a statement held, in ms: validTo null means it still does. Parsed once per validity (re-parsed if it was edited). */
function validSpan(v: Validity): { from: number; to: number } {
  const known = spans.get(v);
  if (known && known.validFrom === v.validFrom && known.validTo === v.validTo) return known;
  const span = { from: Date.parse(v.validFrom), to: v.validTo ? Date.parse(v.validTo) : Number.POSITIVE_INFINITY, validFrom: v.validFrom, validTo: v.validTo };
  spans.set(v, span);
  return span;
}
