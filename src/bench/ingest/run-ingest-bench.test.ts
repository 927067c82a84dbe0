import { test } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { readConversationFile } from "../../formats/conversation-file.js";
import { createAnchorer } from "../../open-memory.js";
import { createHashEmbedder } from "../../providers/hash-embedder.js";
import type { Anchorer } from "../../anchoring/anchorer.js";
import { runIngestBench } from "./run-ingest-bench.js";

const fixture = fileURLToPath(new URL("../../formats/fixtures/locomo-mini.json", import.meta.url));

test("ingest bench: the anchorer alone is timed on every thread count, each pool is closed, and every row counts the sample's units", async () => {
  const sessions = (await readConversationFile(fixture)).conversations.flatMap((c) => c.sessions);
  const turns = sessions.reduce((n, s) => n + s.turns.length, 0);
  assert.ok(sessions.length >= 2, "the fixture gives two sessions to anchor side by side");
  const opened: Array<{ threads: number; closed: boolean; inFlight: number; mostInFlight: number }> = [];
  const anchorer = (threads: number): Anchorer => {
    const inner = createAnchorer("rule", undefined, { threads });
    const entry = { threads, closed: false, inFlight: 0, mostInFlight: 0 };
    opened.push(entry);
    return {
      ...inner,
      anchorSession: async (s) => {
        entry.mostInFlight = Math.max(entry.mostInFlight, ++entry.inFlight);
        try {
          return await inner.anchorSession(s);
        } finally {
          entry.inFlight--;
        }
      },
      close: async () => {
        entry.closed = true;
        await inner.close?.();
      },
    };
  };
  const figures = await runIngestBench({
    datasets: [{ name: "mini", sessions }],
    turns: 10_000,
    variants: ["anchor", "hash"],
    threads: [1, 2],
    anchorer,
    hashEmbedder: async () => createHashEmbedder(),
    useLite: () => Promise.reject(new Error("not timed here")),
  });
  assert.deepEqual(figures.map((f) => f.variant), ["rule anchorer alone", "rule anchorer alone, 2 threads", "rule anchorer + hash vectors + SQLite"]);
  for (const f of figures) {
    assert.equal(f.turns, turns);
    assert.equal(f.units, turns, `${f.variant}: one unit per turn`);
    assert.ok(f.unitsPerSecond > 0);
  }
  assert.deepEqual(figures.map((f) => f.threads), [1, 2, null]);
  // The 2-thread row kept two sessions in flight (the one-thread row one), and the bench closed both anchorers it timed alone.
  assert.deepEqual(opened.slice(0, 2).map((o) => [o.threads, o.closed, o.mostInFlight]), [[1, true, 1], [2, true, 2]]);
});
