import type { Anchorer } from "./anchoring/anchorer.js";
import type { Embedder } from "./providers/embedder.js";
import type { LanguageModel } from "./providers/language-model.js";
import type { MemoryStore, ScrubReport, StoreStats, UnitFilter } from "./store/contract.js";
import type { SessionWithTurns } from "./model/conversation.js";
import type { MemoryUnit } from "./model/memory-unit.js";
import { ingestSessions, type IngestProgress, type IngestReport } from "./anchoring/ingest-sessions.js";
import { createRuleAnchorer } from "./anchoring/rule-anchorer.js";
import type { FusionWeights } from "./retrieval/content-recall.js";
import { runRecall, type RecallOutcome, type RecallSwitches } from "./retrieval/recall-pipeline.js";
import { RamemError } from "./model/errors.js";
import { askMemory, type AskOptions, type AskResult } from "./synthesis/ask.js";
import { appendTurns, type AppendTurnsReport, type AppendTurnsRequest } from "./anchoring/append-turns.js";
import { forgetUnit } from "./anchoring/forget-unit.js";
import { reanchorNamespace } from "./anchoring/reanchor-namespace.js";
import { exportNamespace } from "./portability/export-namespace.js";
import { importNamespace, type ImportReport } from "./portability/import-namespace.js";
import { KeyedLock } from "./util/keyed-lock.js";

export interface MemoryOptions {
  store: MemoryStore;
  embedder: Embedder;
  anchorer?: Anchorer;
  languageModel?: LanguageModel;
  /** Used when a call names no namespace. */
  defaultNamespace?: string;
}

export interface ForgetOptions {
  /** Also rebuild the storage once deleted (SQLite VACUUM; PostgreSQL VACUUM FULL of the store's tables): slower; `ramem forget --purge`. */
  purge?: boolean;
  /** Told what the scrub after the delete did, and whether deleted bytes may remain (see MemoryStore.scrubDeleted). */
  onScrubbed?: (report: ScrubReport) => void;
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
  /**
   * Let the configured LLM ground what the rules could not (one call per
   * recall; never overrides a reliable rule grounding). Off by default: recall
   * needs no LLM.
   */
  llmFrame?: boolean;
}

/**
 * The facade: wires the four stages to a store and providers. It owns no
 * logic of its own, so each stage can be read (and tested) where it lives.
 *
 * It does own one thing: the per-namespace write lock. Every write goes
 * through it (ingest, appendTurns, the forget calls, import; export waits on
 * it for a consistent snapshot), so the faces sharing one Memory — library,
 * REST, MCP over HTTP in the same server — are serialised the same way and an
 * append never interleaves with another write to its namespace. The lock is
 * per process: two processes on one store are serialised only per store
 * transaction.
 */
export class Memory {
  readonly store: MemoryStore;
  readonly embedder: Embedder;
  readonly anchorer: Anchorer;
  readonly languageModel: LanguageModel | undefined;
  readonly defaultNamespace: string;
  #bound: Promise<void> | undefined;
  readonly #writes = new KeyedLock();

  constructor(options: MemoryOptions) {
    this.store = options.store;
    this.embedder = options.embedder;
    this.anchorer = options.anchorer ?? createRuleAnchorer();
    this.languageModel = options.languageModel;
    this.defaultNamespace = options.defaultNamespace ?? "default";
  }

  ingest(sessions: readonly SessionWithTurns[], options: { onProgress?: (p: IngestProgress) => void; force?: boolean } = {}): Promise<IngestReport> {
    const namespaces = sessions.map((s) => (typeof s?.session?.namespace === "string" ? s.session.namespace : ""));
    return this.#writes.runAll(namespaces, () => ingestSessions(this, sessions, options));
  }

  /**
   * Re-derives a namespace's units from the turns they keep verbatim, with
   * this memory's embedder and the given anchorer (default: this memory's):
   * every session anchored and embedded afresh, one transaction each.
   */
  reanchor(namespace: string, options: { anchorer?: Anchorer; onProgress?: (p: IngestProgress) => void } = {}): Promise<IngestReport> {
    return this.#writes.run(namespace, () =>
      reanchorNamespace({ store: this.store, embedder: this.embedder, anchorer: options.anchorer ?? this.anchorer }, namespace, options.onProgress ? { onProgress: options.onProgress } : {}),
    );
  }

  /** Adds turns to a session (created when missing); only the new turns are anchored and embedded. */
  appendTurns(request: Omit<AppendTurnsRequest, "namespace"> & { namespace?: string }, options: { now?: Date } = {}): Promise<AppendTurnsReport> {
    const namespace = request.namespace ?? this.defaultNamespace;
    return this.#writes.run(namespace, () => appendTurns(this, { ...request, namespace }, options));
  }

  /** Deletes one unit, and its words from its neighbours' cues. False when the namespace has no such unit. */
  forgetUnit(unitId: string, options: ForgetOptions & { namespace?: string } = {}): Promise<boolean> {
    const namespace = options.namespace ?? this.defaultNamespace;
    return this.#forget(namespace, options, async () => {
      const deleted = await forgetUnit(this, namespace, unitId);
      return { result: deleted, deleted: deleted ? 1 : 0 };
    });
  }

  /** Deletes a session and its units from every index; returns the number of units deleted. */
  forgetSession(sessionId: string, options: ForgetOptions & { namespace?: string } = {}): Promise<number> {
    const namespace = options.namespace ?? this.defaultNamespace;
    return this.#forget(namespace, options, async () => {
      const sessionExisted = (await this.store.getSession(namespace, sessionId)) !== null;
      const deleted = await this.store.deleteSession(namespace, sessionId);
      return { result: deleted, deleted: deleted + (sessionExisted ? 1 : 0) };
    });
  }

  /** Deletes everything in a namespace (named explicitly: no default); returns the number of units deleted. */
  forgetNamespace(namespace: string, options: ForgetOptions = {}): Promise<number> {
    return this.#forget(namespace, options, async () => {
      const stats = await this.store.stats(namespace);
      const deleted = await this.store.deleteNamespace(namespace);
      return { result: deleted, deleted: deleted + stats.sessions };
    });
  }

  /**
   * A forget, then (when it deleted anything) the store's scrub: a forget
   * erases bytes, not just rows (see MemoryStore.scrubDeleted). Both under the
   * namespace's write lock, so a recall queued behind it never sees the data.
   */
  #forget<T>(namespace: string, options: ForgetOptions, remove: () => Promise<{ result: T; deleted: number }>): Promise<T> {
    return this.#writes.run(namespace, async () => {
      const { result, deleted } = await remove();
      if (deleted > 0) options.onScrubbed?.(await this.store.scrubDeleted({ vacuum: options.purge === true }));
      return result;
    });
  }

  /** The namespace as JSONL lines with the stored vectors, taken while no write to it runs. */
  exportNamespace(namespace?: string, options: { now?: Date } = {}): Promise<string[]> {
    const ns = namespace ?? this.defaultNamespace;
    return this.#writes.run(ns, () => exportNamespace(this, ns, options.now));
  }

  /** Restores an export into an empty namespace (default: the exported one), vectors as given. */
  importNamespace(text: string, options: { namespace?: string; source?: string } = {}): Promise<ImportReport> {
    // The target is only known once the header is read; the header is the first line.
    const namespace = options.namespace ?? headerNamespace(text);
    return this.#writes.run(namespace, () => importNamespace(this, text, options));
  }

  /** Recall units for a query: the induced recall frame, and hits that say why each is there. */
  async recall(query: string, options: RecallOptions = {}): Promise<RecallOutcome> {
    const namespace = options.namespace ?? this.defaultNamespace;
    const k = options.k ?? 10;
    if (!query.trim()) throw new RamemError("BAD_QUERY", "the query is empty", { hint: "pass the question or topic to recall" });
    if (!Number.isInteger(k) || k < 1 || k > 1000) throw new RamemError("BAD_K", `k must be an integer from 1 to 1000, got ${k}`);
    if (options.llmFrame && !this.languageModel) {
      throw new RamemError("NO_LLM", "llmFrame needs a language model, and none is configured", {
        hint: "set RAMEM_LLM_BASE_URL and RAMEM_LLM_MODEL (CLI), or pass languageModel to Memory; or drop llmFrame",
      });
    }
    // A store built with another embedder would compare vectors of two models: refuse early.
    await (this.#bound ??= this.store.bindEmbedder(this.embedder.id, this.embedder.dimensions));
    return runRecall(this, {
      namespace,
      query,
      k,
      ...(options.fusion ? { fusion: options.fusion } : {}),
      ...(options.questionDate ? { questionDate: options.questionDate } : {}),
      ...(options.switches ? { switches: options.switches } : {}),
      ...(options.llmFrame && this.languageModel ? { frameModel: this.languageModel } : {}),
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

/** The namespace an export names in its header line, or "" when unreadable (importNamespace then reports why). */
function headerNamespace(text: string): string {
  const start = Math.max(0, text.search(/\S/));
  const end = text.indexOf("\n", start);
  try {
    const header = JSON.parse(end === -1 ? text.slice(start) : text.slice(start, end)) as { namespace?: unknown };
    return typeof header?.namespace === "string" ? header.namespace : "";
  } catch {
    return "";
  }
}
