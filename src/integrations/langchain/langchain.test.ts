import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { Memory } from "../../memory.js";
import { openSqliteStore } from "../../store/sqlite/sqlite-store.js";
import { createHashEmbedder } from "../../providers/hash-embedder.js";
import { RamemChatMessageHistory, RamemRetriever } from "./index.js";

async function open(): Promise<Memory> {
  return new Memory({ store: await openSqliteStore(":memory:"), embedder: createHashEmbedder(), defaultNamespace: "lc" });
}

describe("ramem/langchain", () => {
  it("RamemRetriever returns Documents with the episodic coordinates as metadata, best first", async () => {
    const memory = await open();
    await memory.add(
      [
        { role: "user", content: "I ran the Lisbon half marathon in 1:52." },
        { role: "assistant", content: "Great time!" },
      ],
      { now: new Date("2024-03-10T08:00:00Z"), metadata: { topic: "running" } },
    );
    await memory.add([{ role: "user", content: "My oven broke again." }], { now: new Date("2024-05-01T08:00:00Z") });
    const retriever = new RamemRetriever({ memory, k: 3 });
    const docs = await retriever.invoke("How fast was the Lisbon half marathon?");
    assert.ok(docs.length > 0);
    const top = docs[0]!;
    assert.match(top.pageContent, /half marathon in 1:52/);
    assert.equal(top.metadata.sessionStart, "2024-03-10T08:00:00.000Z");
    assert.equal(top.metadata.role, "user");
    assert.deepEqual(top.metadata.metadata, { topic: "running" });
    assert.equal(top.metadata.rank, 1);
    assert.ok(top.metadata.turnIds.length === 1 && typeof top.metadata.unitId === "string");
    for (let i = 1; i < docs.length; i++) assert.ok(docs[i]!.metadata.score <= docs[i - 1]!.metadata.score);
    const filtered = await new RamemRetriever({ memory, filter: { "metadata.topic": "running" } }).invoke("oven");
    assert.ok(filtered.every((d) => d.metadata.metadata?.topic === "running"));
  });

  it("each Document carries the query's holdsEvidence; abstain: true returns none when the store likely holds nothing", async () => {
    const memory = await open();
    await memory.add([{ role: "user", content: "I ran the Lisbon half marathon in 1:52." }], { now: new Date("2024-03-10T08:00:00Z") });
    const held = await new RamemRetriever({ memory }).invoke("How fast was the Lisbon half marathon?");
    assert.ok(held.length > 0 && held.every((d) => d.metadata.holdsEvidence?.likely === true));
    const never = "How often do I play table tennis?";
    const docs = await new RamemRetriever({ memory }).invoke(never);
    assert.ok(docs.length > 0 && docs.every((d) => d.metadata.holdsEvidence?.likely === false));
    assert.deepEqual(await new RamemRetriever({ memory, abstain: true }).invoke(never), []);
    assert.ok((await new RamemRetriever({ memory, abstain: true }).invoke("How fast was the Lisbon half marathon?")).length > 0);
  });

  it("a Document carries the hit's states and validity, as every face's hit does", async () => {
    const memory = await open();
    await memory.add([{ role: "user", content: "I live in Lisbon." }], { now: new Date("2023-01-05T10:00:00Z") });
    await memory.add([{ role: "user", content: "I moved to Porto last month." }], { now: new Date("2023-04-05T10:00:00Z") });
    const docs = await new RamemRetriever({ memory, k: 5 }).invoke("Where do I live now?");
    const porto = docs.find((d) => /Porto/.test(d.pageContent))!;
    const lisbon = docs.find((d) => /Lisbon/.test(d.pageContent))!;
    assert.deepEqual(porto.metadata.states?.map((s) => `${s.slot} = ${s.value}`), ["residence = porto"]);
    assert.equal(porto.metadata.validity?.validTo, null);
    assert.equal(lisbon.metadata.validity?.supersededBy, porto.metadata.unitId);
  });

  it("RamemChatMessageHistory keeps a conversation as a ramem session: add, read back in order, clear", async () => {
    const memory = await open();
    const history = new RamemChatMessageHistory({ memory, sessionId: "chat-1" });
    await history.addMessages([new HumanMessage("I adopted a cat named Miso."), new AIMessage("Miso is a lovely name.")]);
    await history.addUserMessage("She likes tuna.");
    const messages = await history.getMessages();
    assert.deepEqual(messages.map((m) => [m.getType(), m.content]), [
      ["human", "I adopted a cat named Miso."],
      ["ai", "Miso is a lovely name."],
      ["human", "She likes tuna."],
    ]);
    assert.equal((await memory.recall("What is the cat called?")).hits[0]?.unit.context.session.sessionId, "chat-1", "the history is recallable memory");
    await history.clear();
    assert.deepEqual(await history.getMessages(), []);
  });
});
