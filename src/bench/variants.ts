import { CONTENT_ONLY, RAMEM, type RecallSwitches } from "../retrieval/recall-pipeline.js";
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
}

/** Every variant is a switch setting of the one recall pipeline. */
export const VARIANTS: readonly BenchVariant[] = [
  { name: "content-only", description: "SimpleMem-style baseline: same units, same fusion, no frame", switches: CONTENT_ONLY, rendering: "plain" },
  { name: "ramem", description: "frame induction + selective reinstatement + context-preserved evidence", switches: RAMEM, rendering: "context" },
  { name: "no-session-context", description: "ramem, but the session span does not count as a time coordinate", switches: { ...RAMEM, sessionContext: false }, rendering: "context" },
  { name: "no-context-ranking", description: "ramem's frame is induced but not used to order", switches: { ...RAMEM, contextRanking: false }, rendering: "context" },
  { name: "context-shuffle", description: "ramem on units whose episodic contexts were permuted among them (seed 42)", switches: RAMEM, shuffleContext: true, rendering: "context" },
  { name: "no-context-preserved-generation", description: "ramem retrieval, evidence rendered as plain text (QA ablation)", switches: RAMEM, rendering: "plain" },
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
