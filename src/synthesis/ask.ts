import type { LanguageModel } from "../providers/language-model.js";
import type { RecallHit } from "../model/recall.js";
import { answerFromEvidence, NO_ANSWER } from "./answer.js";
import { renderEvidence, type EvidencePack } from "./render-evidence.js";

export interface AskDeps {
  recall: (question: string, options: { namespace: string; k: number; questionDate?: string; llmFrame?: boolean }) => Promise<RecallHit[]>;
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
}

export interface CitedMemory {
  /** The unit's rank in the recall list, which is also its number in the pack. */
  rank: number;
  unitId: string;
  turnIds: string[];
}

export interface AskResult {
  question: string;
  /** The model's short answer, NO_ANSWER when the memories do not hold it, null when no model is configured. */
  answer: string | null;
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
  const k = options.k ?? 10;
  const mode = options.mode ?? "context";
  const hits = await deps.recall(question, {
    namespace: options.namespace,
    k,
    ...(options.questionDate ? { questionDate: options.questionDate } : {}),
    ...(options.llmFrame ? { llmFrame: true } : {}),
  });
  // Rank order, whatever order recall handed them back in: the budget drops from the end.
  const ordered = [...hits].sort((a, b) => a.rank - b.rank);
  const evidence = renderEvidence(
    ordered.map((h) => h.unit),
    { mode, maxTokens: options.maxTokens ?? 1500 },
  );
  const base = { question, evidence, hits };
  if (!deps.languageModel) return { ...base, answer: null, cited: [], llmConfigured: false };
  // Nothing to answer from: the model could only say so, or make something up.
  if (evidence.included.length === 0) {
    return { ...base, answer: NO_ANSWER, cited: [], llmConfigured: true, usage: { promptTokens: 0, completionTokens: 0 } };
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
  return { ...base, answer: answer.text, cited, llmConfigured: true, usage: answer.usage };
}
