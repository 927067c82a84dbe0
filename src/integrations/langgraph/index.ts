/**
 * ramem for LangGraph.js (`ramem/langgraph`): a `BaseStore` whose items are
 * ramem sessions, so `search({ query })` is RaMem's recall. `@langchain/langgraph`
 * is a peer dependency: this entry loads it, the main `ramem` entry does not.
 * The mapping (item ↔ session) is item-codec.ts; README.md says why.
 */
import {
  BaseStore,
  type GetOperation,
  type Item,
  type ListNamespacesOperation,
  type MatchCondition,
  type Operation,
  type OperationResults,
  type PutOperation,
  type SearchOperation,
} from "@langchain/langgraph";
import type { Memory } from "../../memory.js";
import { checkNamespace } from "../../model/check-namespace.js";
import { RamemError } from "../../model/errors.js";
import type { FilterInput } from "../../model/memory-filter.js";
import type { SessionWithTurns, Turn, TurnRole } from "../../model/conversation.js";
import { META, decodeMetadata, decodeSession, encodeMetadata, indexedTexts, matchesFilter, refKey, sessionIdOf, type DecodedItem, type ItemRef } from "./item-codec.js";

export interface RamemStoreOptions {
  memory: Memory;
  /** The ramem namespace that holds every item of this store (default "langgraph"); two stores on one database with two namespaces never see each other's items. */
  namespace?: string;
  /**
   * Which fields of a value are anchored and embedded (LangGraph's
   * `index.fields`; default ["$"], the whole value). `dims` and `embeddings`
   * are accepted for drop-in compatibility and ignored: the memory's
   * embedder embeds, so recall compares vectors of one model.
   */
  index?: { fields?: string[]; dims?: number; embeddings?: unknown };
  /** Who says an item's text in its turns (default "user", a role: "I" stays "I"). */
  speaker?: string;
  /** The role of that speaker (default "user"). */
  role?: TurnRole;
}

/** LangGraph's SearchItem (@langchain/langgraph does not re-export it): an item with the relevance of a ranked search. */
export type SearchItem = Item & { score?: number };

/** recall returns at most this many units, so a ranked search reaches its first 1000 units. */
const MAX_RECALL_K = 1000;
/** The one turn of an item with no indexed text (never recalled: its lgIndexed is false). */
const NOT_INDEXED = "not indexed";
/** The filter language's largest `in` list (model/memory-filter.ts MAX_FILTER_LIST). */
const IN_LIST = 1000;

/**
 * A LangGraph.js long-term memory store backed by a ramem `Memory`: each
 * item is one ramem session in one ramem namespace, its value kept as JSON
 * in the session's metadata and the text its index fields select anchored
 * and embedded as the session's turns. `put` replaces the session in one
 * transaction, `delete` forgets it (down to the bytes), `search` with a
 * query runs RaMem's recall and scores each item by its best unit.
 */
export class RamemStore extends BaseStore {
  readonly memory: Memory;
  /** The ramem namespace this store's items live in. */
  readonly namespace: string;
  readonly #fields: readonly string[];
  readonly #speaker: string;
  readonly #role: TurnRole;
  /** The last time a put stamped: times are kept strictly increasing, so listing order is creation order even within a millisecond. */
  #lastStamp = 0;
  /** Writes of one store run one after another: a put reads the stored createdAt before it replaces the session. */
  #writes: Promise<unknown> = Promise.resolve();

  constructor(options: RamemStoreOptions) {
    super();
    if (typeof options !== "object" || options === null || typeof options.memory?.recall !== "function") {
      throw new RamemError("BAD_OPTION", "RamemStore needs { memory }", { where: "RamemStore", hint: 'e.g. new RamemStore({ memory: await openMemory({ db: "ramem.db" }) })' });
    }
    this.memory = options.memory;
    this.namespace = checkNamespace(options.namespace ?? "langgraph");
    const fields = options.index?.fields ?? ["$"];
    if (!Array.isArray(fields) || fields.some((f) => typeof f !== "string")) {
      throw new RamemError("BAD_OPTION", "index.fields must be a list of paths", { where: "index.fields", hint: 'e.g. ["text", "metadata.title", "chapters[*].content"]; "$" is the whole value' });
    }
    this.#fields = fields;
    this.#speaker = options.speaker ?? "user";
    this.#role = options.role ?? "user";
  }

  /**
   * As InMemoryStore: every read of the batch sees the store as it was before
   * the batch, then the puts apply, the last one of an item winning.
   */
  async batch<Op extends Operation[]>(operations: Op): Promise<OperationResults<Op>> {
    const results: unknown[] = [];
    const puts = new Map<string, PutOperation>();
    for (const op of operations) {
      if ("namespacePrefix" in op) {
        results.push(await this.#search(op));
      } else if ("value" in op) {
        checkLabels(op.namespace, "namespace", false);
        checkKey(op.key);
        const id = refKey(op);
        puts.delete(id);
        puts.set(id, op);
        // null, as InMemoryStore answers a put.
        results.push(null);
      } else if ("key" in op) {
        results.push(await this.#get(op));
      } else if ("limit" in op || "matchConditions" in op) {
        results.push(await this.#listNamespaces(op));
      } else {
        throw new RamemError("BAD_OPERATION", "an operation is a get, put, search or list-namespaces operation", { where: "batch", hint: "see BaseStore.batch in @langchain/langgraph" });
      }
    }
    if (puts.size > 0) await this.#serially(() => this.#applyPuts([...puts.values()]));
    return results as OperationResults<Op>;
  }

  async #get(op: GetOperation): Promise<Item | null> {
    checkLabels(op.namespace, "namespace", false);
    checkKey(op.key);
    const session = await this.memory.store.getSession(this.namespace, sessionIdOf(op));
    const item = session ? decodeSession(session) : null;
    return item && sameRef(item, op) ? toItem(item) : null;
  }

  /**
   * Every put of the batch is checked and built before the first write, so a
   * bad one (too large, not JSON) leaves the store as it was; the new values
   * are then one ingest, and the deletes forgets.
   */
  async #applyPuts(ops: readonly PutOperation[]): Promise<void> {
    const sessions: SessionWithTurns[] = [];
    const forgets: string[] = [];
    for (const op of ops) {
      if (op.value === null) forgets.push(sessionIdOf(op));
      else sessions.push(await this.#sessionOf(op, op.value));
    }
    if (sessions.length > 0) await this.memory.ingest(sessions);
    for (const sessionId of forgets) await this.memory.forgetSession(sessionId, { namespace: this.namespace });
  }

  /** The session that holds a put's item. */
  async #sessionOf(op: PutOperation, value: Record<string, unknown>): Promise<SessionWithTurns> {
    const sessionId = sessionIdOf(op);
    if (typeof value !== "object" || Array.isArray(value)) {
      throw new RamemError("BAD_VALUE", `the value of ${JSON.stringify(op.key)} must be a JSON object, got ${Array.isArray(value) ? "an array" : typeof value}`, { where: "value", hint: "wrap it: { value: ... }; nothing was stored" });
    }
    if (op.index !== undefined && op.index !== false && (!Array.isArray(op.index) || op.index.some((f) => typeof f !== "string"))) {
      throw new RamemError("BAD_INDEX", "index must be false or a list of paths", { where: "index", hint: 'e.g. ["text"]; false stores the item without anchoring its text' });
    }
    // The JSON check first: a value that is not JSON (a cycle) must not reach the text walk.
    const metadata = encodeMetadata(op, value, false);
    const texts = op.index === false ? [] : indexedTexts(value, op.index ?? this.#fields);
    metadata[META.indexed] = texts.length > 0;
    const stored = await this.memory.store.getSession(this.namespace, sessionId);
    const now = this.#stamp();
    // createdAt survives a replace: the session starts when the item was first put.
    const startTime = stored && decodeSession(stored) ? stored.startTime : now;
    const endTime = Date.parse(startTime) > Date.parse(now) ? startTime : now;
    // An item with nothing to index still needs a turn to exist; lgIndexed=false keeps it out of recall.
    const words = texts.length > 0 ? texts : [NOT_INDEXED];
    const turns: Turn[] = words.map((text, i) => ({ id: `t${i + 1}`, speaker: this.#speaker, role: this.#role, text, time: endTime }));
    return { session: { id: sessionId, namespace: this.namespace, startTime, endTime, participants: [this.#speaker], metadata }, turns };
  }

  async #search(op: SearchOperation): Promise<SearchItem[]> {
    const prefix = op.namespacePrefix;
    checkLabels(prefix, "namespacePrefix", true);
    const limit = checkCount(op.limit ?? 10, "limit");
    const offset = checkCount(op.offset ?? 0, "offset");
    if (limit === 0) return [];
    const query = typeof op.query === "string" && op.query.trim() ? op.query : undefined;
    const needsList = !query || op.filter !== undefined;
    // Listing, a value filter and the items recall cannot rank read the session list: the value is JSON, not a field the store's SQL can filter on.
    const candidates = needsList ? (await this.#items()).filter((it) => hasPrefix(it.namespace, prefix) && matchesFilter(it.value, op.filter)) : [];
    if (!query) return candidates.slice(offset, offset + limit).map((it) => ({ ...toItem(it), score: undefined }));
    if (op.filter !== undefined && candidates.length === 0) return [];

    const scope: FilterInput = { [`metadata.${META.indexed}`]: true };
    prefix.forEach((label, i) => (scope[`metadata.${META.label(i)}`] = label));
    const indexed = candidates.filter((it) => it.indexed);
    // With a value filter, recall searches only the items it selects (inside the store's search, so they are not crowded out).
    const filter: FilterInput = op.filter === undefined ? scope : { AND: [scope, sessionsIn(indexed.map((it) => it.sessionId))] };
    const ranked = op.filter !== undefined && indexed.length === 0 ? [] : await this.#rank(query, filter, offset + limit);
    // As InMemoryStore: items without indexed text come after the ranked ones, without a score.
    const unranked = op.filter === undefined ? (await this.#items()).filter((it) => !it.indexed && hasPrefix(it.namespace, prefix)) : candidates.filter((it) => !it.indexed);
    return [...ranked, ...unranked.map((it) => ({ ...toItem(it), score: undefined }))].slice(offset, offset + limit);
  }

  /** Recall's hits as items, each once at its best unit's score, until `wanted` items or recall's k limit. */
  async #rank(query: string, filter: FilterInput, wanted: number): Promise<SearchItem[]> {
    for (let k = Math.min(MAX_RECALL_K, wanted); ; k = Math.min(MAX_RECALL_K, k * 2)) {
      const { hits } = await this.memory.recall(query, { namespace: this.namespace, k, filter });
      const seen = new Map<string, SearchItem>();
      for (const hit of hits) {
        const sessionId = hit.unit.context.session.sessionId;
        if (seen.has(sessionId)) continue;
        const item = decodeMetadata(hit.unit.metadata);
        if (!item) continue;
        const span = hit.unit.context.session;
        seen.set(sessionId, { namespace: item.namespace, key: item.key, value: item.value, createdAt: new Date(span.start), updatedAt: new Date(span.end), score: hit.score });
      }
      // Several units of one item (a value indexed at several fields) can fill k: ask for more.
      if (seen.size >= wanted || hits.length < k || k === MAX_RECALL_K) return [...seen.values()];
    }
  }

  async #listNamespaces(op: ListNamespacesOperation): Promise<string[][]> {
    const limit = checkCount(op.limit ?? 100, "limit");
    const offset = checkCount(op.offset ?? 0, "offset");
    if (op.maxDepth !== undefined && !(Number.isInteger(op.maxDepth) && op.maxDepth > 0)) {
      throw new RamemError("BAD_MAX_DEPTH", `maxDepth must be a positive integer, got ${String(op.maxDepth)}`, { where: "maxDepth" });
    }
    const byJoined = new Map<string, string[]>();
    for (const { namespace } of await this.#items()) {
      if (!(op.matchConditions ?? []).every((c) => matches(c, namespace))) continue;
      const kept = op.maxDepth === undefined ? namespace : namespace.slice(0, op.maxDepth);
      byJoined.set(JSON.stringify(kept), kept);
    }
    // InMemoryStore's order: the labels joined by ":", compared as locale strings.
    const sorted = [...byJoined.values()].sort((a, b) => a.join(":").localeCompare(b.join(":")));
    return sorted.slice(offset, offset + limit);
  }

  /** Every item of the store, in the order they were first put. */
  async #items(): Promise<DecodedItem[]> {
    const sessions = await this.memory.store.listSessions(this.namespace);
    return sessions.flatMap((s) => decodeSession(s) ?? []);
  }

  #serially<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#writes.then(work, work);
    this.#writes = run.catch(() => undefined);
    return run;
  }

  #stamp(): string {
    const now = Math.max(Date.now(), this.#lastStamp + 1);
    this.#lastStamp = now;
    return new Date(now).toISOString();
  }
}

function toItem(it: DecodedItem): Item {
  return { namespace: it.namespace, key: it.key, value: it.value, createdAt: it.createdAt, updatedAt: it.updatedAt };
}

/** Guards against a session id collision, however unlikely: the session must name the item asked for. */
function sameRef(a: ItemRef, b: ItemRef): boolean {
  return a.key === b.key && a.namespace.length === b.namespace.length && a.namespace.every((l, i) => l === b.namespace[i]);
}

function hasPrefix(namespace: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= namespace.length && prefix.every((l, i) => namespace[i] === l);
}

function matches(condition: MatchCondition, namespace: readonly string[]): boolean {
  const { matchType, path } = condition;
  if (path.length > namespace.length) return false;
  const start = matchType === "prefix" ? 0 : namespace.length - path.length;
  if (matchType !== "prefix" && matchType !== "suffix") {
    throw new RamemError("BAD_MATCH_TYPE", `unknown match type ${JSON.stringify(matchType)}`, { where: "matchConditions", hint: 'use "prefix" or "suffix"' });
  }
  return path.every((label, i) => label === "*" || namespace[start + i] === label);
}

/** sessionId in the list, split into the filter language's largest lists. */
function sessionsIn(ids: readonly string[]): FilterInput {
  const lists: FilterInput[] = [];
  for (let i = 0; i < ids.length; i += IN_LIST) lists.push({ sessionId: { in: ids.slice(i, i + IN_LIST) } });
  return lists.length === 1 ? lists[0]! : { OR: lists };
}

/**
 * LangGraph's namespace rules (validateNamespace), checked here too because
 * batch() is public and bypasses the checks of put/get/search: labels are
 * non-empty strings without "." or NUL (":" is allowed: item-codec keeps
 * labels apart without joining them).
 */
function checkLabels(namespace: unknown, where: string, allowEmpty: boolean): asserts namespace is string[] {
  if (!Array.isArray(namespace)) throw new RamemError("BAD_NAMESPACE", `${where} must be a list of labels`, { where, hint: 'e.g. ["memories", "user-1"]' });
  if (namespace.length === 0 && !allowEmpty) throw new RamemError("BAD_NAMESPACE", `${where} cannot be empty`, { where, hint: 'e.g. ["memories", "user-1"]' });
  for (const label of namespace) {
    if (typeof label !== "string" || label === "" || label.includes(".") || label.includes("\0")) {
      throw new RamemError("BAD_NAMESPACE", `${JSON.stringify(label)} is not a namespace label`, { where, hint: "a label is a non-empty string without periods or NUL characters" });
    }
  }
}

function checkKey(key: unknown): asserts key is string {
  if (typeof key !== "string") throw new RamemError("BAD_KEY", `a key is a string, got ${typeof key}`, { where: "key" });
}

function checkCount(n: number, where: string): number {
  if (!Number.isInteger(n) || n < 0) throw new RamemError("BAD_LIMIT", `${where} must be a non-negative integer, got ${String(n)}`, { where });
  return n;
}
