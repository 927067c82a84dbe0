import { test } from "node:test";
import assert from "node:assert/strict";
import { Memory } from "../memory.js";
import { openSqliteStore } from "../store/sqlite/sqlite-store.js";
import { createHashEmbedder } from "../providers/hash-embedder.js";
import { answersToQuestions } from "./answers-to-questions.js";

test("answersToQuestions: the turn after each candidate that asks, by the store's nextUnits and by listing the session under a filter", async () => {
  const memory = new Memory({ store: await openSqliteStore(":memory:"), embedder: createHashEmbedder() });
  try {
    await memory.ingest([
      {
        session: { id: "s1", namespace: "ns", startTime: "2023-07-02T10:00:00.000Z", endTime: "2023-07-02T10:00:00.000Z", participants: ["Ann", "Bo"] },
        turns: [
          { id: "t1", speaker: "Bo", text: "How was Enugu?" },
          { id: "t2", speaker: "Ann", text: "So good, we cooked jollof for eighty guests." },
          { id: "t3", speaker: "Bo", text: "Did your mum dance?" },
        ],
      },
    ]);
    const units = await memory.store.listUnits("ns");
    const byTurn = (t: string) => units.find((u) => u.provenance.turnIds[0] === t)!;
    const candidates = [byTurn("t1"), byTurn("t2"), byTurn("t3")];
    const answers = await answersToQuestions(memory.store, "ns", candidates, (u) => u);
    // A statement has no answer; the session's last question has none yet.
    assert.deepEqual([...answers].map(([q, a]) => [q, a.id]), [[byTurn("t1").id, byTurn("t2").id]]);
    const filtered = await answersToQuestions(memory.store, "ns", candidates, (u) => u, { field: "sessionId", op: "eq", value: "s1" });
    assert.deepEqual([...filtered.keys()], [byTurn("t1").id], "the same through a filter (the session listed)");
  } finally {
    await memory.close();
  }
});
