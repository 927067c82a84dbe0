import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openMemory } from "../../open-memory.js";
import type { Memory as RamemMemory } from "../../memory.js";
import { RamemError } from "../../model/errors.js";
import { Memory } from "./index.js";

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), "ramem-mem0-"));
});
after(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
/** A fresh SQLite file with the hash embedder, and the Mem0-shaped Memory on it. */
async function open(): Promise<{ mem0: Memory; ramem: RamemMemory }> {
  const ramem = await openMemory({ db: join(dir, `t${++n}.db`), embedder: "hash", languageModel: null, env: {} });
  return { mem0: new Memory({ memory: ramem }), ramem };
}

/** Rejects with a RamemError of this code naming this field. */
async function refuses(call: Promise<unknown>, code: string, where: string | RegExp): Promise<void> {
  await assert.rejects(call, (err: unknown) => {
    assert.ok(err instanceof RamemError, `a RamemError, got ${String(err)}`);
    assert.equal(err.code, code, err.message);
    if (typeof where === "string") assert.equal(err.where, where, err.message);
    else assert.match(err.where ?? "", where, err.message);
    return true;
  });
}

const MOVIE_CHAT = [
  { role: "user", content: "I'm planning to watch a movie tonight. Any recommendations?" },
  { role: "assistant", content: "How about thriller movies? They can be quite engaging." },
  { role: "user", content: "I'm not a big fan of thriller movies but I love sci-fi movies." },
  { role: "assistant", content: "Got it! I'll avoid thriller recommendations and suggest sci-fi movies in the future." },
];

describe("ramem/mem0: Mem0's OSS quickstart, call for call", () => {
  it("add a conversation, search, getAll, get, update, history, delete, deleteAll, reset", async () => {
    const { mem0, ramem } = await open();
    // add: one memory per message, Mem0's add shape.
    const added = await mem0.add(MOVIE_CHAT, { userId: "alice", metadata: { category: "movie_recommendations" } });
    assert.equal(added.results.length, 4);
    for (const r of added.results) {
      assert.match(r.id, /^u_/);
      assert.deepEqual(r.metadata, { event: "ADD" });
      assert.equal(r.event, "ADD");
    }
    assert.match(added.results[2]!.memory, /love sci-fi movies/);
    // The namespace is the user, the session one conversation.
    assert.deepEqual(await ramem.store.listNamespaces(), ["alice"]);

    // search (3.x: filters, topK) and the legacy 2.x form (top-level userId, limit) answer alike.
    const found = await mem0.search("Which movies does alice love? sci-fi", { filters: { user_id: "alice" }, topK: 2 });
    assert.equal(found.results.length, 2);
    const top = found.results[0]!;
    assert.match(top.memory, /sci-fi/);
    assert.ok(typeof top.score === "number" && top.score > 0 && top.score <= 1);
    assert.deepEqual(top.metadata, { category: "movie_recommendations" });
    assert.equal(top.user_id, "alice");
    assert.equal(top.userId, "alice");
    assert.ok(top.createdAt && top.updatedAt && /^[0-9a-f]{32}$/.test(top.hash ?? ""));
    const legacy = await mem0.search("Which movies does alice love? sci-fi", { userId: "alice", limit: 2 });
    assert.deepEqual(legacy.results.map((r) => r.id), found.results.map((r) => r.id));

    // getAll in conversation order; get by id.
    const all = await mem0.getAll({ filters: { user_id: "alice" } });
    assert.deepEqual(all.results.map((r) => r.id), added.results.map((r) => r.id));
    assert.equal((await mem0.getAll({ filters: { user_id: "alice" }, topK: 1 })).results.length, 1);
    const id = all.results[0]!.id;
    const got = await mem0.get(id);
    assert.equal(got?.id, id);
    assert.equal(got?.memory, all.results[0]!.memory);

    // update: same id, new text; history newest first with Mem0's columns.
    assert.deepEqual(await mem0.update(id, "Likes to play cricket on weekends"), { message: "Memory updated successfully!" });
    assert.match((await mem0.get(id))!.memory, /cricket on weekends/);
    const history = await mem0.history(id);
    assert.deepEqual(history.map((h) => h.action), ["UPDATE", "ADD"]);
    assert.equal(history[0]!.memory_id, id);
    assert.match(history[0]!.previous_value ?? "", /watch a movie tonight/);
    assert.match(history[0]!.new_value ?? "", /cricket/);
    assert.equal(history[0]!.newValue, history[0]!.new_value);
    assert.equal(history[1]!.previous_value, null);
    assert.equal(history[1]!.updated_at, null);

    // delete: gone, its history says so (without the text: ramem's deletion deletes).
    assert.deepEqual(await mem0.delete(id), { message: "Memory deleted successfully!" });
    assert.equal(await mem0.get(id), null);
    const afterDelete = await mem0.history(id);
    assert.equal(afterDelete[0]!.action, "DELETE");
    assert.equal(afterDelete[0]!.is_deleted, 1);
    assert.ok(afterDelete.every((h) => h.new_value === null && h.previous_value === null));
    await refuses(mem0.delete(id), "MEMORY_NOT_FOUND", "memoryId");

    // deleteAll for alice leaves bob; reset leaves nothing.
    await mem0.add("I play the cello.", { userId: "bob" });
    assert.deepEqual(await mem0.deleteAll({ userId: "alice" }), { message: "Memories deleted successfully!" });
    assert.deepEqual((await mem0.getAll({ filters: { user_id: "alice" } })).results, []);
    assert.equal((await mem0.getAll({ filters: { user_id: "bob" } })).results.length, 1);
    await mem0.reset();
    assert.deepEqual((await mem0.getAll({ filters: { user_id: "bob" } })).results, []);
    assert.deepEqual((await mem0.search("cello", { filters: { user_id: "bob" } })).results, []);
    await ramem.close();
  });

  it("opens lazily on its own SQLite file (config.db), and a second instance finds ids it never saw", async () => {
    const db = join(dir, "lazy.db");
    // Bound to the hash embedder first: a store keeps the embedder it was built with (no model download here).
    const seed = await openMemory({ db, embedder: "hash", languageModel: null, env: {} });
    await seed.add([{ role: "user", content: "seed" }], { namespace: "seed" });
    await seed.close();
    const first = new Memory({ db });
    const { results } = await first.add("I keep bees in Porto.", { userId: "carol", runId: "chat-1", infer: false });
    await first.close();
    const second = Memory.fromConfig({ db });
    const got = await second.get(results[0]!.id);
    assert.match(got?.memory ?? "", /bees in Porto/);
    assert.equal(got?.run_id, "chat-1");
    assert.equal(got?.runId, "chat-1");
    assert.equal((await second.history(results[0]!.id))[0]?.action, "ADD");
    await second.close();
  });
});

describe("ramem/mem0: scopes and filters", () => {
  it("runId is the session, agentId without userId is the namespace, agentId beside userId a condition", async () => {
    const { mem0, ramem } = await open();
    await mem0.add("I moved to Lisbon.", { userId: "dana", runId: "trip" });
    await mem0.add("I like hiking.", { userId: "dana", agentId: "coach" });
    await mem0.add("Remember to be concise.", { agentId: "coach" });
    assert.deepEqual((await ramem.store.listNamespaces()).sort(), ["coach", "dana"]);
    assert.ok((await ramem.store.listSessions("dana")).some((s) => s.id === "trip"));
    const inRun = await mem0.getAll({ filters: { user_id: "dana", run_id: "trip" } });
    assert.deepEqual(inRun.results.map((r) => r.memory.replace(/^user: /, "")), ["I moved to Lisbon."]);
    const byAgent = await mem0.getAll({ filters: { user_id: "dana", agent_id: "coach" } });
    assert.deepEqual(byAgent.results.map((r) => [r.agent_id, r.user_id]), [["coach", "dana"]]);
    const agentOwn = await mem0.getAll({ filters: { agent_id: "coach" } });
    assert.equal(agentOwn.results.length, 1);
    assert.equal(agentOwn.results[0]!.user_id, undefined, "an agent's own memory has no user id, as in Mem0");
    // deleteAll of an agent beside a user takes only what it added.
    await mem0.deleteAll({ userId: "dana", agentId: "coach" });
    assert.equal((await mem0.getAll({ userId: "dana" })).results.length, 1);
    await mem0.deleteAll({ userId: "dana", runId: "trip" });
    assert.equal((await mem0.getAll({ userId: "dana" })).results.length, 0);
    await ramem.close();
  });

  it("Mem0 OSS filters on metadata keys, lists, operators, AND/OR/NOT become ramem's filter language", async () => {
    const { mem0, ramem } = await open();
    await mem0.add("I ran 10 km today.", { userId: "eve", metadata: { kind: "sport", effort: 3 } });
    await mem0.add("I baked bread today.", { userId: "eve", metadata: { kind: "food", effort: 1 } });
    await mem0.add("I swam 2 km today.", { userId: "eve", metadata: { kind: "sport", effort: 5 } });
    const texts = async (filters: Record<string, unknown>) => (await mem0.getAll({ filters: { user_id: "eve", ...filters } })).results.map((r) => r.memory.replace(/^user: /, "").replace(/ today.*$/, ""));
    assert.deepEqual(await texts({ kind: "sport" }), ["I ran 10 km", "I swam 2 km"]);
    assert.deepEqual(await texts({ kind: ["food"] }), ["I baked bread"]);
    assert.deepEqual(await texts({ effort: { gte: 3, lt: 5 } }), ["I ran 10 km"]);
    assert.deepEqual(await texts({ OR: [{ kind: "food" }, { effort: 5 }] }), ["I baked bread", "I swam 2 km"]);
    assert.deepEqual(await texts({ NOT: [{ kind: "food" }] }), ["I ran 10 km", "I swam 2 km"]);
    assert.deepEqual(await texts({ AND: [{ kind: "sport" }, { effort: { ne: 3 } }] }), ["I swam 2 km"]);
    const searched = await mem0.search("km", { filters: { user_id: "eve", kind: "food" } });
    assert.ok(searched.results.every((r) => r.metadata?.kind === "food"));
    await refuses(mem0.getAll({ filters: { user_id: "eve", kind: { contains: "sp" } } }), "BAD_FILTER", "filters.kind.contains");
    await refuses(mem0.getAll({ filters: { user_id: "eve", kind: "*" } }), "BAD_FILTER", "filters.kind");
    await refuses(mem0.search("x", { filters: { OR: [{ user_id: "eve" }, { user_id: "bob" }] } }), "BAD_FILTER", "filters.OR[0].user_id");
    await refuses(mem0.search("x", { filters: { user_id: "eve" }, userId: "bob" }), "BAD_FILTER", "filters.user_id");
    await ramem.close();
  });

  it("system and blank messages are not stored; timestamp dates the messages; explain gives the reasons", async () => {
    const { mem0, ramem } = await open();
    const added = await mem0.add(
      [
        { role: "system", content: "You are a helpful assistant." },
        { role: "user", content: "   " },
        { role: "user", content: "I adopted a cat named Miso yesterday." },
      ],
      { userId: "finn", timestamp: 1715000000 },
    );
    assert.equal(added.results.length, 1);
    assert.match(added.results[0]!.memory, /Miso/);
    assert.match(added.results[0]!.memory, /5 May 2024/, "yesterday is resolved against the timestamp");
    assert.deepEqual(await mem0.add([{ role: "system", content: "Only instructions." }], { userId: "finn" }), { results: [] });
    const hit = (await mem0.search("cat named Miso", { filters: { user_id: "finn" }, explain: true })).results[0]!;
    assert.ok(hit.score_details && hit.score_details.rank === 1 && hit.score_details.reasons.length > 0);
    await ramem.close();
  });
});

describe("ramem/mem0: bad input is a RamemError naming the field", () => {
  it("add, search, getAll, get, update, delete, deleteAll refuse what Mem0 would choke on", async () => {
    const { mem0, ramem } = await open();
    const anyMem0 = mem0 as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
    await refuses(anyMem0.add!.call(mem0, undefined, { userId: "a" }), "BAD_ARGUMENT", "messages");
    await refuses(mem0.add("", { userId: "a" }), "BAD_ARGUMENT", "messages");
    await refuses(mem0.add([], { userId: "a" }), "BAD_ARGUMENT", "messages");
    await refuses(mem0.add([{ role: "user", content: " " }], { userId: "a" }), "BAD_ARGUMENT", "messages");
    await refuses(mem0.add([{ role: "human", content: "hi" }], { userId: "a" }), "BAD_ARGUMENT", "messages[0].role");
    await refuses(anyMem0.add!.call(mem0, [{ role: "user", content: 42 }], { userId: "a" }), "BAD_ARGUMENT", "messages[0].content");
    await refuses(mem0.add("hi"), "BAD_ARGUMENT", "userId");
    await refuses(mem0.add("hi", {}), "BAD_ARGUMENT", "userId");
    await refuses(anyMem0.add!.call(mem0, "hi", { userId: 7 }), "BAD_ARGUMENT", "userId");
    await refuses(mem0.add("hi", { userId: "a b" }), "BAD_ARGUMENT", "userId");
    await refuses(mem0.add("hi", { userId: "alice@example.com" }), "BAD_NAMESPACE", "userId");
    await refuses(anyMem0.add!.call(mem0, "hi", { userID: "a" }), "BAD_ARGUMENT", "userID");
    await refuses(anyMem0.add!.call(mem0, "hi", { userId: "a", infer: "yes" }), "BAD_ARGUMENT", "infer");
    await refuses(anyMem0.add!.call(mem0, "hi", { userId: "a", metadata: { when: new Date() } }), "BAD_METADATA", /^metadata/);
    await refuses(mem0.add("hi", { userId: "a", expirationDate: "2030-01-01" }), "UNSUPPORTED", "expirationDate");
    await refuses(mem0.add("hi", { userId: "a", timestamp: "soon" }), "BAD_ARGUMENT", "timestamp");
    await refuses(anyMem0.search!.call(mem0, undefined, { userId: "a" }), "BAD_ARGUMENT", "query");
    await refuses(mem0.search("hi", {}), "BAD_ARGUMENT", "filters");
    await refuses(mem0.search("hi", { filters: { user_id: "a" }, topK: 2.5 }), "BAD_ARGUMENT", "topK");
    await refuses(mem0.search("hi", { filters: { user_id: "a" }, threshold: 2 }), "BAD_ARGUMENT", "threshold");
    await refuses(anyMem0.search!.call(mem0, "hi", { filters: "alice" }), "BAD_FILTER", "filters");
    await refuses(anyMem0.getAll!.call(mem0, { filters: { user_id: "a" }, topk: 3 }), "BAD_ARGUMENT", "topk");
    await refuses(anyMem0.get!.call(mem0, undefined), "BAD_ARGUMENT", "memoryId");
    await refuses(anyMem0.update!.call(mem0, "u_x", undefined), "BAD_ARGUMENT", "text");
    await refuses(anyMem0.update!.call(mem0, "u_x", 42), "BAD_ARGUMENT", "options");
    await refuses(mem0.update("u_x", { text: "" }), "BAD_ARGUMENT", "text");
    await refuses(mem0.update("u_x", { metadata: { a: 1 } }), "UNSUPPORTED", "metadata");
    await refuses(mem0.update("u_missing", "new text"), "MEMORY_NOT_FOUND", "memoryId");
    await refuses(anyMem0.delete!.call(mem0, 12), "BAD_ARGUMENT", "memoryId");
    await refuses(mem0.deleteAll({}), "BAD_ARGUMENT", "userId");
    assert.equal(await mem0.get("u_missing"), null);
    assert.deepEqual(await mem0.history("u_missing"), []);
    assert.deepEqual(await ramem.store.listNamespaces(), [], "nothing was stored by any refused call");
    await ramem.close();
  });

  it("the config: Mem0's parts are accepted and ignored with one warning, unknown keys and wrong types refused", async () => {
    const warnings: Array<{ code?: string; message: string }> = [];
    const onWarning = (w: Error & { code?: string }) => warnings.push({ ...(w.code ? { code: w.code } : {}), message: w.message });
    process.on("warning", onWarning);
    try {
      const m = new Memory({ db: join(dir, "cfg.db"), llm: { provider: "openai", config: { model: "gpt-4.1-nano" } }, embedder: { provider: "openai", config: {} }, version: "v1.1" });
      assert.deepEqual(m.ignoredConfig, ["llm", "embedder"]);
      await new Promise((r) => setImmediate(r));
      const ours = warnings.filter((w) => w.code === "RAMEM_MEM0_IGNORED_CONFIG");
      assert.equal(ours.length, 1);
      assert.match(ours[0]!.message, /ignores config\.llm, config\.embedder/);
    } finally {
      process.off("warning", onWarning);
    }
    const ctor = (config: unknown) => () => new Memory(config as never);
    const code = (c: string, where: string) => (err: unknown) => err instanceof RamemError && err.code === c && err.where === where;
    assert.throws(ctor({ dbPath: "x.db" }), code("BAD_OPTION", "config.dbPath"));
    assert.throws(ctor({ db: 3 }), code("BAD_OPTION", "config.db"));
    assert.throws(ctor({ llm: "openai" }), code("BAD_OPTION", "config.llm"));
    assert.throws(ctor({ memory: {} }), code("BAD_OPTION", "config.memory"));
    assert.throws(ctor("ramem.db"), code("BAD_OPTION", "config"));
    assert.deepEqual(new Memory({ vectorStore: { provider: "memory", config: { collectionName: "m" } }, disableHistory: true, db: ":memory:" }).ignoredConfig, ["vectorStore"]);
  });
});
