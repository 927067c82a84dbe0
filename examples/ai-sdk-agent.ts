/**
 * A chat agent with long-term memory, on the Vercel AI SDK and any
 * OpenAI-compatible endpoint (OpenAI, Ollama, vLLM, llama.cpp, LM Studio):
 * every turn recalls what the user said in earlier conversations, answers
 * with it, and stores the exchange.
 *
 *   OPENAI_BASE_URL=http://127.0.0.1:11434/v1 OPENAI_MODEL=llama3.1 \
 *     npx tsx examples/ai-sdk-agent.ts            # then type; "exit" ends
 *
 * Memory lives in ./agent-memory.db (offline embedder); --user <name> picks the namespace.
 */
import { createInterface } from "node:readline/promises";
import { parseArgs } from "node:util";
import { generateText, stepCountIs, type ModelMessage } from "ai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { openMemory } from "ramem";
import { recallTool, withRamem } from "ramem/ai-sdk";

const { values } = parseArgs({ options: { user: { type: "string", default: "me" }, db: { type: "string", default: "agent-memory.db" } } });
const baseURL = process.env.OPENAI_BASE_URL ?? "https://api.openai.com/v1";
const provider = createOpenAICompatible({ name: "chat", baseURL, apiKey: process.env.OPENAI_API_KEY ?? "none" });
const memory = await openMemory({ db: values.db, defaultNamespace: values.user, languageModel: null });
// Recalled evidence goes into the system prompt before every call; the exchange is stored after it.
const model = withRamem(provider(process.env.OPENAI_MODEL ?? "gpt-4o-mini"), memory);

const rl = createInterface({ input: process.stdin, output: process.stdout });
const history: ModelMessage[] = [];
console.log(`memory: ${memory.store.location}, namespace ${values.user}. Type a message ("exit" ends).`);
for (;;) {
  const line = (await rl.question("you> ")).trim();
  if (!line || line === "exit") break;
  history.push({ role: "user", content: line });
  // recallTool lets the model search memory again mid-answer (a second question, another time window).
  const { text } = await generateText({ model, system: "You are a helpful assistant with long-term memory.", messages: history, tools: { recall: recallTool(memory) }, stopWhen: stepCountIs(3) });
  history.push({ role: "assistant", content: text });
  console.log(`agent> ${text}`);
}
rl.close();
await memory.close();
