/**
 * Mem0's OSS quickstart for Node, call for call, on ramem: the only line
 * changed from Mem0's is the import (`mem0ai/oss` → `ramem/mem0`). No API
 * key, no LLM: memories go to ./ramem.db (or $RAMEM_DB).
 *
 *   npx tsx examples/mem0-quickstart.ts
 */
import { Memory } from "ramem/mem0";

const memory = new Memory();

const messages = [
  { role: "user", content: "I'm planning to watch a movie tonight. Any recommendations?" },
  { role: "assistant", content: "How about thriller movies? They can be quite engaging." },
  { role: "user", content: "I'm not a big fan of thriller movies but I love sci-fi movies." },
  { role: "assistant", content: "Got it! I'll avoid thriller recommendations and suggest sci-fi movies in the future." },
];

// Store memories (inferred by default in Mem0; ramem keeps each message, anchored in its episode).
const added = await memory.add(messages, { userId: "alice", metadata: { category: "movie_recommendations" } });
console.log("add:", added.results.length, "memories");

// Store a raw memory without inference.
await memory.add("I prefer watching films on weekends.", { userId: "alice", infer: false });

// Search.
const results = await memory.search("What kind of movies does alice love?", { filters: { user_id: "alice" }, topK: 3 });
for (const r of results.results) console.log("search:", r.score?.toFixed(3), r.memory);

// Retrieve all memories, and one by id.
const allMemories = await memory.getAll({ filters: { user_id: "alice" } });
console.log("getAll:", allMemories.results.length, "memories");
const memoryId = allMemories.results[0]?.id;
if (!memoryId) throw new Error("no memory stored");
const one = await memory.get(memoryId);
console.log("get:", one?.memory);

// Update a memory, and read its history.
console.log("update:", (await memory.update(memoryId, "I love sci-fi movies, especially Dune.")).message);
const history = await memory.history(memoryId);
console.log("history:", history.map((h) => h.action).join(", "));

// Delete one memory, then all of alice's, then everything.
console.log("delete:", (await memory.delete(memoryId)).message);
console.log("deleteAll:", (await memory.deleteAll({ userId: "alice" })).message);
await memory.reset();
console.log("reset: done");
