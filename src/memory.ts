import type { Anchorer } from "./anchoring/anchorer.js";
import type { Embedder } from "./providers/embedder.js";
import type { LanguageModel } from "./providers/language-model.js";
import type { MemoryStore, StoreStats, UnitFilter } from "./store/contract.js";
import type { SessionWithTurns } from "./model/conversation.js";
import type { MemoryUnit } from "./model/memory-unit.js";
import { ingestSessions, type IngestProgress, type IngestReport } from "./anchoring/ingest-sessions.js";
import { createRuleAnchorer } from "./anchoring/rule-anchorer.js";
import type { FusionWeights } from "./retrieval/content-recall.js";
import { runRecall, type RecallOutcome, type RecallSwitches } from "./retrieval/recall-pipeline.js";
import { RamemError } from "./model/errors.js";
import { askMemory, type AskOptions, type AskResult } from "./synthesis/ask.js";

export interface MemoryOptions {
  store: MemoryStore;
  embedder: Embedder;
  anchorer?: Anchorer;
  languageModel?: LanguageModel;
  /** Used when a call names no namespace. */
  defaultNamespace?: string;
}

export interface RecallOptions {
  namespace?: string;
  /** Budget: how many units to return. */
  k?: number;
  fusion?: FusionWeights;
  /** When the question is asked (ISO): grounds relative times like "last year". */
  questionDate?: string;
  /** Pipeline switches; default: full RaMem. `CONTENT_ONLY` gives the plain content ranking. */
  switches?: RecallSwitches;
}

/**
 * The facade: wires the four stages to a store and providers. It owns no
 * logic of its own, so each stage can be read (and tested) where it lives.
 */
export class Memory {
  readonly store: MemoryStore;
  readonly embedder: Embedder;
  readonly anchorer: Anchorer;
  readonly languageModel: LanguageModel | undefined;
  readonly defaultNamespace: string;
  #bound: Promise<void> | undefined;

  constructor(options: MemoryOptions) {
    this.store = options.store;
    this.embedder = options.embedder;
    this.anchorer = options.anchorer ?? createRuleAnchorer();
    this.languageModel = options.languageModel;
    this.defaultNamespace = options.defaultNamespace ?? "default";
  }

  ingest(sessions: readonly SessionWithTurns[], options: { onProgress?: (p: IngestProgress) => void; force?: boolean } = {}): Promise<IngestReport> {
    return ingestSessions(this, sessions, options);
  }

  /** Recall units for a query: the induced recall frame, and hits that say why each is there. */
  async recall(query: string, options: RecallOptions = {}): Promise<RecallOutcome> {
    const namespace = options.namespace ?? this.defaultNamespace;
    const k = options.k ?? 10;
    if (!query.trim()) throw new RamemError("BAD_QUERY", "the query is empty", { hint: "pass the question or topic to recall" });
    if (!Number.isInteger(k) || k < 1 || k > 1000) throw new RamemError("BAD_K", `k must be an integer from 1 to 1000, got ${k}`);
    // A store built with another embedder would compare vectors of two models: refuse early.
    await (this.#bound ??= this.store.bindEmbedder(this.embedder.id, this.embedder.dimensions));
    return runRecall(this, {
      namespace,
      query,
      k,
      ...(options.fusion ? { fusion: options.fusion } : {}),
      ...(options.questionDate ? { questionDate: options.questionDate } : {}),
      ...(options.switches ? { switches: options.switches } : {}),
    });
  }

  /** Recall, then answer from the evidence pack with the configured LLM; `answer` is null without one. */
  ask(question: string, options: Partial<AskOptions> = {}): Promise<AskResult> {
    return askMemory(
      {
        recall: async (q, o) => (await this.recall(q, o)).hits,
        ...(this.languageModel ? { languageModel: this.languageModel } : {}),
      },
      question,
      { ...options, namespace: options.namespace ?? this.defaultNamespace },
    );
  }

  list(filter: UnitFilter & { namespace?: string } = {}): Promise<MemoryUnit[]> {
    return this.store.listUnits(filter.namespace ?? this.defaultNamespace, filter);
  }

  stats(namespace?: string): Promise<StoreStats> {
    return this.store.stats(namespace);
  }

  close(): Promise<void> {
    return this.store.close();
  }
}
