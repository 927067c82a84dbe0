import type { Embedder } from "../providers/embedder.js";
import type { MemoryStore } from "../store/contract.js";
import type { RecallHit } from "../model/recall.js";
import type { EpisodicContext, MemoryUnit } from "../model/memory-unit.js";
import { isReliable, withoutConditions, type FrameConditionName, type RecallFrame } from "../model/recall-frame.js";
import { induceFrame } from "../induction/induce-frame.js";
import { MENTION_DEPTH } from "../induction/ground-occurrence.js";
import { refineFrameWithLlm, type FrameRefinement } from "../induction/refine-frame-with-llm.js";
import type { LanguageModel } from "../providers/language-model.js";
import { contentRecall, type FusionWeights } from "./content-recall.js";
import { mayBeOutdated } from "./dependent-facts.js";
import { DEFAULT_SIGNALS, reinstate, type ReinstateSignals } from "./reinstate.js";
import { findAggregateCue } from "../induction/aggregate-cue.js";
import { countedNoun } from "../induction/counted-noun.js";
import { kindsOf } from "../language/kinds-of.js";
import { answersToQuestions } from "./answers-to-questions.js";
import { toHits } from "./to-hits.js";
import { findPlanReports } from "./find-plan-reports.js";
import { reportsOfPlans } from "./reports-of-plans.js";
import { unitsStatingSlots } from "./units-stating-slots.js";
import { eventStatement } from "./event-statement.js";
import { slotStatementsOf } from "./slot-statements.js";
import { namespaceSnapshot } from "./namespace-snapshot.js";
import { CONTENT_SCORE_WEIGHTS } from "./final-score.js";
import { queryKeyWords, judgeEvidence, type EvidenceJudgment } from "./judge-evidence.js";
import type { FilterNode } from "../model/memory-filter.js";
import { checkArgs, checkFields } from "../model/check-args.js";

/** Each ablation of the paper is one switch on this one pipeline, never a fork of it. */
export interface RecallSwitches {
  /** false: the content-only baseline (no frame is induced). */
  frame: boolean;
  /** false: no-context-ranking (frame induced and reported, order untouched). */
  contextRanking: boolean;
  /** false: no-session-context (only event and mentioned times match a time window). */
  sessionContext: boolean;
}

export const CONTENT_ONLY: RecallSwitches = { frame: false, contextRanking: false, sessionContext: true };
export const RAMEM: RecallSwitches = { frame: true, contextRanking: true, sessionContext: true };

export interface RecallRequest {
  namespace: string;
  query: string;
  k: number;
  /** Candidates per channel; deeper than k so that context-valid units further down can be reinstated. */
  pool?: number;
  switches?: RecallSwitches;
  fusion?: FusionWeights;
  queryVector?: Float32Array;
  /** When the question was asked (ISO); grounds "last year" in frame induction. */
  questionDate?: string;
  /** The instant whose state is asked for (ISO): statements valid then first. */
  validAt?: string;
  /**
   * Replaces a unit's episodic context as the pipeline sees it. The
   * context-shuffle ablation uses it to give units each other's contexts.
   */
  contextOverride?: (unit: MemoryUnit) => EpisodicContext;
  /** Optional: a model that may ground what the rules left ungrounded (one call per recall). */
  frameModel?: LanguageModel;
  /** Reinstatement weights; default DEFAULT_SIGNALS. The bench's per-signal ablations set one of them to 0. */
  signals?: Partial<ReinstateSignals>;
  /** Frame conditions dropped after induction (the bench's per-condition ablations). */
  ignoreConditions?: readonly FrameConditionName[];
  /** Only units this filter selects: searched so by the store, and so are the answers the answer lift fetches. */
  where?: FilterNode;
  /** Told how long each stage took once the recall is done (an operator's metrics read it); never told of a failed recall. */
  onStageTimes?: (times: RecallStageTimes) => void;
}

/**
 * Wall-clock milliseconds of one recall's stages, in the order they end:
 * content (both channels' search and the candidates' read), induction (the
 * frame, including what is left of the namespace reads started beside the
 * search), reinstatement (validity, ordering, scores, the evidence judgment).
 */
export interface RecallStageTimes {
  content: number;
  induction: number;
  reinstatement: number;
}

export interface RecallOutcome {
  hits: RecallHit[];
  frame: RecallFrame | null;
  /** Present when a frame model was asked: what it added, its tokens, and a warning when it failed. */
  frameRefinement?: Omit<FrameRefinement, "frame">;
  /** The hits in C_ctx (context-valid, ranked first), by unit id; the rest are C_content. Empty without an active frame. */
  contextValidIds?: string[];
  /** Whether the store likely holds evidence for the query at all (judge-evidence.ts). */
  holdsEvidence: EvidenceJudgment;
}

export const DEFAULT_POOL = 100;

/** Stage 2 then stage 3: induce the frame, rank by content, reinstate the context-valid units first. */
export async function runRecall(deps: { store: MemoryStore; embedder: Embedder }, request: RecallRequest): Promise<RecallOutcome> {
  checkArgs("runRecall", { deps: [deps, "object"] });
  checkFields("runRecall", "request", request, "object", {
    namespace: "string",
    query: "string",
    k: "number",
    pool: "number?",
    switches: "object?",
    fusion: "object?",
    questionDate: "string?",
    validAt: "string?",
    contextOverride: "function?",
    frameModel: "object?",
    signals: "object?",
    where: "object?",
    onStageTimes: "function?",
  });
  const switches = request.switches ?? RAMEM;
  const pool = Math.max(request.pool ?? DEFAULT_POOL, request.k);
  const started = performance.now();
  // What the frame reads of the namespace does not depend on the candidates: asked for beside the
  // searches, so that a server store answers them while it searches (two round trips off each recall).
  const namespaceReads = switches.frame ? beside(Promise.all([namespaceSnapshot(deps.store, request.namespace), deps.store.historyRange(request.namespace)])) : null;
  // A question counting a category searches its kinds too; what it counts is read off its words, so
  // the search runs beside the others (the frame's aggregates.counts is the same phrase).
  const countedKinds = request.signals?.countedKinds ?? DEFAULT_SIGNALS.countedKinds;
  const counted = switches.frame && countedKinds > 0 && findAggregateCue(request.query) ? countedNoun(request.query) : null;
  const kinds = counted ? kindsOf(counted) : null;
  const ranking = await contentRecall(deps, request.query, {
    namespace: request.namespace,
    pool,
    ...(counted && kinds ? { kinds: { of: counted, terms: kinds.kinds, weight: countedKinds } } : {}),
    ...(request.fusion ? { fusion: request.fusion } : {}),
    ...(request.queryVector ? { queryVector: request.queryVector } : {}),
    ...(request.where ? { where: request.where } : {}),
  });
  // Episode support, the frame and the evidence judgment read the context of every candidate in the pool.
  const ids = ranking.map((c) => c.unitId);
  const withContext = (u: MemoryUnit) => (request.contextOverride ? { ...u, context: request.contextOverride(u) } : u);
  const units = (await deps.store.getUnits(request.namespace, ids)).map(withContext);
  const contentDone = performance.now();
  // The roles the candidates' turns carry ground a role condition: none between people.
  const knownRoles = [...new Set(units.flatMap((u) => (u.context.role ? [u.context.role] : [])))];
  const [snapshot, history] = namespaceReads ? await namespaceReads : [null, null];
  // Plans' reports found once: the frame's occurrences and the hits' planOutcome ask of the same plans.
  const planReports = new Map<string, MemoryUnit | null>();
  const induced = snapshot ? await induceFor(deps, request, { history, knownRoles, knownPeople: snapshot.knownPeople, planReports }) : null;
  const frame = induced && request.ignoreConditions?.length ? withoutConditions(induced.frame, request.ignoreConditions) : (induced?.frame ?? null);
  const inductionDone = performance.now();
  const answers =
    switches.contextRanking && switches.sessionContext ? await answersToQuestions(deps.store, request.namespace, units, withContext, request.where) : new Map<string, MemoryUnit>();
  // Validity: which statements superseded which (only read when the frame asks for the current or a past state).
  const wantsValidity = switches.contextRanking && (request.validAt !== undefined || (frame !== null && (Boolean(frame.currentState) || isReliable(frame.time))));
  const states = wantsValidity ? await (snapshot ?? (await namespaceSnapshot(deps.store, request.namespace))).validity() : null;
  const poolUnits = [...units, ...answers.values()];
  const unitOf = new Map(poolUnits.map((u) => [u.id, u]));
  // Successors and the state index may sit outside the pool: they are looked up there (not copied: a
  // namespace may hold tens of thousands), unless a filter restricts what may be returned (they were not checked against it).
  const stateIndex = states && !request.where ? states.stateUnits : null;
  const lookUp = (id: string): MemoryUnit | undefined => {
    const found = unitOf.get(id);
    if (found || !stateIndex?.has(id)) return found;
    const unit = withContext(stateIndex.get(id)!);
    unitOf.set(id, unit);
    return unit;
  };
  const chosen = reinstate(ranking, frame, lookUp, {
    k: request.k,
    query: request.query,
    contextRanking: switches.contextRanking,
    sessionContext: switches.sessionContext,
    nextUnitOf: (id) => answers.get(id)?.id,
    ...(states ? { validityOf: (id: string) => states.validity.get(id), aliasOf: states.aliases } : {}),
    // A filter restricts what may be returned; the state index was not checked against it.
    // Read only by a question about a state's value: the statements of its slots, as stored (only ids and
    // states are read); every state, through the override, when contexts are overridden (an override may
    // give a unit another's states).
    ...(stateIndex && frame?.stateSlot
      ? { stateUnits: request.contextOverride ? [...stateIndex.values()].map((u) => lookUp(u.id)!) : slotStatementsOf(states!.validity, frame.stateSlot.slots, () => unitsStatingSlots(stateIndex, frame.stateSlot!.slots)) }
      : {}),
    ...(request.signals ? { signals: request.signals } : {}),
    ...(request.validAt ? { validAt: request.validAt } : {}),
  });
  // The query's key words: the scores read how many each hit holds, the evidence judgment how many the pool does.
  const keyWords = queryKeyWords(request.query, frame);
  const ranked = toHits(
    chosen,
    chosen.flatMap((c) => lookUp(c.unitId) ?? []),
    {
      pool: poolUnits,
      keyWords,
      poolSize: ranking.length,
      // A ranking in content order meets no context: its scores have their own fit.
      ...(switches.contextRanking ? {} : { weights: CONTENT_SCORE_WEIGHTS }),
      ...(states ? { validityOf: (id: string) => states.validity.get(id), mayBeOutdatedOf: (u: MemoryUnit) => mayBeOutdated(u, states) } : {}),
    },
  );
  const hits = await findPlanReports(deps.store, request.namespace, ranked, request.where, planReports);
  const contextValidIds = chosen.filter((c) => c.contextValid).map((c) => c.unitId);
  const holdsEvidence = judgeEvidence(request.query, frame, ranking.flatMap((c) => unitOf.get(c.unitId) ?? []), keyWords);
  request.onStageTimes?.({ content: contentDone - started, induction: inductionDone - contentDone, reinstatement: performance.now() - inductionDone });
  return { hits, frame, holdsEvidence, ...(induced?.refinement ? { frameRefinement: induced.refinement } : {}), ...(contextValidIds.length ? { contextValidIds } : {}) };
}

async function induceFor(
  deps: { store: MemoryStore; embedder: Embedder },
  request: RecallRequest,
  {
    history,
    knownRoles,
    knownPeople,
    planReports,
  }: { history: { start: string; end: string } | null; knownRoles: string[]; knownPeople: readonly string[]; planReports: Map<string, MemoryUnit | null> },
): Promise<{ frame: RecallFrame; refinement?: Omit<FrameRefinement, "frame"> }> {
  const frame = await induceFrame(request.query, {
    history,
    // A copy: the snapshot's list serves every recall of the namespace.
    knownPeople: [...knownPeople],
    knownRoles,
    ...(request.questionDate ? { questionDate: request.questionDate } : {}),
    ...(request.validAt ? { validAt: request.validAt } : {}),
    locateEvent: async (phrase) => {
      const found = await contentRecall(deps, phrase, { namespace: request.namespace, pool: 5 });
      const byId = new Map((await deps.store.getUnits(request.namespace, found.map((c) => c.unitId))).map((u) => [u.id, u]));
      const unit = eventStatement(phrase, found.flatMap((c) => byId.get(c.unitId) ?? []));
      if (!unit) return null;
      const s = unit.context.session;
      return {
        unitId: unit.id,
        time: unit.context.eventTime ?? { start: s.start, end: s.end > s.start ? s.end : new Date(Date.parse(s.start) + 86_400_000).toISOString(), granularity: "day" },
      };
    },
    findMentions: async (phrase) => {
      const found = await contentRecall(deps, phrase, { namespace: request.namespace, pool: MENTION_DEPTH, ...(request.where ? { where: request.where } : {}) });
      const units = new Map((await deps.store.getUnits(request.namespace, found.map((c) => c.unitId))).map((u) => [u.id, u]));
      const withContext = (u: MemoryUnit) => (request.contextOverride ? { ...u, context: request.contextOverride(u) } : u);
      return found.flatMap((c) => (units.has(c.unitId) ? [withContext(units.get(c.unitId)!)] : []));
    },
    findPlanReports: async (plans) => {
      const reports = await reportsOfPlans(deps.store, request.namespace, plans, request.where, planReports);
      if (request.contextOverride) for (const [id, u] of reports) reports.set(id, { ...u, context: request.contextOverride(u) });
      return reports;
    },
  });
  if (!request.frameModel) return { frame };
  const { frame: refined, ...refinement } = await refineFrameWithLlm(request.query, frame, {
    model: request.frameModel,
    history,
    knownPeople,
    ...(request.questionDate ? { questionDate: request.questionDate } : {}),
  });
  return { frame: refined, refinement };
}

/**
 * A promise started beside others and awaited after them: when one of those
 * fails first, its own rejection is not reported as unhandled; awaiting it
 * still throws.
 */
function beside<T>(started: Promise<T>): Promise<T> {
  started.catch(() => {});
  return started;
}
