import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Annotation, END, InMemoryStore, MemorySaver, MessagesAnnotation, START, StateGraph, getStore, type BaseStore, type LangGraphRunnableConfig } from "@langchain/langgraph";
import { Embeddings } from "@langchain/core/embeddings";
import { FakeListChatModel } from "@langchain/core/utils/testing";
import { HumanMessage, SystemMessage } from "@langchain/core/messages";
import { openMemory } from "../../open-memory.js";
import type { Memory } from "../../memory.js";
import { RamemError } from "../../model/errors.js";
import { RamemStore, type SearchItem } from "./index.js";
import { indexedTexts, matchesFilter, sessionIdOf, tokenizePath } from "./item-codec.js";

// The langgraph packages ship no store test suite (no tests, no "validate" export in
// @langchain/langgraph-checkpoint 1.2.2), so RamemStore is held to InMemoryStore's behaviour:
// the same operations on both, the results compared.

const dir = mkdtempSync(join(tmpdir(), "ramem-langgraph-"));
after(() => rmSync(dir, { recursive: true, force: true }));
let dbs = 0;
const opened: Memory[] = [];
after(async () => {
  for (const m of opened) await m.close().catch(() => undefined);
});

async function open(db = join(dir, `store-${++dbs}.db`)): Promise<{ memory: Memory; db: string }> {
  const memory = await openMemory({ db, embedder: "hash", languageModel: null, env: {} });
  opened.push(memory);
  return { memory, db };
}

/** Words hashed into 256 buckets: enough for InMemoryStore to rank an obvious case. */
class WordEmbeddings extends Embeddings {
  constructor() {
    super({});
  }
  #vector(text: string): number[] {
    const v = new Array<number>(256).fill(0);
    for (const w of text.toLowerCase().match(/[a-z]{3,}/g) ?? []) {
      let h = 0;
      for (const c of w) h = (h * 31 + c.charCodeAt(0)) >>> 0;
      v[h % 256]! += 1;
    }
    return v;
  }
  async embedDocuments(texts: string[]): Promise<number[][]> {
    return texts.map((t) => this.#vector(t));
  }
  async embedQuery(text: string): Promise<number[]> {
    return this.#vector(text);
  }
}

/** An item without its times (they differ between stores); the times are checked on their own. */
function plain(item: SearchItem | null): unknown {
  if (item === null) return null;
  assert.ok(item.createdAt instanceof Date && item.updatedAt instanceof Date, "times are Dates");
  assert.ok(item.createdAt.getTime() <= item.updatedAt.getTime(), "created before updated");
  const { createdAt: _c, updatedAt: _u, ...rest } = item;
  return rest;
}

async function both<T>(stores: readonly BaseStore[], run: (s: BaseStore) => Promise<T>, label: string): Promise<T> {
  const [expected, actual] = await Promise.all(stores.map(run));
  const norm = (r: unknown): unknown => (Array.isArray(r) ? r.map(norm) : r && typeof r === "object" && "key" in r && "createdAt" in r ? plain(r as SearchItem) : r);
  assert.deepEqual(norm(actual), norm(expected), label);
  return actual as T;
}

describe("ramem/langgraph", () => {
  it("get, put, delete, search without a query and listNamespaces answer as InMemoryStore does", async () => {
    const { memory } = await open();
    const ramem = new RamemStore({ memory });
    const reference = new InMemoryStore();
    const stores = [reference, ramem] as const;
    // Each namespace's items are put together: listing order is then creation order in both stores.
    const puts: Array<[string[], string, Record<string, unknown>]> = [
      [["users", "u1", "prefs"], "theme", { theme: "dark", size: 12 }],
      [["users", "u1", "prefs"], "lang", { lang: "pt", size: 9 }],
      [["users", "u1", "prefs"], "font", { font: "mono", size: 14, theme: "dark" }],
      [["users", "u2", "prefs"], "theme", { theme: "light", size: 14 }],
      [["docs", "v1"], "a", { title: "Annual report", n: 1 }],
      [["docs", "v2"], "b", { title: "Budget", n: 2 }],
      [["users", "u1", "facts"], "k:with:colons and spaces", { text: "Moved to Porto", tags: ["move", { year: 2024 }] }],
    ];
    for (const s of stores) for (const [ns, key, value] of puts) await s.put(ns, key, value);

    for (const [ns, key] of puts) await both(stores, (s) => s.get(ns, key), `get ${ns.join("/")} ${key}`);
    await both(stores, (s) => s.get(["users", "u1", "prefs"], "missing"), "get of a missing key");
    await both(stores, (s) => s.get(["users", "u1"], "theme"), "get in a parent namespace");

    const before = (await ramem.get(["users", "u1", "prefs"], "theme"))!;
    for (const s of stores) await s.put(["users", "u1", "prefs"], "theme", { theme: "solarized", size: 11 });
    const after = (await ramem.get(["users", "u1", "prefs"], "theme"))!;
    assert.deepEqual(after.value, { theme: "solarized", size: 11 }, "put replaces");
    assert.equal(after.createdAt.getTime(), before.createdAt.getTime(), "a replace keeps createdAt");
    assert.ok(after.updatedAt.getTime() > before.updatedAt.getTime(), "and moves updatedAt");

    for (const s of stores) await s.delete(["users", "u1", "prefs"], "lang");
    await both(stores, (s) => s.get(["users", "u1", "prefs"], "lang"), "get after delete");
    for (const s of stores) await s.delete(["users", "u1", "prefs"], "never-there");

    const searches: Array<[string[], Parameters<BaseStore["search"]>[1]]> = [
      [["users"], {}],
      [["users", "u1"], {}],
      [[], { limit: 100 }],
      [["us"], {}],
      [["users"], { filter: { size: { $gt: 11 } } }],
      [["users"], { filter: { theme: "dark" } }],
      [["users"], { filter: { size: { $gte: 11, $lt: 14 } } }],
      [["users"], { filter: { theme: { $ne: "dark" } } }],
      [["users"], { filter: { theme: { $in: ["light", "solarized"] } } }],
      [["users"], { filter: { theme: { $nin: ["light"] }, size: { $lte: 14 } } }],
      [[], { filter: { n: { $eq: 2 } } }],
      [[], { filter: { tags: { year: 2024 } } }],
      [["users"], { limit: 2 }],
      [["users"], { limit: 2, offset: 2 }],
      [["users"], { limit: 0 }],
      [["users"], { offset: 50 }],
    ];
    for (const [prefix, options] of searches) await both(stores, (s) => s.search(prefix, options), `search ${JSON.stringify(prefix)} ${JSON.stringify(options)}`);

    const lists: Array<Parameters<BaseStore["listNamespaces"]>[0]> = [
      {},
      { prefix: ["users"] },
      { suffix: ["prefs"] },
      { prefix: ["users", "*", "prefs"] },
      { prefix: ["users"], suffix: ["facts"] },
      { maxDepth: 2 },
      { maxDepth: 1 },
      { limit: 2, offset: 1 },
      { prefix: ["nothing"] },
    ];
    for (const options of lists) await both(stores, (s) => s.listNamespaces(options), `listNamespaces ${JSON.stringify(options)}`);

    // A batch's reads see the store as it was before the batch; its puts then apply, the last one of an item winning.
    const batch = (s: BaseStore) =>
      s.batch([
        { namespace: ["docs", "v3"], key: "c", value: { title: "first" } },
        { namespace: ["docs", "v3"], key: "c" },
        { namespace: ["docs", "v3"], key: "c", value: { title: "second" } },
        { namespacePrefix: ["docs"], limit: 10, offset: 0 },
        { matchConditions: [{ matchType: "prefix", path: ["docs"] }], limit: 10, offset: 0 },
      ]);
    const [, got, , listed, namespaces] = await both(stores, batch, "a mixed batch");
    assert.equal(got, null);
    assert.equal((listed as unknown as SearchItem[]).length, 2);
    assert.equal((namespaces as unknown as string[][]).length, 2);
    await both(stores, (s) => s.get(["docs", "v3"], "c"), "the last put of a batch wins");
  });

  it("keeps a value exactly: its JSON reads back byte for byte, whatever its keys", async () => {
    const { memory } = await open();
    const store = new RamemStore({ memory });
    const value = {
      "key with spaces": "ação 日本 🙂",
      "dotted.key": [1, 2.5, -3e-7, 1e21, true, false, null, { deep: { deeper: { deepest: { bottom: [[["x"]]] } } } }],
      __proto_like: "\u0000 nul and \ud83d lone surrogate",
      empty: {},
      list: [],
      text: "I keep my passport in the blue drawer.",
    };
    await store.put(["vault"], "v", value);
    const got = await store.get(["vault"], "v");
    assert.equal(JSON.stringify(got!.value), JSON.stringify(value));
    const [hit] = await store.search(["vault"], { query: "where is my passport?" });
    assert.equal(JSON.stringify(hit!.value), JSON.stringify(value), "a search hit carries the same value");
  });

  it("search with a query runs RaMem recall: the obvious item first, as InMemoryStore ranks it, scored in [0, 1]", async () => {
    const { memory } = await open();
    const ramem = new RamemStore({ memory });
    const reference = new InMemoryStore({ index: { dims: 256, embeddings: new WordEmbeddings() } });
    const items: Array<[string, Record<string, unknown>]> = [
      ["hike", { text: "I love hiking in the Alps every summer." }],
      ["dog", { text: "My dog is a beagle called Rex." }],
      ["job", { text: "I work as a nurse at the hospital in Porto." }],
      ["car", { text: "I drive an old red Volvo." }],
    ];
    for (const s of [reference, ramem]) {
      for (const [key, value] of items) await s.put(["memories", "u1"], key, value);
      await s.put(["memories", "u1"], "raw", { text: "the beagle Rex dog" }, false);
      await s.put(["memories", "u2"], "dog", { text: "My dog is a poodle called Fifi." });
    }
    for (const [query, key] of [
      ["What is my dog called?", "dog"],
      ["Where do I work as a nurse?", "job"],
      ["hiking in the Alps", "hike"],
    ] as const) {
      const [expected, actual] = await Promise.all([reference, ramem].map((s) => s.search(["memories", "u1"], { query, limit: 10 })));
      assert.equal(expected![0]!.key, key, `InMemoryStore's top item for ${query}`);
      assert.equal(actual![0]!.key, key, `RamemStore's top item for ${query}`);
      assert.deepEqual(new Set(actual!.map((i) => i.key)), new Set(expected!.map((i) => i.key)), "the same items");
      assert.equal(actual!.at(-1)!.key, "raw", "an item put with index: false comes after the ranked ones");
      assert.equal(actual!.at(-1)!.score, undefined);
      const scores = actual!.slice(0, -1).map((i) => i.score!);
      assert.ok(scores.every((s, i) => s >= 0 && s <= 1 && (i === 0 || s <= scores[i - 1]!)), `scores in [0, 1], falling: ${scores}`);
      assert.ok(actual!.every((i) => i.namespace.join("/") === "memories/u1"), "only the prefix's items");
    }
    const page = await ramem.search(["memories"], { query: "dog", limit: 1, offset: 1 });
    const all = await ramem.search(["memories"], { query: "dog", limit: 10 });
    assert.deepEqual(page.map((i) => [i.namespace, i.key]), all.slice(1, 2).map((i) => [i.namespace, i.key]), "offset pages the ranked list");
    const filtered = await ramem.search([], { query: "dog", filter: { text: { $ne: "My dog is a beagle called Rex." } } });
    assert.ok(filtered.length > 0 && filtered.every((i) => i.value.text !== "My dog is a beagle called Rex."), "a value filter narrows the ranking");
    assert.equal(filtered[0]!.key, "dog");
    assert.deepEqual(filtered[0]!.namespace, ["memories", "u2"]);
    assert.deepEqual(await ramem.search([], { query: "dog", filter: { text: "nobody" } }), []);
    const { memory: empty } = await open();
    assert.deepEqual(await new RamemStore({ memory: empty }).search(["memories"], { query: "dog" }), [], "an empty store finds nothing");
  });

  it("anchors the fields index names: the store's default, or a put's own list", async () => {
    const { memory } = await open();
    const store = new RamemStore({ memory, index: { fields: ["title"] } });
    await store.put(["notes"], "trip", { title: "Volcano trip to Etna", body: "we walked for hours" });
    await store.put(["notes"], "cake", { title: "Birthday shopping list", body: "volcano volcano volcano cake" });
    await store.put(["notes"], "chapters", { title: "Book", chapters: [{ content: "A lighthouse keeper" }, { content: "volcano eruption" }] }, ["chapters[*].content"]);
    const hits = await store.search(["notes"], { query: "volcano" });
    assert.deepEqual(hits.map((h) => h.key).sort(), ["cake", "chapters", "trip"]);
    assert.notEqual(hits[0]!.key, "cake", "the body of an item indexed by title is not searched");
    const units = await memory.getAll({ namespace: "langgraph" });
    assert.deepEqual(units.memories.map((u) => u.source?.[0]?.text).sort(), ["A lighthouse keeper", "Birthday shopping list", "Volcano trip to Etna", "volcano eruption"]);
  });

  it("a put replaces the item's text in recall; a delete forgets it", async () => {
    const { memory } = await open();
    const store = new RamemStore({ memory });
    await store.put(["m"], "home", { text: "I live in Lisbon." });
    await store.put(["m"], "home", { text: "I live in Tokyo now." });
    const hits = await store.search(["m"], { query: "Where do I live? Lisbon or Tokyo" });
    assert.deepEqual(hits.map((h) => h.value), [{ text: "I live in Tokyo now." }]);
    assert.equal((await memory.stats("langgraph")).units, 1, "one unit for one item");
    await store.delete(["m"], "home");
    assert.deepEqual(await store.search(["m"], { query: "Tokyo" }), []);
    assert.equal((await memory.stats("langgraph")).units, 0);
    assert.deepEqual(await store.listNamespaces(), [], "a namespace whose last item was deleted is not listed");
  });

  it("persists: a new store over the same database reads the items", async () => {
    const { memory, db } = await open();
    await new RamemStore({ memory, namespace: "agent-a" }).put(["prefs"], "p", { text: "I prefer window seats." });
    await new RamemStore({ memory, namespace: "agent-b" }).put(["prefs"], "p", { text: "other agent" });
    await memory.close();
    opened.splice(opened.indexOf(memory), 1);
    const { memory: reopened } = await open(db);
    const store = new RamemStore({ memory: reopened, namespace: "agent-a" });
    assert.deepEqual((await store.get(["prefs"], "p"))?.value, { text: "I prefer window seats." });
    assert.deepEqual((await store.search([])).map((i) => i.value.text), ["I prefer window seats."], "another ramem namespace's items stay apart");
  });

  it("refuses what it cannot keep with a RamemError, and stores nothing of it", async () => {
    const { memory } = await open();
    const store = new RamemStore({ memory });
    const big = { text: "x".repeat(5000) };
    await assert.rejects(store.put(["m"], "big", big), (e: unknown) => e instanceof RamemError && e.code === "VALUE_TOO_LARGE" && e.where === "value");
    assert.equal(await store.get(["m"], "big"), null);
    await assert.rejects(
      store.batch([
        { namespace: ["m"], key: "fine", value: { text: "ok" } },
        { namespace: ["m"], key: "big", value: big },
      ]),
      (e: unknown) => e instanceof RamemError && e.code === "VALUE_TOO_LARGE",
    );
    assert.equal(await store.get(["m"], "fine"), null, "a batch with a bad put writes none of its puts");
    await assert.rejects(store.batch([{ namespace: ["a.b"], key: "k", value: { x: 1 } }]), (e: unknown) => e instanceof RamemError && e.code === "BAD_NAMESPACE");
    await assert.rejects(store.batch([{ namespace: [], key: "k", value: { x: 1 } }]), (e: unknown) => e instanceof RamemError && e.code === "BAD_NAMESPACE");
    await assert.rejects(store.search(["m"], { limit: -1 }), (e: unknown) => e instanceof RamemError && e.code === "BAD_LIMIT");
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    await assert.rejects(store.put(["m"], "c", cyclic), (e: unknown) => e instanceof RamemError && e.code === "BAD_VALUE");
    assert.throws(() => new RamemStore({ memory, namespace: "bad namespace!" }), (e: unknown) => e instanceof RamemError && e.code === "BAD_NAMESPACE");
    assert.deepEqual(await store.listNamespaces(), []);
  });

  it("the mapping: paths as LangGraph writes them, filters as InMemoryStore applies them, one session id per item", () => {
    assert.deepEqual(tokenizePath("chapters[*].content"), ["chapters", "[*]", "content"]);
    assert.deepEqual(tokenizePath("{title,meta.author}"), ["{title,meta.author}"]);
    const doc = { title: "T", meta: { author: "Ana", year: 2020 }, chapters: [{ content: "one" }, { content: "two" }], tags: ["a", "b"] };
    assert.deepEqual(indexedTexts(doc, ["title"]), ["T"]);
    assert.deepEqual(indexedTexts(doc, ["chapters[*].content"]), ["one", "two"]);
    assert.deepEqual(indexedTexts(doc, ["chapters[-1].content", "tags[0]"]), ["two", "a"]);
    assert.deepEqual(indexedTexts(doc, ["{title,meta.author}"]), ["T", "Ana"]);
    assert.deepEqual(indexedTexts(doc, ["meta"]), ["Ana\n2020"]);
    assert.deepEqual(indexedTexts(doc, ["$"]), ["T\nAna\n2020\none\ntwo\na\nb"]);
    assert.deepEqual(indexedTexts(doc, ["missing", "title.nope"]), []);
    const long = indexedTexts({ text: `${"x".repeat(63_999)}🙂tail` }, ["text"]);
    assert.deepEqual(long.map((t) => t.length), [63_999, 6], "a text past a turn's size is split, never inside a surrogate pair");
    assert.deepEqual(indexedTexts({ text: "a\u0000b\ud83d" }, ["text"]), ["a\uFFFDb\uFFFD"], "the searchable copy is stored text");
    assert.equal(matchesFilter({ n: 3 }, { n: { $gt: 2, $lte: 3 } }), true);
    assert.equal(matchesFilter({ n: 3 }, { n: { $gt: 3 } }), false);
    assert.equal(matchesFilter({ o: { a: 1 } }, { o: { a: 1 } }), false, "objects compare by identity, as in InMemoryStore");
    assert.notEqual(sessionIdOf({ namespace: ["a", "b:c"], key: "k" }), sessionIdOf({ namespace: ["a:b", "c"], key: "k" }));
    assert.equal(sessionIdOf({ namespace: ["a"], key: "x".repeat(10_000) }).length <= 200, true);
  });

  it("inside a LangGraph graph: a memory written in one thread is recalled in another", async () => {
    const { memory } = await open();
    const store = new RamemStore({ memory });
    const model = new FakeListChatModel({ responses: ["Noted: teal.", "Your favourite colour is teal.", "I don't know yet."] });
    const prompts: string[] = [];
    const State = Annotation.Root({ ...MessagesAnnotation.spec, recalled: Annotation<string[]>({ reducer: (_a, b) => b, default: () => [] }) });

    async function chat(state: typeof State.State, config: LangGraphRunnableConfig) {
      const memories = getStore(config)!;
      assert.ok(config.store, "the compiled graph hands its store to the node");
      const userId = String(config.configurable?.userId);
      const last = String(state.messages.at(-1)!.content);
      const found = await memories.search(["memories", userId], { query: last, limit: 3 });
      const system = `What you know about the user: ${found.map((m) => m.value.text).join("; ") || "nothing"}`;
      prompts.push(system);
      const reply = await model.invoke([new SystemMessage(system), ...state.messages]);
      const remember = /^remember that (.+)$/i.exec(last);
      if (remember) await memories.put(["memories", userId], `m-${Date.now()}`, { text: remember[1]! });
      return { messages: [reply], recalled: found.map((m) => String(m.value.text)) };
    }

    const graph = new StateGraph(State).addNode("chat", chat).addEdge(START, "chat").addEdge("chat", END).compile({ checkpointer: new MemorySaver(), store });
    await graph.invoke({ messages: [new HumanMessage("Remember that my favourite colour is teal")] }, { configurable: { thread_id: "thread-1", userId: "u1" } });
    const second = await graph.invoke({ messages: [new HumanMessage("What is my favourite colour?")] }, { configurable: { thread_id: "thread-2", userId: "u1" } });
    assert.equal(second.messages.length, 2, "thread 2 has no history of thread 1: the memory came through the store");
    assert.deepEqual(second.recalled, ["my favourite colour is teal"]);
    assert.match(prompts[1]!, /favourite colour is teal/);
    assert.equal(String(second.messages.at(-1)!.content), "Your favourite colour is teal.");
    const other = await graph.invoke({ messages: [new HumanMessage("What is my favourite colour?")] }, { configurable: { thread_id: "thread-3", userId: "u2" } });
    assert.deepEqual(other.recalled, [], "another user's namespace holds nothing");
    assert.deepEqual(await store.listNamespaces(), [["memories", "u1"]]);
  });
});
