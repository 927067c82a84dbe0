/**
 * The adapter against Mem0's own TypeScript types (`mem0ai/oss` 3.3.1, a dev
 * dependency, imported for types only): what ramem/mem0 returns must be
 * assignable to what Mem0 declares, and what code typed with Mem0's types
 * passes must be accepted. A drift fails `tsc` (npm test typechecks first);
 * the run-time half checks the shapes' keys and that the adapter's own
 * files never load mem0ai.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type * as Mem0 from "mem0ai/oss";
import { openMemory } from "../../open-memory.js";
import { Memory, type Mem0Config } from "./index.js";

/** The public methods of Mem0's Memory: ours must have them with compatible signatures and results. */
type Mem0Methods = Pick<Mem0.Memory, "add" | "search" | "get" | "getAll" | "update" | "delete" | "deleteAll" | "history" | "reset">;

/** Keys a memory of search/getAll/get may carry: Mem0's MemoryItem, the ids its runtime spreads in, their camelCase. */
const ITEM_KEYS = new Set(["id", "memory", "hash", "createdAt", "updatedAt", "score", "metadata", "user_id", "agent_id", "run_id", "userId", "agentId", "runId", "score_details"]);
const HISTORY_KEYS = ["id", "memory_id", "previous_value", "new_value", "action", "created_at", "updated_at", "is_deleted", "memoryId", "previousValue", "newValue", "createdAt", "updatedAt", "isDeleted"];

describe("ramem/mem0 conforms to mem0ai/oss's types", () => {
  it("takes Mem0-typed arguments and gives results Mem0's types accept", async () => {
    const ramem = await openMemory({ db: ":memory:", embedder: "hash", languageModel: null, env: {} });
    const config: Partial<Mem0.MemoryConfig> = { version: "v1.1", disableHistory: false };
    const ours = new Memory({ ...config, memory: ramem });
    const asMem0: Mem0Methods = ours;
    // A whole Mem0 config (its providers included) is a config here too: the parts that do not apply are ignored, not type errors.
    const mem0Config: Partial<Mem0.MemoryConfig> = {
      embedder: { provider: "openai", config: { apiKey: "sk-x", model: "text-embedding-3-small" } },
      vectorStore: { provider: "memory", config: { collectionName: "memories", dimension: 1536 } },
      llm: { provider: "openai", config: { apiKey: "sk-x", model: "gpt-4.1-nano" } },
      historyStore: { provider: "sqlite", config: { historyDbPath: "memory.db" } },
      customInstructions: "Extract food preferences.",
    };
    const accepted: Mem0Config = mem0Config;
    void accepted;
    const fromConfig: (configDict: Record<string, unknown>) => Memory = Memory.fromConfig;
    void fromConfig;

    const messages: Mem0.Message[] = [
      { role: "user", content: "I'm a vegetarian and allergic to nuts." },
      { role: "assistant", content: "Noted: vegetarian, no nuts." },
    ];
    const addOptions: Mem0.AddMemoryOptions = { userId: "alex", metadata: { food: "preferences" }, infer: true };
    const added: Mem0.SearchResult = await asMem0.add(messages, addOptions);
    assert.equal(added.results.length, 2);

    const searchOptions: Mem0.SearchMemoryOptions = { filters: { user_id: "alex" }, topK: 5, threshold: 0 };
    const searched: Mem0.SearchResult = await asMem0.search("what can alex not eat? nuts", searchOptions);
    const item: Mem0.MemoryItem = searched.results[0]!;
    assert.ok(item.score !== undefined && item.memory.length > 0);
    for (const r of searched.results) for (const k of Object.keys(r)) assert.ok(ITEM_KEYS.has(k), `search gives ${k}`);

    const getAllOptions: Mem0.GetAllMemoryOptions = { filters: { user_id: "alex" }, topK: 10 };
    const all: Mem0.SearchResult = await asMem0.getAll(getAllOptions);
    for (const r of all.results) for (const k of Object.keys(r)) assert.ok(ITEM_KEYS.has(k), `getAll gives ${k}`);

    const one: Mem0.MemoryItem | null = await asMem0.get(item.id);
    assert.equal(one?.id, item.id);

    const update: Mem0.UpdateMemoryOptions = { text: "Vegetarian; allergic to nuts and shellfish." };
    const updated: { message: string } = await asMem0.update(item.id, update);
    assert.equal(updated.message, "Memory updated successfully!");
    assert.equal((await asMem0.update(item.id, "Vegetarian.")).message, "Memory updated successfully!");

    const history: unknown[] = await asMem0.history(item.id);
    assert.equal(history.length, 3);
    for (const h of history) assert.deepEqual(Object.keys(h as object).sort(), [...HISTORY_KEYS].sort());

    const deleted: { message: string } = await asMem0.delete(item.id);
    assert.equal(deleted.message, "Memory deleted successfully!");
    const scope: Mem0.DeleteAllMemoryOptions = { userId: "alex" };
    const cleared: { message: string } = await asMem0.deleteAll(scope);
    assert.equal(cleared.message, "Memories deleted successfully!");
    const reset: void = await asMem0.reset();
    void reset;
    await ramem.close();
  });

  it("the adapter's code never imports mem0ai, and `import \"ramem\"` never loads the adapter", () => {
    const here = dirname(fileURLToPath(import.meta.url));
    for (const file of readdirSync(here).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))) {
      assert.doesNotMatch(readFileSync(join(here, file), "utf8"), /from\s+["']mem0ai|import\(\s*["']mem0ai/, `${file} must not import mem0ai`);
    }
    assert.doesNotMatch(readFileSync(join(here, "..", "..", "index.ts"), "utf8"), /integrations\/mem0/);
  });
});
