/**
 * The AI SDK integration against the SDK's own mock model (ai/test): what
 * generateText and streamText send the model, what comes back, what is stored.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { generateText, streamText, stepCountIs } from "ai";
import { MockLanguageModelV3, simulateReadableStream } from "ai/test";
import { Memory } from "../../memory.js";
import { openSqliteStore } from "../../store/sqlite/sqlite-store.js";
import { createHashEmbedder } from "../../providers/hash-embedder.js";
import { EVIDENCE_OPEN } from "../../synthesis/render-evidence.js";
import { rememberTool, recallTool, withRamem } from "./index.js";

const usage = { inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } };
const finishReason = { unified: "stop" as const, raw: "stop" };

async function memoryWithFacts(): Promise<Memory> {
  const memory = new Memory({ store: await openSqliteStore(":memory:"), embedder: createHashEmbedder(), defaultNamespace: "u1" });
  await memory.add([{ role: "user", content: "My sister Ana lives in Porto and keeps bees." }], { now: new Date("2024-01-05T10:00:00Z") });
  return memory;
}

describe("ramem/ai-sdk", () => {
  it("the middleware puts the evidence pack for the last user message in a system message and stores the exchange after generateText", async () => {
    const memory = await memoryWithFacts();
    const model = new MockLanguageModelV3({ doGenerate: { content: [{ type: "text", text: "Ana lives in Porto." }], finishReason, usage, warnings: [] } });
    const { text } = await generateText({ model: withRamem(model, memory), system: "Be brief.", prompt: "Where does my sister Ana live?" });
    assert.equal(text, "Ana lives in Porto.");
    const sent = model.doGenerateCalls[0]!.prompt;
    assert.deepEqual(sent.map((m) => m.role), ["system", "system", "user"], "the pack comes after the caller's own system message");
    const pack = sent[1]!.content as string;
    assert.ok(pack.includes(EVIDENCE_OPEN));
    assert.match(pack, /Porto and keeps bees/);
    const stored = (await memory.getAll()).memories.map((u) => u.content);
    assert.ok(stored.some((c) => /Where does my sister Ana live/.test(c)), "the question is stored");
    assert.ok(stored.some((c) => /Ana lives in Porto\./.test(c)), "the answer is stored");
  });

  it("streamText: the answer streams through unchanged and is stored once complete", async () => {
    const memory = await memoryWithFacts();
    const model = new MockLanguageModelV3({
      doStream: {
        stream: simulateReadableStream({
          chunks: [
            { type: "text-start", id: "t" },
            { type: "text-delta", id: "t", delta: "She keeps " },
            { type: "text-delta", id: "t", delta: "bees." },
            { type: "text-end", id: "t" },
            { type: "finish", finishReason, usage },
          ],
        }),
      },
    });
    const result = streamText({ model: withRamem(model, memory), prompt: "What does Ana keep?" });
    let streamed = "";
    for await (const delta of result.textStream) streamed += delta;
    assert.equal(streamed, "She keeps bees.");
    await result.consumeStream();
    assert.ok((await memory.getAll()).memories.some((u) => /She keeps bees\./.test(u.content)));
  });

  it("a failing recall does not fail the call; nothing to recall adds no system message", async () => {
    const memory = new Memory({ store: await openSqliteStore(":memory:"), embedder: createHashEmbedder() });
    const errors: string[] = [];
    const model = new MockLanguageModelV3({ doGenerate: { content: [{ type: "text", text: "ok" }], finishReason, usage, warnings: [] } });
    await generateText({ model: withRamem(model, memory, { namespace: "bad name!", onError: (_e, during) => errors.push(during) }), prompt: "hi" });
    assert.deepEqual(errors, ["recall", "store"]);
    await generateText({ model: withRamem(model, memory, { store: false }), prompt: "hello there" });
    assert.deepEqual(model.doGenerateCalls[1]!.prompt.map((m) => m.role), ["user"]);
  });

  it("rememberTool and recallTool work as generateText tools", async () => {
    const memory = await memoryWithFacts();
    let step = 0;
    const model = new MockLanguageModelV3({
      doGenerate: async () => {
        step++;
        if (step === 1) return { content: [{ type: "tool-call", toolCallId: "c1", toolName: "remember", input: JSON.stringify({ text: "I started learning the cello." }) }], finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage, warnings: [] };
        if (step === 2) return { content: [{ type: "tool-call", toolCallId: "c2", toolName: "recall", input: JSON.stringify({ query: "cello" }) }], finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage, warnings: [] };
        return { content: [{ type: "text", text: "done" }], finishReason, usage, warnings: [] };
      },
    });
    const result = await generateText({ model, tools: { remember: rememberTool(memory), recall: recallTool(memory) }, prompt: "go", stopWhen: stepCountIs(5) });
    const outputs = result.steps.flatMap((s) => s.toolResults.map((r) => [r.toolName, r.output] as const));
    assert.equal((outputs[0]![1] as { stored: number }).stored, 1);
    const recalled = outputs[1]![1] as { evidence: string; holdsEvidence: { likely: boolean }; memories: Array<{ score: number }> };
    assert.match(recalled.evidence, /cello/);
    assert.equal(recalled.holdsEvidence.likely, true);
    assert.ok(recalled.memories.every((m) => m.score >= 0 && m.score <= 1));
  });

  it("when the store likely holds nothing for the question, the tool and the middleware's pack say so", async () => {
    const memory = await memoryWithFacts();
    const tool = recallTool(memory);
    const out = (await tool.execute!({ query: "How often does Ana play table tennis?" }, { toolCallId: "c", messages: [] })) as { evidence: string; holdsEvidence: { likely: boolean; why: string } };
    assert.equal(out.holdsEvidence.likely, false);
    assert.match(out.holdsEvidence.why, /"tennis"/);
    assert.match(out.evidence, /^<memories>\nevidence check: the store likely holds nothing/);
    let prompt = "";
    const model = new MockLanguageModelV3({
      doGenerate: async (options) => {
        prompt = JSON.stringify(options.prompt);
        return { content: [{ type: "text", text: "I don't know." }], finishReason, usage, warnings: [] };
      },
    });
    await generateText({ model: withRamem(model, memory, { store: false, minScore: 0 }), prompt: "How often does Ana play table tennis?" });
    assert.match(prompt, /evidence check: the store likely holds nothing/);
  });
});
