// Old vs new offline ingest (rule anchorer + USE-lite + SQLite) in one run,
// interleaved block by block so both share the machine's load: a block of
// sessions is ingested by the old checkout's code (its own Memory, store,
// anchorer and in-process embedder), then the same block by this checkout's
// (the USE-lite thread pool). Prints turns/s of each and the ratio, with the
// 1-minute load average before and after.
//
// Usage:
//   git archive <old commit> src package.json | tar -x -C tmp/baseline
//   cp -r node_modules/compromise tmp/baseline/node_modules/   # its own compromise: the new code caches its match parsing
//   node --import tsx research/compare-ingest-speed.ts --old tmp/baseline --data <LoCoMo or LongMemEval file> [--turns 600] [--threads 2] [--block 8] [--embedder use-lite|hash]
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { readConversationFile } from "../src/formats/conversation-file.js";
import { Memory } from "../src/memory.js";
import { createEmbedder } from "../src/open-memory.js";
import { createRuleAnchorer } from "../src/anchoring/rule-anchorer.js";
import { openSqliteStore } from "../src/store/sqlite/sqlite-store.js";
import type { SessionWithTurns } from "../src/model/conversation.js";

function argValue(name: string, fallback?: string): string {
  const i = process.argv.indexOf(name);
  const v = i >= 0 ? process.argv[i + 1] : fallback;
  if (v === undefined) throw new Error(`pass ${name}`);
  return v;
}

const oldRoot = resolve(argValue("--old"));
const data = argValue("--data");
const turnsWanted = Number(argValue("--turns", "600"));
const threads = Number(argValue("--threads", String(availableParallelism())));
const block = Number(argValue("--block", "8"));
const embedderName = argValue("--embedder", "use-lite") as "use-lite" | "hash";

const load = async <T>(path: string): Promise<T> => (await import(pathToFileURL(join(oldRoot, "src", path)).href)) as T;
const oldMemoryModule = await load<{ Memory: typeof Memory }>("memory.ts");
const oldOpen = await load<{ createEmbedder: (name: string) => Promise<unknown> }>("open-memory.ts");
const oldAnchoring = await load<{ createRuleAnchorer: typeof createRuleAnchorer }>("anchoring/rule-anchorer.ts");
const oldSqlite = await load<{ openSqliteStore: typeof openSqliteStore }>("store/sqlite/sqlite-store.ts");

const { conversations } = await readConversationFile(data);
const sample: SessionWithTurns[] = [];
let turns = 0;
for (const s of conversations.flatMap((c) => c.sessions)) {
  if (turns >= turnsWanted) break;
  sample.push(s);
  turns += s.turns.length;
}

const dir = mkdtempSync(join(tmpdir(), "ramem-ingest-speed-"));
const oldEmbedder = (await oldOpen.createEmbedder(embedderName)) as Awaited<ReturnType<typeof createEmbedder>>;
const newEmbedder = await createEmbedder(embedderName, process.env, { threads });
// Models load before the clock starts (every pool thread: one warm-up call each).
await oldEmbedder.embed(["warm up"]);
await Promise.all(Array.from({ length: threads }, () => newEmbedder.embed(Array.from({ length: 16 }, (_, i) => `warm up ${i}`))));
const oldMemory = new oldMemoryModule.Memory({ store: await oldSqlite.openSqliteStore(join(dir, "old.db")), embedder: oldEmbedder, anchorer: oldAnchoring.createRuleAnchorer() });
const newMemory = new Memory({ store: await openSqliteStore(join(dir, "new.db")), embedder: newEmbedder, ownsEmbedder: true, anchorer: createRuleAnchorer() });

const before = loadavg()[0]!;
const ms = { old: 0, new: 0 };
try {
  for (let i = 0; i < sample.length; i += block) {
    const part = sample.slice(i, i + block);
    // Alternate which side goes first, so neither always runs on a machine the other just warmed.
    const order = (i / block) % 2 === 0 ? (["old", "new"] as const) : (["new", "old"] as const);
    for (const side of order) {
      const started = performance.now();
      await (side === "old" ? oldMemory : newMemory).ingest(part);
      ms[side] += performance.now() - started;
    }
    process.stderr.write(`\r${Math.min(i + block, sample.length)}/${sample.length} sessions`);
  }
} finally {
  await oldMemory.close();
  await newMemory.close();
  rmSync(dir, { recursive: true, force: true });
}
const after = loadavg()[0]!;
const rate = (t: number) => +(turns / (t / 1000)).toFixed(1);
console.log(
  `\n${JSON.stringify({ data, embedder: embedderName, threads, sessions: sample.length, turns, oldTurnsPerSecond: rate(ms.old), newTurnsPerSecond: rate(ms.new), speedup: +(ms.old / ms.new).toFixed(2), loadAverage: [+before.toFixed(2), +after.toFixed(2)] })}`,
);
