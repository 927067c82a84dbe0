/**
 * A question-answering agent on LangChain.js with ramem as its retriever and
 * its chat history, answering through any OpenAI-compatible endpoint (the
 * chat model is ramem's own OpenAI-compatible client, so nothing but
 * @langchain/core is needed).
 *
 *   RAMEM_LLM_BASE_URL=http://127.0.0.1:11434/v1 RAMEM_LLM_MODEL=llama3.1 \
 *     npx tsx examples/langchain-agent.ts           # then type; "exit" ends
 */
import { createInterface } from "node:readline/promises";
import { RunnableLambda } from "@langchain/core/runnables";
import { openMemory, createOpenAICompatibleLanguageModel, providerConfigFromEnv, renderEvidence } from "ramem";
import { RamemChatMessageHistory, RamemRetriever } from "ramem/langchain";

const config = providerConfigFromEnv(process.env).llm;
if (!config) throw new Error("set RAMEM_LLM_BASE_URL and RAMEM_LLM_MODEL (and RAMEM_LLM_API_KEY if needed)");
const llm = createOpenAICompatibleLanguageModel(config);
const memory = await openMemory({ db: "agent-memory.db", defaultNamespace: "langchain-demo", languageModel: null });
const retriever = new RamemRetriever({ memory, k: 6, minScore: 0.05 });
const history = new RamemChatMessageHistory({ memory, sessionId: `chat-${new Date().toISOString().slice(0, 10)}` });

const answer = RunnableLambda.from(async (question: string) => {
  const docs = await retriever.invoke(question);
  // Each Document carries its episode (session date, event time, participants) in metadata; the pack shows them to the model.
  const units = await Promise.all(docs.map((d) => memory.get(d.metadata.unitId)));
  const evidence = renderEvidence(units.filter((u) => u !== null)).text;
  const recent = (await history.getMessages()).slice(-6).map((m) => `${m.getType()}: ${String(m.content)}`).join("\n");
  const result = await llm.complete({
    messages: [
      { role: "system", content: `Answer from the memories when their episode fits the question.\n${evidence}` },
      { role: "user", content: `${recent ? `Recent conversation:\n${recent}\n\n` : ""}${question}` },
    ],
  });
  await history.addUserMessage(question);
  await history.addAIMessage(result.text);
  return result.text;
});

const rl = createInterface({ input: process.stdin, output: process.stdout });
for (;;) {
  const line = (await rl.question("you> ")).trim();
  if (!line || line === "exit") break;
  console.log(`agent> ${await answer.invoke(line)}`);
}
rl.close();
await memory.close();
