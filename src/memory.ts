import type { Anchorer } from "./anchoring/anchorer.js";
import type { Embedder } from "./providers/embedder.js";
import type { LanguageModel } from "./providers/language-model.js";
import type { MemoryStore, ScrubReport, StoreStats, UnitFilter } from "./store/contract.js";
import type { SessionWithTurnsInput } from "./model/conversation.js";
import type { MemoryUnit } from "./model/memory-unit.js";
import { ingestSessions, type IngestProgress, type IngestReport } from "./anchoring/ingest-sessions.js";
import { createRuleAnchorer } from "./anchoring/rule-anchorer.js";
import type { FusionWeights } from "./retrieval/content-recall.js";
import { runRecall, type RecallOutcome, type RecallStageTimes, type RecallSwitches } from "./retrieval/recall-pipeline.js";
import { MemoryEventHub, type MemoryEvents } from "./memory-events.js";
import { RamemError } from "./model/errors.js";
import { checkMetadata } from "./model/metadata.js";
import { askMemory, type AskOptions, type AskResult } from "./synthesis/ask.js";
import { appendTurns, type AppendTurnsReport, type AppendTurnsRequest } from "./anchoring/append-turns.js";
import { forgetUnit } from "./anchoring/forget-unit.js";
import { reanchorNamespace } from "./anchoring/reanchor-namespace.js";
import { setSupersession } from "./anchoring/set-supersession.js";
import { namespaceValidity } from "./anchoring/namespace-validity.js";
import type { Validity } from "./anchoring/derive-validity.js";
import { exportNamespace } from "./portability/export-namespace.js";
import { importNamespace, type ImportReport } from "./portability/import-namespace.js";
import { KeyedLock } from "./util/keyed-lock.js";
import { updateUnit } from "./anchoring/update-unit.js";
import { chooseSession, DEFAULT_IDLE_MINUTES } from "./anchoring/choose-session.js";
import { DEFAULT_SPEAKER_NAMES, locateInMessages, messagesToTurns, type AddMessage, type SpeakerNames } from "./formats/messages-to-turns.js";
import { NamespaceName, SessionId, type TurnRole } from "./model/conversation.js";
import { parseFilter, andFilters, type FilterInput, type FilterNode } from "./model/memory-filter.js";
import { changeStamp, type UnitHistoryEvent } from "./model/unit-history.js";
import type { Metadata } from "./model/metadata.js";
import { describeValue, echoValue } from "./model/echo-value.js";
import { checkArgs, checkOptions, type ArgKind } from "./model/check-args.js";
import { checkNamespace } from "./model/check-namespace.js";
import { decodeCursor, nextCursorAfter } from "./model/page-cursor.js";

export interface MemoryOptions {
  store: MemoryStore;
  embedder: Embedder;
  anchorer?: Anchorer;
  languageModel?: LanguageModel;
  /** Used when a call names no namespace. */
  defaultNamespace?: string;
  /** close() closes the embedder too (openMemory sets it for the embedder it created). */
  ownsEmbedder?: boolean;
  /** close() closes the anchorer too (openMemory sets it for the anchorer it created: a thread pool). */
  ownsAnchorer?: boolean;
  /**
   * `add` without a sessionId continues the namespace's latest session
   * unless its last turn is older than this (default 30 minutes); then it
   * starts a new one.
   */
  idleMinutes?: number;
  /** Who speaks for a role when a message has no `name`: fixed, or per namespace. Default "user", "assistant", ... */
  speakerNames?: Partial<Record<TurnRole, string>> | ((namespace: string) => Partial<Record<TurnRole, string>>);
}

/** Who made a change (history's actor): an API key's name on the server; default "library". */
export interface ActorOptions {
  actor?: string;
}

export interface AddOptions extends ActorOptions {
  namespace?: string;
  /** Default: the latest session unless idle too long (MemoryOptions.idleMinutes), else a new one. */
  sessionId?: string;
  /** The caller's JSON object: on this call's turns (their units inherit it), and merged into the session's metadata (stored units keep theirs). */
  metadata?: Metadata;
  /** The time of messages without createdAt, and the clock of the idle check. */
  now?: Date;
}

export interface AddReport extends AppendTurnsReport {
  /** Why this session: the caller named it, the latest one continued, or a new one (first, or after the idle gap). */
  sessionChoice: "given" | "continued" | "new";
}

export interface GetAllOptions {
  namespace?: string;
  /** The filter language of recall (model/memory-filter.ts). */
  filter?: FilterInput;
  /** Page size, 1 to 1000 (default 100). */
  limit?: number;
  /** The nextCursor of the previous page. */
  cursor?: string;
}

export interface GetAllResult {
  memories: MemoryUnit[];
  /** Units the filter selects in all (every page). */
  total: number;
  /** Pass to the next call for the next page; null on the last page. */
  nextCursor: string | null;
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
  /**
   * The instant whose state the caller wants (ISO): statements valid then rank
   * before the ones not yet or no longer valid then (never dropped), and a
   * question about a state is answered by that slot's statements valid then.
   */
  validAt?: string;
  /** Only units this filter selects (model/memory-filter.ts), searched so inside the store. */
  filter?: FilterInput;
  /** Drop hits scoring below this (the score is in [0, 1]; docs/api.md › Scores says what it means). */
  minScore?: number;
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
  readonly idleMinutes: number;
  readonly #speakerNames: MemoryOptions["speakerNames"];
  #bound: Promise<void> | undefined;
  readonly #writes = new KeyedLock();
  readonly #ownsEmbedder: boolean;
  readonly #ownsAnchorer: boolean;
  readonly #events = new MemoryEventHub();

  constructor(options: MemoryOptions) {
    this.store = options.store;
    this.embedder = options.embedder;
    this.#ownsEmbedder = options.ownsEmbedder ?? false;
    this.#ownsAnchorer = options.ownsAnchorer ?? false;
    this.anchorer = options.anchorer ?? createRuleAnchorer();
    this.languageModel = options.languageModel;
    this.defaultNamespace = options.defaultNamespace ?? "default";
    this.idleMinutes = options.idleMinutes ?? DEFAULT_IDLE_MINUTES;
    if (!(this.idleMinutes > 0)) throw new RamemError("BAD_OPTION", `idleMinutes must be a positive number, got ${this.idleMinutes}`);
    this.#speakerNames = options.speakerNames;
  }

  /**
   * Stores messages as they happen: the ecosystem's `{role, content, name?,
   * createdAt?}` (content a string or parts) or ramem's `{speaker, text}`.
   * Without a sessionId the latest session is continued unless its last turn
   * is older than `idleMinutes`, else a new session starts. Only the new
   * turns are anchored, embedded and written. Bad input (an unknown role,
   * empty content, bad metadata) is refused before anything is stored.
   */
  async add(messages: readonly AddMessage[], options: AddOptions = {}): Promise<AddReport> {
    checkOptions("add", options, { ...WRITE_OPTIONS, sessionId: "string?" });
    if (options.sessionId) checkSessionId(options.sessionId, "sessionId");
    const namespace = checkNamespace(options.namespace ?? this.defaultNamespace);
    const now = options.now ?? new Date();
    const turns = messagesToTurns(messages, this.speakerNamesFor(namespace), now);
    if (options.metadata !== undefined) checkMetadata(options.metadata, "metadata");
    const withMetadata = options.metadata ? turns.map((t) => ({ ...t, metadata: { ...options.metadata, ...t.metadata } })) : turns;
    return this.#writes.run(namespace, async () => {
      const chosen = options.sessionId
        ? { sessionId: options.sessionId, choice: "given" as const }
        : await chooseSession(this.store, namespace, Date.parse(withMetadata[0]!.time ?? now.toISOString()), this.idleMinutes, now);
      const report = await appendTurns(
        this,
        { namespace, sessionId: chosen.sessionId, turns: withMetadata, ...(options.metadata ? { metadata: options.metadata } : {}) },
        { now, change: changeStamp(options.actor, now) },
      ).catch((err: unknown) => {
        // appendTurns names the turns it checks; the caller sent messages.
        throw locateInMessages(err, messages);
      });
      this.#ingested(report.namespace, 1, report.turnIds.length, report.unitsWritten);
      return { ...report, sessionChoice: chosen.choice };
    });
  }

  /**
   * Watches this memory's calls after they succeed (an operator's metrics):
   * each recall's stage times, each write's turns and units. Returns the
   * function that stops watching.
   */
  observe(observer: MemoryEvents): () => void {
    checkArgs("observe", { observer: [observer, "object"] });
    return this.#events.add(observer);
  }

  #ingested(namespace: string | undefined, sessions: number, turns: number, units: number): void {
    this.#events.emit("ingested", { ...(namespace !== undefined ? { namespace } : {}), sessions, turns, units });
  }

  /** The speaker names of a namespace, for messages that name nobody. */
  speakerNamesFor(namespace: string): SpeakerNames {
    const given = typeof this.#speakerNames === "function" ? this.#speakerNames(namespace) : this.#speakerNames;
    return { ...DEFAULT_SPEAKER_NAMES, ...given };
  }

  /** One unit by id, or null. */
  async get(unitId: string, options: { namespace?: string } = {}): Promise<MemoryUnit | null> {
    checkArgs("get", { unitId: [unitId, "string"] });
    checkOptions("get", options, READ_OPTIONS);
    const namespace = checkNamespace(options.namespace ?? this.defaultNamespace);
    const [unit] = await this.store.getUnits(namespace, [unitId]);
    return unit ?? null;
  }

  /** A page of a namespace's units in conversation order, filtered, with the total the filter selects. */
  async getAll(options: GetAllOptions = {}): Promise<GetAllResult> {
    checkOptions("getAll", options, { ...READ_OPTIONS, cursor: "string?" });
    const namespace = checkNamespace(options.namespace ?? this.defaultNamespace);
    const limit = options.limit ?? 100;
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
      throw new RamemError("BAD_LIMIT", `limit must be an integer from 1 to 1000, got ${limit}`, { where: "limit", hint: "page with cursor for more" });
    }
    const offset = options.cursor === undefined ? 0 : decodeCursor(options.cursor);
    const where = options.filter === undefined ? undefined : parseFilter(options.filter);
    const narrow = where ? { where } : {};
    const [memories, total] = await Promise.all([this.store.listUnits(namespace, { ...narrow, limit, offset }), this.store.countUnits(namespace, narrow)]);
    return { memories, total, nextCursor: nextCursorAfter(offset, memories.length, total) };
  }

  /**
   * Corrects a unit's text: anchored and embedded again, same id and place;
   * the old text goes to its history. UNIT_FORGOTTEN for a forgotten unit.
   */
  async update(unitId: string, change: { text: string }, options: ActorOptions & { namespace?: string; now?: Date } = {}): Promise<MemoryUnit> {
    checkArgs("update", { unitId: [unitId, "string"] });
    checkOptions("update", options, WRITE_OPTIONS);
    const namespace = checkNamespace(options.namespace ?? this.defaultNamespace);
    if (typeof change !== "object" || change === null) throw new RamemError("BAD_INPUT", "update takes { text }", { where: "text", hint: 'e.g. memory.update(id, { text: "Caroline moved to Porto" })' });
    checkArgs("update", { text: [change.text, "string"] });
    return this.#writes.run(namespace, () => updateUnit(this, namespace, unitId, change.text, changeStamp(options.actor, options.now)));
  }

  /**
   * Corrects the derived supersession: `oldId` is no longer true, `newId`
   * replaced it (both in the namespace; no cycles). Kept on the unit: recall
   * ranks it as superseded, export carries it.
   */
  async supersede(oldId: string, newId: string, options: ActorOptions & { namespace?: string; now?: Date } = {}): Promise<MemoryUnit> {
    checkArgs("supersede", { oldId: [oldId, "string"], newId: [newId, "string"] });
    checkOptions("supersede", options, WRITE_OPTIONS);
    const namespace = checkNamespace(options.namespace ?? this.defaultNamespace);
    return this.#writes.run(namespace, () => setSupersession(this.store, namespace, oldId, newId, changeStamp(options.actor, options.now)));
  }

  /** Marks a unit as not superseded, whatever later statements say (undoes a wrong supersession, rule-derived or not). */
  async unsupersede(unitId: string, options: ActorOptions & { namespace?: string; now?: Date } = {}): Promise<MemoryUnit> {
    checkArgs("unsupersede", { unitId: [unitId, "string"] });
    checkOptions("unsupersede", options, WRITE_OPTIONS);
    const namespace = checkNamespace(options.namespace ?? this.defaultNamespace);
    return this.#writes.run(namespace, () => setSupersession(this.store, namespace, unitId, null, changeStamp(options.actor, options.now)));
  }

  /** When a unit's stated state held and what replaced it (null: the unit states no state and carries no correction). */
  async validity(unitId: string, options: { namespace?: string } = {}): Promise<Validity | null> {
    checkArgs("validity", { unitId: [unitId, "string"] });
    checkOptions("validity", options, READ_OPTIONS);
    const namespace = checkNamespace(options.namespace ?? this.defaultNamespace);
    const { validity } = await namespaceValidity(this.store, namespace, await this.store.listSessions(namespace));
    // The caller's copy: the namespace's own record is read by later recalls (retrieval/slot-statements.ts).
    const kept = validity.get(unitId);
    return kept ? structuredClone(kept) : null;
  }

  /** What happened to a unit: created, updated, superseded, forgotten, with when and who; oldest first. */
  async history(unitId: string, options: { namespace?: string } = {}): Promise<UnitHistoryEvent[]> {
    checkArgs("history", { unitId: [unitId, "string"] });
    checkOptions("history", options, READ_OPTIONS);
    return this.store.unitHistory(checkNamespace(options.namespace ?? this.defaultNamespace), unitId);
  }

  /** forgetUnit under the name agent code expects. */
  async delete(unitId: string, options: ForgetOptions & ActorOptions & { namespace?: string } = {}): Promise<boolean> {
    return this.forgetUnit(unitId, options);
  }

  /** forgetSession under the name agent code expects. */
  async deleteSession(sessionId: string, options: ForgetOptions & ActorOptions & { namespace?: string } = {}): Promise<number> {
    return this.forgetSession(sessionId, options);
  }

  /** Every unit of a namespace (the namespace is named: no default); forgetNamespace. */
  async deleteAll(options: ForgetOptions & ActorOptions & { namespace: string }): Promise<number> {
    checkArgs("deleteAll", { options: [options, "object"] });
    return this.forgetNamespace(options.namespace, options);
  }

  /** Empties a namespace, as forgetNamespace does (history keeps that its units were forgotten, without their text). */
  async reset(namespace: string, options: ForgetOptions & ActorOptions = {}): Promise<number> {
    return this.forgetNamespace(namespace, options);
  }

  /**
   * Stage 1 for whole sessions (ingest-sessions.ts): a session whose input,
   * anchorer and embedder are unchanged is skipped; `beforeFirstWrite` is
   * awaited once before the first session that is written.
   */
  async ingest(
    sessions: readonly SessionWithTurnsInput[],
    options: ActorOptions & { onProgress?: (p: IngestProgress) => void; force?: boolean; beforeFirstWrite?: () => Promise<void> } = {},
  ): Promise<IngestReport> {
    checkArgs("ingest", { sessions: [sessions, "array"] });
    checkOptions("ingest", options, { actor: "string?", onProgress: "function?", force: "boolean?", beforeFirstWrite: "function?" });
    const namespaces = sessions.map((s) => (typeof s?.session?.namespace === "string" ? s.session.namespace : ""));
    const { actor, ...rest } = options;
    const report = await this.#writes.runAll(namespaces, () => ingestSessions(this, sessions, { ...rest, change: changeStamp(actor) }));
    const touched = new Set(namespaces);
    this.#ingested(touched.size === 1 ? [...touched][0] : undefined, report.sessions - report.sessionsUnchanged, report.turnsWritten, report.unitsWritten);
    return report;
  }

  /**
   * Re-derives a namespace's units from the turns they keep verbatim, with
   * this memory's embedder and the given anchorer (default: this memory's):
   * every session anchored and embedded afresh, one transaction each.
   */
  async reanchor(namespace: string, options: { anchorer?: Anchorer; onProgress?: (p: IngestProgress) => void } = {}): Promise<IngestReport> {
    checkNamespace(namespace);
    checkOptions("reanchor", options, { anchorer: "object?", onProgress: "function?" });
    return this.#writes.run(namespace, () =>
      reanchorNamespace({ store: this.store, embedder: this.embedder, anchorer: options.anchorer ?? this.anchorer }, namespace, options.onProgress ? { onProgress: options.onProgress } : {}),
    );
  }

  /** Adds turns to a session (created when missing); only the new turns are anchored and embedded. */
  async appendTurns(request: Omit<AppendTurnsRequest, "namespace"> & { namespace?: string }, options: ActorOptions & { now?: Date } = {}): Promise<AppendTurnsReport> {
    checkOptions("appendTurns", request, { namespace: "string?", sessionId: "string", turns: "array" }, "request");
    checkSessionId(request.sessionId, "sessionId");
    checkOptions("appendTurns", options, WRITE_OPTIONS);
    const namespace = checkNamespace(request.namespace ?? this.defaultNamespace);
    const now = options.now ?? new Date();
    const report = await this.#writes.run(namespace, () => appendTurns(this, { ...request, namespace }, { now, change: changeStamp(options.actor, now) }));
    this.#ingested(namespace, 1, report.turnIds.length, report.unitsWritten);
    return report;
  }

  /** Deletes one unit, and its words from its neighbours' cues. False when the namespace has no such unit. */
  async forgetUnit(unitId: string, options: ForgetOptions & ActorOptions & { namespace?: string } = {}): Promise<boolean> {
    checkArgs("forgetUnit", { unitId: [unitId, "string"] });
    checkOptions("forgetUnit", options, FORGET_OPTIONS);
    const namespace = checkNamespace(options.namespace ?? this.defaultNamespace);
    return this.#forget(namespace, options, async () => {
      const deleted = await forgetUnit(this, namespace, unitId, changeStamp(options.actor));
      return { result: deleted, deleted: deleted ? 1 : 0 };
    });
  }

  /** Deletes a session and its units from every index; returns the number of units deleted. */
  async forgetSession(sessionId: string, options: ForgetOptions & ActorOptions & { namespace?: string } = {}): Promise<number> {
    // Any string: a session stored before ids of dots were refused can still be forgotten here.
    checkArgs("forgetSession", { sessionId: [sessionId, "string"] });
    checkOptions("forgetSession", options, FORGET_OPTIONS);
    const namespace = checkNamespace(options.namespace ?? this.defaultNamespace);
    return this.#forget(namespace, options, async () => {
      const sessionExisted = (await this.store.getSession(namespace, sessionId)) !== null;
      const deleted = await this.store.deleteSession(namespace, sessionId, { change: changeStamp(options.actor) });
      return { result: deleted, deleted: deleted + (sessionExisted ? 1 : 0) };
    });
  }

  /** Deletes everything in a namespace (named explicitly: no default); returns the number of units deleted. */
  async forgetNamespace(namespace: string, options: ForgetOptions & ActorOptions = {}): Promise<number> {
    // Left out, the namespace is not the default: emptying one is never what a forgotten argument should do.
    if (namespace === undefined)
      throw new RamemError("BAD_NAMESPACE", "a whole-namespace delete (reset, deleteAll, forgetNamespace) needs its namespace named: the default namespace is not used here", {
        where: "namespace",
        hint: 'pass it, e.g. reset("user-42") or deleteAll({ namespace: "user-42" }); nothing was deleted',
      });
    checkNamespace(namespace);
    checkOptions("forgetNamespace", options, FORGET_OPTIONS);
    return this.#forget(namespace, options, async () => {
      const stats = await this.store.stats(namespace);
      const deleted = await this.store.deleteNamespace(namespace, { change: changeStamp(options.actor) });
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
  async exportNamespace(namespace?: string, options: { now?: Date } = {}): Promise<string[]> {
    checkArgs("exportNamespace", { namespace: [namespace, "string?"] });
    checkOptions("exportNamespace", options, { now: "date?" });
    const ns = checkNamespace(namespace ?? this.defaultNamespace);
    return this.#writes.run(ns, () => exportNamespace(this, ns, options.now));
  }

  /** Restores an export into an empty namespace (default: the exported one), vectors as given. */
  async importNamespace(text: string, options: ActorOptions & { namespace?: string; source?: string } = {}): Promise<ImportReport> {
    checkArgs("importNamespace", { text: [text, "string"] });
    checkOptions("importNamespace", options, { namespace: "string?", actor: "string?", source: "string?" });
    // The target is only known once the header is read; the header is the first line.
    const namespace = options.namespace ?? headerNamespace(text);
    const report = await this.#writes.run(namespace, () => importNamespace(this, text, options));
    // An import carries units, not turns to anchor: no turns are counted.
    this.#ingested(report.namespace, report.sessions, 0, report.units);
    return report;
  }

  /** Recall units for a query: the induced recall frame, and hits that say why each is there. */
  async recall(query: string, options: RecallOptions = {}): Promise<RecallOutcome> {
    checkArgs("recall", { query: [query, "string"] });
    checkOptions("recall", options, { ...READ_OPTIONS, questionDate: "string?" });
    const namespace = checkNamespace(options.namespace ?? this.defaultNamespace);
    const k = options.k ?? 10;
    if (typeof query !== "string" || !query.trim()) throw new RamemError("BAD_QUERY", "the query is empty", { where: "query", hint: "pass the question or topic to recall" });
    const minScore = options.minScore ?? 0;
    if (typeof minScore !== "number" || !(minScore >= 0 && minScore <= 1)) {
      throw new RamemError("BAD_MIN_SCORE", `minScore must be a number from 0 to 1, got ${String(minScore)}`, { where: "minScore", hint: "scores are in [0, 1], an estimate that the hit is evidence; 0.1 kept every right top hit measured (docs/api.md › Scores)" });
    }
    const where: FilterNode | undefined = options.filter === undefined ? undefined : parseFilter(options.filter);
    if (options.validAt !== undefined && (typeof options.validAt !== "string" || Number.isNaN(Date.parse(options.validAt)))) {
      throw new RamemError("BAD_VALID_AT", `validAt must be an ISO 8601 date or instant, got ${JSON.stringify(options.validAt)}`, { where: "validAt", hint: 'e.g. "2022-06-01" or "2022-06-01T12:00:00Z"' });
    }
    if (!Number.isInteger(k) || k < 1 || k > 1000) throw new RamemError("BAD_K", `k must be an integer from 1 to 1000, got ${typeof k === "number" ? k : describeValue(k)}`, { where: "k" });
    if (options.llmFrame && !this.languageModel) {
      throw new RamemError("NO_LLM", "llmFrame needs a language model, and none is configured", {
        hint: "set RAMEM_LLM_BASE_URL and RAMEM_LLM_MODEL (CLI), or pass languageModel to Memory; or drop llmFrame",
      });
    }
    // A store built with another embedder would compare vectors of two models: refuse early.
    await (this.#bound ??= this.store.bindEmbedder(this.embedder.id, this.embedder.dimensions));
    const outcome = await runRecall(this, {
      namespace,
      query,
      k,
      ...(where ? { where } : {}),
      ...(options.fusion ? { fusion: options.fusion } : {}),
      ...(options.questionDate ? { questionDate: options.questionDate } : {}),
      ...(options.validAt !== undefined ? { validAt: new Date(options.validAt).toISOString() } : {}),
      ...(options.switches ? { switches: options.switches } : {}),
      ...(options.llmFrame && this.languageModel ? { frameModel: this.languageModel } : {}),
      ...(this.#events.listening ? { onStageTimes: (stageMs: RecallStageTimes) => this.#events.emit("recalled", { namespace, stageMs }) } : {}),
    });
    // Scores fall with rank, so the cut keeps a prefix of the list.
    return minScore > 0 ? { ...outcome, hits: outcome.hits.filter((h) => h.score >= minScore) } : outcome;
  }

  /** Recall, then answer from the evidence pack with the configured LLM; `answer` is null without one. */
  async ask(question: string, options: Partial<AskOptions> = {}): Promise<AskResult> {
    checkArgs("ask", { question: [question, "string"] });
    checkOptions("ask", options, { ...READ_OPTIONS, questionDate: "string?", abstain: "boolean?" });
    checkNamespace(options.namespace ?? this.defaultNamespace);
    return askMemory(
      {
        recall: (q, o) => this.recall(q, o),
        ...(this.languageModel ? { languageModel: this.languageModel } : {}),
      },
      question,
      { ...options, namespace: options.namespace ?? this.defaultNamespace },
    );
  }

  async list(filter: UnitFilter & { namespace?: string } = {}): Promise<MemoryUnit[]> {
    checkOptions("list", filter, { ...READ_OPTIONS, sessionId: "string?", participant: "string?", from: "string?", to: "string?", limit: "number?", offset: "number?" }, "filter");
    return this.store.listUnits(checkNamespace(filter.namespace ?? this.defaultNamespace), filter);
  }

  async stats(namespace?: string): Promise<StoreStats> {
    checkArgs("stats", { namespace: [namespace, "string?"] });
    return this.store.stats(namespace === undefined ? undefined : checkNamespace(namespace));
  }

  async close(): Promise<void> {
    try {
      await this.store.close();
    } finally {
      try {
        if (this.#ownsEmbedder) await this.embedder.close?.();
      } finally {
        if (this.#ownsAnchorer) await this.anchorer.close?.();
      }
    }
  }
}

/** A namespace name as every face accepts it, else BAD_NAMESPACE: model/check-namespace.ts. */
export { checkNamespace };

/** The options every read and write takes (checked with checkOptions: plain JavaScript callers pass anything). */
const READ_OPTIONS: Readonly<Record<string, ArgKind>> = { namespace: "string?" };
const WRITE_OPTIONS: Readonly<Record<string, ArgKind>> = { namespace: "string?", actor: "string?", now: "date?" };
const FORGET_OPTIONS: Readonly<Record<string, ArgKind>> = { namespace: "string?", actor: "string?", purge: "boolean?", onScrubbed: "function?" };

/** A session id a write may create: SessionId (model/conversation.ts), else BAD_SESSION_ID. */
function checkSessionId(id: string, where: string): void {
  const r = SessionId.safeParse(id);
  if (!r.success) throw new RamemError("BAD_SESSION_ID", `${echoValue(id)} is not a session id: ${r.error.issues[0]?.message ?? "invalid"}`, { where, hint: "a session id is 1 to 200 characters, not only dots; nothing was stored" });
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
