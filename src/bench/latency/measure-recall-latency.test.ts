import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { openSqliteStore } from "../../store/sqlite/sqlite-store.js";
import { createHashEmbedder } from "../../providers/hash-embedder.js";
import { Memory } from "../../memory.js";
import { measureRecallLatency, summarize } from "./measure-recall-latency.js";

describe("measureRecallLatency", () => {
  it("summarize gives nearest-rank percentiles", () => {
    const s = summarize(Array.from({ length: 100 }, (_, i) => i + 1));
    assert.deepEqual([s.n, s.p50, s.p95, s.max, s.mean], [100, 50, 95, 100, 50.5]);
    assert.equal(summarize([7]).p95, 7);
  });

  it("times every channel once per counted query on a real store", async () => {
    const embedder = createHashEmbedder();
    const memory = new Memory({ store: await openSqliteStore(":memory:"), embedder });
    try {
      await memory.ingest([
        {
          session: { id: "s1", namespace: "ns", startTime: "2023-05-08T10:00:00Z", endTime: "2023-05-08T10:00:00Z", participants: ["Ana", "Ben"] },
          turns: [
            { id: "t1", speaker: "Ana", text: "I moved to Lisbon last August." },
            { id: "t2", speaker: "Ben", text: "Did you take the cat?" },
          ],
        },
      ]);
      const question = "Where did Ana move?";
      const [vector] = await embedder.embed([question]);
      const queries = Array.from({ length: 5 }, () => ({ namespace: "ns", question, vector: vector! }));
      const r = await measureRecallLatency(memory, queries, { warmup: 2 });
      assert.equal(r.dialect, "sqlite");
      assert.equal(r.queries, 3);
      for (const s of [r.lexical, r.dense, r.recall, r.contentOnly]) {
        assert.equal(s.n, 3);
        assert.ok(s.p50 >= 0 && s.p50 <= s.p95 && s.p95 <= s.max);
      }
    } finally {
      await memory.close();
    }
  });
});
