import type { LanguageModel } from "../providers/language-model.js";
import type { RecallHit } from "../model/recall.js";
import { answerFromEvidence, NO_ANSWER } from "./answer.js";
import { renderEvidence, type EvidencePack } from "./render-evidence.js";
import type { EvidenceJudgment } from "../retrieval/judge-evidence.js";
import { checkArgs, checkFields } from "../model/check-args.js";

/** What ask answers when the recall judged that the store holds nothing for the question. */
export const NOT_IN_MEMORY = "I don't have that in memory.";

export interface AskDeps {
  recall: (
    question: string,
    options: { namespace: string; k: number; questionDate?: string; llmFrame?: boolean },
  ) => Promise<{ hits: RecallHit[]; holdsEvidence: EvidenceJudgment }>;
  /** Without one, askMemory still recalls and renders the pack; the caller's own LLM can use it. */
  languageModel?: LanguageModel;
}

export interface AskOptions {
  namespace: string;
  /** How many units to recall. Default 10. */
  k?: number;
  /** Token budget of the evidence pack; the lowest-ranked units are dropped to fit. Default 1500. */
  maxTokens?: number;
  /** When the question is asked (ISO); relative times in it are read against this date. */
  questionDate?: string;
  /** "plain" drops the coordinates (the no-context-preserved-generation ablation). Default "context". */
  mode?: "context" | "plain";
  /** Let the LLM refine the recall frame first (Memory.recall's llmFrame). */
  llmFrame?: boolean;
  /**
   * Answer NOT_IN_MEMORY, without a model call, when the recall judges that
   * the store likely holds no evidence (holdsEvidence.likely false). Default
   * true; false hands the model the pack anyway, whose first line then says
   * what the judgment found missing.
   */
  abstain?: boolean;
}

export interface CitedMemory {
  /** The unit's rank in the recall list, which is also its number in the pack. */
  rank: number;
  unitId: string;
  turnIds: string[];
}

export interface AskResult {
  question: string;
  /**
   * The model's short answer; NO_ANSWER when the model finds the memories do
   * not hold it; NOT_IN_MEMORY when ask abstained (with or without a model);
   * otherwise null when no model is configured.
   */
  answer: string | null;
  /** The recall's judgment whether the store holds evidence for the question. */
  holdsEvidence: EvidenceJudgment;
  /** true when ask answered NOT_IN_MEMORY from the judgment, without asking a model. */
  abstained: boolean;
  /** The memories the model says it used, in the order it cited them; numbers outside the pack are dropped. */
  cited: CitedMemory[];
  evidence: EvidencePack;
  hits: RecallHit[];
  llmConfigured: boolean;
  usage?: { promptTokens: number; completionTokens: number };
}

/**
 * Recall, then stage 4: render the hits as an evidence pack within its token
 * budget and, when a model is configured, answer from that pack only. The
 * model cites pack numbers; they are mapped back to units here so a caller
 * gets provenance (turn ids) rather than numbers that only mean something
 * inside one prompt.
 */
export async function askMemory(deps: AskDeps, question: string, options: AskOptions): Promise<AskResult> {
  checkFields("askMemory", "deps", deps, "object", { recall: "function", languageModel: "object?" });
  checkArgs("askMemory", { question: [question, "string"] });
  checkFields("askMemory", "options", options, "object", {
    namespace: "string",
    k: "number?",
    maxTokens: "number?",
    questionDate: "string?",
    mode: "string?",
    llmFrame: "boolean?",
    abstain: "boolean?",
  });
  const k = options.k ?? 10;
  const mode = options.mode ?? "context";
  const { hits, holdsEvidence } = await deps.recall(question, {
    namespace: options.namespace,
    k,
    ...(options.questionDate ? { questionDate: options.questionDate } : {}),
    ...(options.llmFrame ? { llmFrame: true } : {}),
  });
  // Rank order, whatever order recall handed them back in: the budget drops from the end.
  const ordered = [...hits].sort((a, b) => a.rank - b.rank);
  const evidence = renderEvidence(
    ordered.map((h) => h.unit),
    { mode, maxTokens: options.maxTokens ?? 1500, holdsEvidence },
  );
  const base = { question, evidence, hits, holdsEvidence, abstained: false, llmConfigured: deps.languageModel !== undefined };
  // Decided offline from what the store holds: a model would answer from the nearest miss, so none is asked.
  if (!holdsEvidence.likely && options.abstain !== false) {
    return { ...base, answer: NOT_IN_MEMORY, cited: [], abstained: true, ...(deps.languageModel ? { usage: { promptTokens: 0, completionTokens: 0 } } : {}) };
  }
  if (!deps.languageModel) return { ...base, answer: null, cited: [] };
  // Nothing to answer from: the model could only say so, or make something up.
  if (evidence.included.length === 0) {
    return { ...base, answer: NO_ANSWER, cited: [], usage: { promptTokens: 0, completionTokens: 0 } };
  }

  const answer = await answerFromEvidence(deps.languageModel, question, evidence, {
    mode,
    ...(options.questionDate ? { questionDate: options.questionDate } : {}),
  });
  // Both pack formats number the included units 1..n in the order given.
  const hitById = new Map(ordered.map((h) => [h.unit.id, h]));
  const cited: CitedMemory[] = [];
  for (const n of answer.cited) {
    const unit = evidence.included[n - 1];
    if (!unit) continue;
    cited.push({ rank: hitById.get(unit.id)?.rank ?? n, unitId: unit.id, turnIds: [...unit.provenance.turnIds] });
  }
  return { ...base, answer: answer.text, cited, usage: answer.usage };
}
