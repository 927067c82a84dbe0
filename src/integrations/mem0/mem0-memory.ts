import { DEFAULT_DB_PATH, openMemory } from "../../open-memory.js";
import type { Memory as RamemMemory } from "../../memory.js";
import { newSessionId } from "../../anchoring/choose-session.js";
import { RamemError } from "../../model/errors.js";
import { echoValue } from "../../model/echo-value.js";
import { checkMetadata, type Metadata } from "../../model/metadata.js";
import { parseFilter, type FilterInput } from "../../model/memory-filter.js";
import type { MemoryUnit } from "../../model/memory-unit.js";
import { ignoredConfigWarning, parseConfig, type ParsedConfig } from "./mem0-config.js";
import { checkRunId, hasAnyId, idsOf, metadataWithEntities, namespaceOf, translateFilters } from "./mem0-scope.js";
import { toMem0History, toMem0Item } from "./to-mem0-shapes.js";
import {
  badArgument,
  checkCount,
  checkMemoryId,
  checkMoment,
  checkOptionKeys,
  checkThreshold,
  checkType,
  relocateMessageError,
  toKeptMessages,
} from "./mem0-input.js";
import type {
  AddMemoryOptions,
  DeleteAllMemoryOptions,
  GetAllMemoryOptions,
  Mem0Config,
  MemoryHistoryEntry,
  MemoryItem,
  Message,
  SearchMemoryOptions,
  SearchResult,
  UpdateMemoryOptions,
} from "./types.js";

const ADD_KEYS = ["userId", "agentId", "runId", "metadata", "filters", "infer", "timestamp", "expirationDate"] as const;
const SEARCH_KEYS = ["topK", "limit", "filters", "threshold", "explain", "referenceDate", "rerank", "showExpired", "userId", "agentId", "runId"] as const;
const GET_ALL_KEYS = ["topK", "limit", "filters", "showExpired", "userId", "agentId", "runId"] as const;
const UPDATE_KEYS = ["text", "data", "metadata", "expirationDate"] as const;
const DELETE_ALL_KEYS = ["userId", "agentId", "runId"] as const;

/** Mem0's defaults (3.3.1): search and getAll return 20 memories unless told otherwise. */
const DEFAULT_TOP_K = 20;
/** ramem's recall and getAll pages take at most this many. */
const MAX_PAGE = 1000;
/** The id → namespace cache is a shortcut, not a store: dropped whole past this size. */
const MAX_CACHED_IDS = 50_000;

/** Each distinct warning once per process: a server constructing many Memories would otherwise repeat it. */
const warned = new Set<string>();

const NO_SCOPE_HINT = 'Mem0 scopes every memory: e.g. { userId: "alice" } (or filters: { user_id: "alice" })';

function unsupported(where: string, message: string, hint: string): RamemError {
  return new RamemError("UNSUPPORTED", message, { where, hint: `${hint}; nothing was changed` });
}

/**
 * Mem0's OSS `Memory` (`mem0ai/oss` 3.3.1) on ramem: the same method names,
 * options and result shapes, offline and with no LLM call. Switch by
 * changing the import (README.md here: the migration table and where
 * semantics differ). The store opens on the first call (Mem0 initialises
 * lazily too); `close()` is ramem's addition, for a process that opens and
 * closes stores.
 */
export class Memory {
  /** The parts of the config given that change nothing here (llm, embedder, vectorStore, …). */
  readonly ignoredConfig: readonly string[];
  readonly #config: ParsedConfig;
  #opening: Promise<RamemMemory> | undefined;
  readonly #namespaceOfId = new Map<string, string>();

  constructor(config?: Mem0Config) {
    this.#config = parseConfig(config);
    this.ignoredConfig = Object.freeze([...this.#config.ignored]);
    if (this.ignoredConfig.length > 0) {
      const message = ignoredConfigWarning(this.ignoredConfig);
      if (!warned.has(message)) {
        warned.add(message);
        process.emitWarning(message, { code: "RAMEM_MEM0_IGNORED_CONFIG" });
      }
    }
  }

  /** Mem0's factory: the same as `new Memory(config)`. */
  static fromConfig(configDict: Record<string, unknown>): Memory {
    return new Memory(configDict as Mem0Config);
  }

  /** The ramem Memory behind it, opened on first use: the given one, else the SQLite file (config.db, $RAMEM_DB, ./ramem.db). */
  async ramem(): Promise<RamemMemory> {
    if (this.#config.memory) return this.#config.memory;
    // languageModel null: never an LLM call, whatever RAMEM_LLM_* says. A failed open is retried by the next call, as Mem0 retries its init.
    this.#opening ??= openMemory({ db: this.#config.db ?? (process.env.RAMEM_DB || DEFAULT_DB_PATH), languageModel: null }).catch((err: unknown) => {
      this.#opening = undefined;
      throw err;
    });
    return this.#opening;
  }

  /**
   * Stores messages as memories: one per message (system and blank messages
   * are left out, as Mem0 does), each anchored with its episode — the
   * session (runId, else the latest one without a run unless idle), its
   * time, speaker, place and people. `infer` changes nothing: no LLM
   * extracts facts, the message is what is kept.
   */
  async add(messages: string | Message[], options?: AddMemoryOptions): Promise<SearchResult> {
    const kept = toKeptMessages(messages);
    const opts = checkOptionKeys("add", options, ADD_KEYS);
    checkType(opts.infer, "boolean", "infer");
    checkType(opts.filters, "object", "filters");
    if (opts.expirationDate !== undefined && opts.expirationDate !== null) {
      throw unsupported("expirationDate", "ramem memories do not expire", "leave expirationDate out; delete a memory with delete(id) when it no longer holds");
    }
    const metadata = opts.metadata === undefined ? undefined : checkMetadata(opts.metadata, "metadata");
    const ids = idsOf(opts, opts.filters as Record<string, unknown> | undefined);
    if (!hasAnyId(ids)) throw badArgument("userId", "add needs one of userId, agentId or runId, as in Mem0", NO_SCOPE_HINT);
    if (ids.run_id !== undefined) checkRunId(ids.run_id);
    const now = checkMoment(opts.timestamp, "timestamp") ?? new Date();
    const memory = await this.ramem();
    const namespace = namespaceOf(ids, memory.defaultNamespace);
    if (kept.length === 0) return { results: [] };
    const report = await memory
      .add(
        kept.map((k) => k.message),
        { namespace, sessionId: ids.run_id ?? (await sessionWithoutRun(memory, namespace, now)), metadata: metadataWithEntities(metadata, ids), now },
      )
      .catch((err: unknown) => {
        throw relocateMessageError(err, kept, typeof messages === "string");
      });
    const units = await this.#units(memory, namespace, report.unitIds);
    return { results: units.map((u): MemoryItem => ({ id: u.id, memory: u.content, event: "ADD", metadata: { event: "ADD" } })) };
  }

  /** RaMem's recall in the scope's namespace: the best `topK` (default 20) memories, each with its score in [0, 1]. */
  async search(query: string, options?: SearchMemoryOptions): Promise<SearchResult> {
    if (typeof query !== "string" || query.trim() === "") throw badArgument("query", "search needs a query: a non-empty string", 'e.g. search("What do you know about me?", { filters: { user_id: "alice" } })');
    const opts = checkOptionKeys("search", options, SEARCH_KEYS);
    const topK = checkCount(opts.topK ?? opts.limit, opts.topK === undefined && opts.limit !== undefined ? "limit" : "topK", DEFAULT_TOP_K);
    const minScore = checkThreshold(opts.threshold);
    for (const key of ["explain", "rerank", "showExpired"] as const) checkType(opts[key], "boolean", key);
    const questionDate = checkMoment(opts.referenceDate, "referenceDate");
    const { namespace, filter, memory } = await this.#scope(opts);
    if (topK === 0) return { results: [] };
    const outcome = await memory.recall(query, {
      namespace,
      k: Math.min(topK, MAX_PAGE),
      ...(filter ? { filter } : {}),
      ...(minScore !== undefined ? { minScore } : {}),
      ...(questionDate ? { questionDate: questionDate.toISOString() } : {}),
    });
    return {
      results: outcome.hits.map((h): MemoryItem => {
        this.#remember(h.unit);
        return {
          ...toMem0Item(h.unit, memory.defaultNamespace),
          score: h.score,
          ...(opts.explain === true ? { score_details: { rank: h.rank, reasons: h.reasons } } : {}),
        };
      }),
    };
  }

  /** One memory by id (ramem's u_… ids), or null. */
  async get(memoryId: string): Promise<MemoryItem | null> {
    const id = checkMemoryId(memoryId, "get");
    const memory = await this.ramem();
    const unit = await this.#find(memory, id);
    return unit ? toMem0Item(unit, memory.defaultNamespace) : null;
  }

  /** The scope's memories in conversation order, the first `topK` (default 20). */
  async getAll(options?: GetAllMemoryOptions): Promise<SearchResult> {
    const opts = checkOptionKeys("getAll", options, GET_ALL_KEYS);
    const topK = checkCount(opts.topK ?? opts.limit, opts.topK === undefined && opts.limit !== undefined ? "limit" : "topK", DEFAULT_TOP_K);
    checkType(opts.showExpired, "boolean", "showExpired");
    const { namespace, filter, memory } = await this.#scope(opts);
    const units: MemoryUnit[] = [];
    let cursor: string | undefined;
    while (units.length < topK) {
      const page = await memory.getAll({ namespace, ...(filter ? { filter } : {}), limit: Math.min(MAX_PAGE, topK - units.length), ...(cursor ? { cursor } : {}) });
      units.push(...page.memories);
      if (page.nextCursor === null) break;
      cursor = page.nextCursor;
    }
    return {
      results: units.map((u) => {
        this.#remember(u);
        return toMem0Item(u, memory.defaultNamespace);
      }),
    };
  }

  /**
   * Corrects a memory's text: anchored and embedded again, same id; the old
   * text goes to its history. Only the text: metadata and expirationDate are
   * refused (a memory keeps the metadata it was added with).
   */
  async update(memoryId: string, change: string | UpdateMemoryOptions): Promise<{ message: string }> {
    const id = checkMemoryId(memoryId, "update");
    const opts = typeof change === "string" ? { text: change } : checkOptionKeys("update", change, UPDATE_KEYS);
    if (opts.metadata !== undefined) throw unsupported("metadata", "ramem keeps the metadata a memory was added with", "update the text only");
    if (opts.expirationDate !== undefined) throw unsupported("expirationDate", "ramem memories do not expire", "update the text only");
    const text = opts.text ?? opts.data;
    const where = opts.text === undefined && opts.data !== undefined ? "data" : "text";
    if (typeof text !== "string" || text.trim() === "") throw badArgument(where, `update needs the new text (a non-empty string), got ${text === undefined ? "none" : echoValue(String(text))}`, 'e.g. update(id, "Loves sci-fi and documentaries")');
    const memory = await this.ramem();
    const unit = await this.#find(memory, id);
    if (!unit) throw notFound(id);
    await memory.update(id, { text }, { namespace: unit.namespace });
    return { message: "Memory updated successfully!" };
  }

  /** Forgets one memory, down to the bytes (ramem scrubs what a delete removed); its history keeps that it was deleted. */
  async delete(memoryId: string): Promise<{ message: string }> {
    const id = checkMemoryId(memoryId, "delete");
    const memory = await this.ramem();
    const unit = await this.#find(memory, id);
    if (!unit || !(await memory.forgetUnit(id, { namespace: unit.namespace }))) throw notFound(id);
    this.#namespaceOfId.delete(id);
    return { message: "Memory deleted successfully!" };
  }

  /**
   * Forgets a scope: a userId (or an agentId of its own) is the whole
   * namespace, a runId that session, an agentId beside a userId the units it
   * added. At least one id is needed, as in Mem0 (reset() empties everything).
   */
  async deleteAll(options?: DeleteAllMemoryOptions): Promise<{ message: string }> {
    const opts = checkOptionKeys("deleteAll", options, DELETE_ALL_KEYS);
    const ids = idsOf(opts, undefined);
    if (!hasAnyId(ids)) throw badArgument("userId", "deleteAll needs one of userId, agentId or runId, as in Mem0", "to delete every memory of the store use reset()");
    const memory = await this.ramem();
    const namespace = namespaceOf(ids, memory.defaultNamespace);
    const agentBesideUser = ids.agent_id !== undefined && ids.user_id !== undefined;
    if (!agentBesideUser && ids.run_id === undefined) {
      await memory.forgetNamespace(namespace);
    } else if (!agentBesideUser && ids.run_id !== undefined) {
      await memory.forgetSession(ids.run_id, { namespace });
    } else {
      const conditions: FilterInput[] = [{ "metadata.agent_id": ids.agent_id }, ...(ids.run_id !== undefined ? [{ sessionId: ids.run_id }] : [])];
      const where = parseFilter(conditions.length === 1 ? conditions[0] : { AND: conditions });
      // One forget per unit, each through Memory (its lock, history and scrub); the first page is read again as each pass removes it.
      for (;;) {
        const batch = await memory.store.listUnits(namespace, { where, limit: 500, offset: 0 });
        let removed = 0;
        for (const u of batch) if (await memory.forgetUnit(u.id, { namespace })) removed++;
        if (batch.length === 0 || removed === 0) break;
      }
    }
    return { message: "Memories deleted successfully!" };
  }

  /** What happened to a memory, newest first as in Mem0; kept after a delete (without its text). [] for an unknown id. */
  async history(memoryId: string): Promise<MemoryHistoryEntry[]> {
    const id = checkMemoryId(memoryId, "history");
    const memory = await this.ramem();
    const unit = await this.#find(memory, id);
    const namespaces = unit ? [unit.namespace] : await memory.store.listNamespaces();
    for (const namespace of namespaces) {
      const events = await memory.history(id, { namespace });
      if (events.length > 0) return toMem0History(events);
    }
    return [];
  }

  /** Empties the whole store — every namespace — as Mem0's reset empties its collection. */
  async reset(): Promise<void> {
    const memory = await this.ramem();
    for (const namespace of await memory.store.listNamespaces()) await memory.forgetNamespace(namespace);
    this.#namespaceOfId.clear();
  }

  /** Closes the store this Memory opened (not a `memory` it was given); the next call opens it again. */
  async close(): Promise<void> {
    const opening = this.#opening;
    this.#opening = undefined;
    this.#namespaceOfId.clear();
    if (opening) await (await opening).close();
  }

  /** The namespace and ramem filter of a search or getAll: filters, with Mem0 2.x's top-level ids read as equalities. */
  async #scope(opts: Record<string, unknown>): Promise<{ namespace: string; filter: FilterInput | undefined; memory: RamemMemory }> {
    const { ids, filter } = translateFilters(opts.filters, idsOf(opts, undefined));
    if (!hasAnyId(ids)) throw badArgument("filters", "filters must contain at least one of user_id, agent_id, run_id, as in Mem0", NO_SCOPE_HINT);
    // Checked here so a bad filter names "filters", before the store opens.
    if (filter) parseFilter(filter, "filters");
    const memory = await this.ramem();
    return { namespace: namespaceOf(ids, memory.defaultNamespace), filter, memory };
  }

  async #units(memory: RamemMemory, namespace: string, ids: readonly string[]): Promise<MemoryUnit[]> {
    const byId = new Map((await memory.store.getUnits(namespace, ids)).map((u) => [u.id, u]));
    return ids.flatMap((id) => {
      const u = byId.get(id);
      if (u) this.#remember(u);
      return u ? [u] : [];
    });
  }

  #remember(unit: MemoryUnit): void {
    if (this.#namespaceOfId.size >= MAX_CACHED_IDS) this.#namespaceOfId.clear();
    this.#namespaceOfId.set(unit.id, unit.namespace);
  }

  /**
   * A unit by id alone, as Mem0's calls give it: the namespace this Memory
   * saw it in, else every namespace of the store in turn (ids are derived
   * from the namespace, so at most one holds it).
   */
  async #find(memory: RamemMemory, unitId: string): Promise<MemoryUnit | null> {
    const cached = this.#namespaceOfId.get(unitId);
    for (const namespace of cached !== undefined ? [cached] : await memory.store.listNamespaces()) {
      const [unit] = await memory.store.getUnits(namespace, [unitId]);
      if (unit) {
        this.#remember(unit);
        return unit;
      }
    }
    return null;
  }
}

function notFound(id: string): RamemError {
  return new RamemError("MEMORY_NOT_FOUND", `no memory ${echoValue(id)} in this store`, {
    where: "memoryId",
    hint: "ramem's ids look like u_…, as add, search and getAll return them; memories stored by Mem0 itself are not in ramem until added again",
  });
}

/**
 * The session of an add without runId: Memory.add's own rule (the latest
 * session unless idle for idleMinutes, else a new one) among the sessions no
 * run made — left to Memory.add, the messages could continue a run's session
 * and then read as part of that run. The same rule as `ramem serve`'s Mem0 add.
 */
async function sessionWithoutRun(memory: RamemMemory, namespace: string, now: Date): Promise<string> {
  let latest: { id: string; end: number } | null = null;
  for (const s of await memory.store.listSessions(namespace)) {
    if (typeof (s.metadata as Metadata | undefined)?.run_id === "string") continue;
    const end = Date.parse(s.endTime);
    if (!latest || end > latest.end) latest = { id: s.id, end };
  }
  return latest && now.getTime() - latest.end <= memory.idleMinutes * 60_000 ? latest.id : newSessionId(now);
}

