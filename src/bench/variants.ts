import { CONTENT_ONLY, RAMEM, type RecallRequest, type RecallSwitches } from "../retrieval/recall-pipeline.js";
import type { ReinstateSignals } from "../retrieval/reinstate.js";
import type { FusionWeights } from "../retrieval/content-recall.js";
import type { FrameConditionName } from "../model/recall-frame.js";
import { RamemError } from "../model/errors.js";

export interface BenchVariant {
  name: string;
  description: string;
  switches: RecallSwitches;
  /** Give every unit another unit's episodic context (fixed seed) before recall and rendering. */
  shuffleContext?: boolean;
  /** How the generator sees the units: with coordinates, or flattened (SimpleMem-style). */
  rendering: "context" | "plain";
  /** The configured LLM refines each recall frame (needs an LLM; not in the default list). */
  llmFrame?: boolean;
  /** A per-signal ablation: ramem with these reinstatement weights changed (0 = off). */
  signals?: Partial<ReinstateSignals>;
  /** A per-condition ablation: ramem with these frame conditions dropped after induction. */
  ignoreConditions?: FrameConditionName[];
  /** Channel weights instead of the default fusion (the plain-BM25 reference). */
  fusion?: FusionWeights;
}

/** ramem with one signal of the reinstatement off: the per-signal ablations, named "ramem-no-<signal>". */
const signalOff = (name: string, description: string, signals: Partial<ReinstateSignals>): BenchVariant => ({
  name: `ramem-no-${name}`,
  description: `ramem without ${description}`,
  switches: RAMEM,
  rendering: "context",
  signals,
});

/** Every variant is a switch setting of the one recall pipeline. */
export const VARIANTS: readonly BenchVariant[] = [
  { name: "content-only", description: "SimpleMem-style baseline: same units, same fusion, no frame", switches: CONTENT_ONLY, rendering: "plain" },
  { name: "bm25", description: "plain BM25 over the same units (the lexical channel alone, no frame): the classic reference", switches: CONTENT_ONLY, rendering: "plain", fusion: { lexical: 1, dense: 0, rrfK: 10 } },
  { name: "ramem", description: "frame induction + selective reinstatement + context-preserved evidence", switches: RAMEM, rendering: "context" },
  { name: "no-session-context", description: "ramem, but the session span does not count as a time coordinate", switches: { ...RAMEM, sessionContext: false }, rendering: "context" },
  { name: "no-context-ranking", description: "ramem's frame is induced but not used to order", switches: { ...RAMEM, contextRanking: false }, rendering: "context" },
  { name: "context-shuffle", description: "ramem on units whose episodic contexts were permuted among them (seed 42)", switches: RAMEM, shuffleContext: true, rendering: "context" },
  { name: "no-context-preserved-generation", description: "ramem retrieval, evidence rendered as plain text (QA ablation)", switches: RAMEM, rendering: "plain" },
  signalOff("question-penalty", "the score a turn that asks a question loses", { questionPenalty: 0 }),
  signalOff("answer-lift", "the score a question lends its answer (the next unit)", { answerLift: 0 }),
  signalOff("time-bonus", "the bonus for units that carry a time when the query asks when", { timeAnswerBonus: 0 }),
  signalOff("place-bonus", "the bonus for units that name a place when the query asks where", { placeAnswerBonus: 0 }),
  signalOff("quantity-bonus", "the bonus for units that state a number when the query asks how much or how many", { quantityAnswerBonus: 0 }),
  signalOff("episode-support", "episode support (the session's strong hits)", { episodeSupport: 0 }),
  signalOff("coverage", "the episode's share of the query's words", { coverageWeight: 0 }),
  signalOff("assistant-chat-coverage-cut", "the halved coverage in a chat with an assistant (coverage weighs as between people)", { assistantChatCoverage: 1 }),
  signalOff("context-first", "C_ctx first (context-valid candidates keep their scored place)", { contextFirst: false }),
  signalOff("role-aware-dialogue", "reading roles in the answer-aware step (every question lends its answer, as between people)", { roleAwareDialogue: false }),
  signalOff("persons-only-support", "the rule that only people's turns lend episode support (assistant replies lend too)", { personsLendSupport: false }),
  signalOff("spread", "the spread over episodes for aggregating queries", { episodeSpread: 0 }),
  signalOff("aggregate-support-cut", "the cut of an episode's best-hit support for aggregating queries (they keep all of it, as any query)", { aggregateSupportShare: 1 }),
  signalOff("context-depth", "the depth limit of C_ctx (every valid candidate of the pool comes first)", { contextDepth: 0 }),
  signalOff("valid-episode-beyond-depth", "the rule that below the depth a candidate of a session that met the frame above it still joins C_ctx", { validEpisodeBeyondDepth: false }),
  signalOff("fine-times", "the rule that a coarse time does not place a unit in a finer window", { fineTimesOnly: false }),
  signalOff("supersession", "supersession for current-state queries (superseded statements last, their successors lifted)", { successorLift: 0 }),
  signalOff("state-lookup", "the state lookup (a question about a state answered first by that slot's statements valid at the asked time)", { stateLookup: false }),
  signalOff("counted-kinds", "the lexical search for the kinds of what a question counts (\"how many citrus fruits\": lime, lemon, …)", { countedKinds: 0 }),
  signalOff("newest-rival", "the rule that, for a question saying \"now\" that no state rule answered, the newest of the candidates both channels rank alike goes first", { rivalDepth: 0 }),
  signalOff("episode-context", "episodes as a context (a place, topic or person of the unit's topic segment meets the frame)", { episodeContext: false }),
  signalOff("addressee-rule", "the rule that a person the turn names only to address them is not what it is about", { addresseesNotSubjects: false }),
  signalOff("moved-time", "the rule that, for \"When is …?\", a memory telling that the time moved goes before the time first said", { movedTimeFirst: false }),
  signalOff("content-best-kept", "the rule that the content ranking's two best keep the last places of the first ten", { contentBestKept: false }),
  signalOff("anchor-behind", "the rule that the memory of the event a time is counted before or after from goes behind the next context-valid candidate", { anchorBehind: false }),
  signalOff("occurrence-answer-first", "the rule that, inside the occurrence the frame picked, a question about it follows its answer", { occurrenceAnswerFirst: false }),
  {
    name: "ramem-segmented-support",
    description: "ramem with episode support, coverage and spread read per topic segment instead of per session",
    switches: RAMEM,
    rendering: "context",
    signals: { segmentedSupport: true },
  },
  signalOff("validity-times", "validity intervals as a time coordinate (a state valid then matches a past window)", { validityTimes: false }),
  {
    name: "ramem-no-participant-condition",
    description: "ramem without the frame's participant condition",
    switches: RAMEM,
    rendering: "context",
    ignoreConditions: ["participants"],
  },
  { name: "ramem-no-role-condition", description: "ramem without the frame's role condition (whose turns hold the answer)", switches: RAMEM, rendering: "context", ignoreConditions: ["role"] },
  { name: "ramem-no-occurrence-condition", description: "ramem without the frame's occurrence condition (which of several episodes of an event)", switches: RAMEM, rendering: "context", ignoreConditions: ["occurrence"] },
  { name: "ramem-no-time-condition", description: "ramem without the frame's time condition", switches: RAMEM, rendering: "context", ignoreConditions: ["time"] },
  { name: "ramem-llm-frame", description: "ramem with the LLM filling what the rules left out of each recall frame (needs an LLM)", switches: RAMEM, rendering: "context", llmFrame: true },
];

/** What runs when no variants are named: every variant that needs no LLM. */
export const DEFAULT_VARIANTS: readonly string[] = VARIANTS.filter((v) => !v.llmFrame).map((v) => v.name);

export const BASELINE_VARIANT = "content-only";

/** `withLlm`: whether the run has a language model; a variant that needs one is refused without. */
export function resolveVariants(names: readonly string[], { withLlm = false }: { withLlm?: boolean } = {}): BenchVariant[] {
  return names.map((name) => {
    const v = VARIANTS.find((x) => x.name === name);
    if (!v)
      throw new RamemError("UNKNOWN_VARIANT", `unknown variant "${name}"`, {
        hint: `choose from: ${VARIANTS.map((x) => x.name).join(", ")}`,
      });
    if (v.llmFrame && !withLlm)
      throw new RamemError("NO_LLM", `variant "${name}" needs an LLM, and none is configured for this run`, {
        hint: "set RAMEM_LLM_BASE_URL and RAMEM_LLM_MODEL, or leave the variant out",
      });
    return v;
  });
}

/** What a variant sets on a recall request. */
export function recallSettings(v: BenchVariant): Pick<RecallRequest, "switches" | "signals" | "ignoreConditions" | "fusion"> {
  return {
    switches: v.switches,
    ...(v.signals ? { signals: v.signals } : {}),
    ...(v.ignoreConditions ? { ignoreConditions: v.ignoreConditions } : {}),
    ...(v.fusion ? { fusion: v.fusion } : {}),
  };
}
