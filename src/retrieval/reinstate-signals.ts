/**
 * The weights of stage 3 (retrieval/reinstate.ts) and their measured defaults,
 * in one place: each signal can be switched off on its own, and the bench's
 * per-signal ablations are settings of `ReinstateSignals`.
 */

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
 * the query asks when: the answer to "When did…" is a unit that says when,
 * and so are the answers to "Which happened first, A or B?".
 * Measured on LoCoMo: 0.03–0.08 all help temporal questions; 0.05 most.
 */
export const TIME_ANSWER_BONUS = 0.05;

/**
 * What a unit that names a place (its anchored location, or a capitalised
 * name after "in", "at", "to", "from", "visited" …) gains when the query asks
 * where: the answer to "Where did I go on…" is the turn that names the place
 * ("Back from Elba!"), not the one that repeats the question's words. The
 * same size as the time bonus; measured on both data sets and every states
 * part in one run each (docs/experiments.md › A question that asks where).
 */
export const PLACE_ANSWER_BONUS = 0.05;

/**
 * What a unit that states a number (digits, an amount, "twelve", "twice")
 * gains when the query asks how much or how many: the answer is a quantity.
 * Half the time bonus: numbers are everywhere in an assistant's replies
 * (times, steps, prices), and the full size cost a knowledge-update ordering
 * more often (docs/experiments.md › How much, how many).
 */
export const QUANTITY_ANSWER_BONUS = 0.025;

/**
 * When the query gathers evidence from several episodes ("how many", "in
 * total", "which … first"): what each unit already taken from an episode costs
 * the next unit from it, so the budget reaches the other episodes' strong
 * hits. Measured: 0.01–0.03 all help LongMemEval turn recall (0.02 most) and
 * leave LoCoMo within 0.001.
 */
export const EPISODE_SPREAD = 0.02;

/**
 * In a chat with an assistant (the candidates' turns carry roles), the share
 * of COVERAGE_WEIGHT an episode's coverage adds. There a user states a
 * request's facts in one turn, which the content score has counted already,
 * and the assistant's replies lend no coverage (personsLendSupport); between
 * people the cues of a question are spread over several short turns, which
 * coverage is for. Measured on both data sets (docs/experiments.md ›
 * Coverage in a chat with an assistant): 0.5 lifts the LongMemEval dev
 * split's turn recall_all@5 / all@10 0.730 / 0.810 → 0.750 / 0.830 (four
 * questions gain, none loses); LoCoMo and the states set hold no roles and
 * do not move. 0: 0.750 / 0.820, and session recall_all@5 0.930 → 0.910.
 */
export const ASSISTANT_CHAT_COVERAGE = 0.5;

/**
 * When the query gathers evidence from several episodes, the share of an
 * episode's best-hit support it keeps (its coverage of the query's words
 * stays whole): the episode the query hits hardest lifting its own turns
 * is what a question about one episode needs, and what keeps a count from
 * reaching the other episodes. Measured on both data sets in one run each
 * (docs/experiments.md › Aggregating questions): 0.5 lifts LongMemEval's
 * multi-session turn recall_all@10 0.423 → 0.462 and session recall_all@5
 * 0.920 → 0.930, LoCoMo R@10 0.7898 → 0.7903 and D@1 0.420 → 0.418; 0
 * lifts LongMemEval more and costs LoCoMo R@10 (0.7892).
 */
export const AGGREGATE_SUPPORT_SHARE = 0.5;

/**
 * C_ctx is drawn from the content-relevant candidates: the first this-many of
 * the scored ranking. Deeper, a weak match in a valid context (any user turn
 * that day) passes strong hits of the episode asked about; shallower, valid
 * evidence found a little lower is lost. Measured on both data sets: 15–30
 * within 0.003 LoCoMo Recall@10; 20 best on LongMemEval. Below it, the
 * session of a candidate that met the frame above it is reinstated
 * (validEpisodeBeyondDepth): its deeper candidates that meet the frame join
 * C_ctx too, as no weak match of another episode does.
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
 * A question that says "now" and that no state rule answered: how deep both
 * channels must rank a candidate for it to be a rival, the newest of which goes
 * first (newest-rival-first.ts). On the states probes' tuned file 5 and 10
 * gave the same (current valid@1 0.500 → 0.875); 20 cost an ordinal question
 * of the states set (docs/experiments.md › The newest of the memories that
 * match alike).
 */
export const RIVAL_DEPTH = 10;

/**
 * A question that counts a category ("how many citrus fruits…"): the weight,
 * beside the lexical channel's 1, of one more lexical search for the
 * category's kinds (WordNet: lime, lemon, …; content-recall.ts). Measured on
 * the LongMemEval dev split (docs/experiments.md › The kinds of what a
 * question counts): 0.5 and 1 both lift session recall_all@5; 1 lifts more.
 */
export const COUNTED_KINDS = 1;

/**
 * Every weight of the algorithm (reinstate.ts), in one place, so that each signal can
 * be switched off on its own (0 or false) — the bench's per-signal ablations
 * are settings of this, never copies of the algorithm.
 */
export interface ReinstateSignals {
  questionPenalty: number;
  answerLift: number;
  timeAnswerBonus: number;
  /** When the query asks where: what a unit that names a place gains (0 = off). */
  placeAnswerBonus: number;
  /** When the query asks how much or how many: what a unit that states a number gains (0 = off). */
  quantityAnswerBonus: number;
  /** How many strong candidates make an episode's score; 0 turns episode support off. */
  episodeSupport: number;
  supportFloor: number;
  coverageWeight: number;
  /** In a chat with an assistant (candidates with roles): the share of coverageWeight that applies (1 = all, as between people). */
  assistantChatCoverage: number;
  /** Context-valid candidates (C_ctx) before the rest; false keeps the scored order. */
  contextFirst: boolean;
  /** The answer-aware step reads the speakers' roles: a user's question to an assistant keeps its score, an assistant's reply inherits none. */
  roleAwareDialogue: boolean;
  /** When the query aggregates: what each unit already taken from an episode costs the next one from it; 0 = off. */
  episodeSpread: number;
  /** When the query aggregates: the share of an episode's best-hit support it keeps (1 = all, as for any other query). */
  aggregateSupportShare: number;
  /** A unit's event or mentioned time meets a bounded window only when it is no coarser than the window. */
  fineTimesOnly: boolean;
  /** Only turns of people (no assistant, system or tool turns) lend their episode support and coverage. */
  personsLendSupport: boolean;
  /** How deep in the scored ranking a candidate may sit and still join C_ctx (0 = the whole pool). */
  contextDepth: number;
  /** Below contextDepth, a candidate still joins C_ctx when its session holds one that met the frame above it (the episode reinstated). */
  validEpisodeBeyondDepth: boolean;
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
  /** A current-state query no state rule answered: how deep both channels must rank a candidate for it to be a rival, the newest of which goes first (0 = off). */
  rivalDepth: number;
  /** A question counting a category: the weight of the lexical search for the category's kinds (0 = off). */
  countedKinds: number;
  /** "Before/after <an event>": the memory of that event goes behind the next context-valid candidate (anchor-behind.ts). */
  anchorBehind: boolean;
  /** "When is …?" (a time still set): the latest memory telling that the time moved takes the place of the time first said (moved-time-first.ts). */
  movedTimeFirst: boolean;
  /** The content ranking's two best keep the last places of the first ten, whatever the frame and the episodes did (content-best-kept.ts). */
  contentBestKept: boolean;
}

export const DEFAULT_SIGNALS: ReinstateSignals = {
  questionPenalty: QUESTION_PENALTY,
  answerLift: ANSWER_LIFT,
  timeAnswerBonus: TIME_ANSWER_BONUS,
  placeAnswerBonus: PLACE_ANSWER_BONUS,
  quantityAnswerBonus: QUANTITY_ANSWER_BONUS,
  episodeSupport: EPISODE_SUPPORT,
  supportFloor: SUPPORT_FLOOR,
  coverageWeight: COVERAGE_WEIGHT,
  assistantChatCoverage: ASSISTANT_CHAT_COVERAGE,
  contextFirst: true,
  roleAwareDialogue: true,
  episodeSpread: EPISODE_SPREAD,
  aggregateSupportShare: AGGREGATE_SUPPORT_SHARE,
  fineTimesOnly: true,
  personsLendSupport: true,
  contextDepth: CONTEXT_DEPTH,
  validEpisodeBeyondDepth: true,
  successorLift: SUCCESSOR_LIFT,
  validityTimes: true,
  stateLookup: true,
  episodeContext: true,
  segmentedSupport: false,
  occurrenceAnswerFirst: true,
  addresseesNotSubjects: true,
  rivalDepth: RIVAL_DEPTH,
  countedKinds: COUNTED_KINDS,
  anchorBehind: true,
  movedTimeFirst: true,
  contentBestKept: true,
};
