// Measures what an agent pays to remember a conversation one turn per call:
//   node --import tsx src/server/mcp/bench-append.ts [turns=100]
// (offline use-lite embedder, a temporary SQLite file), then one more append
// after reopening the store (a new process: nothing of the session is in memory). Not a test.
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openMemory } from "../../open-memory.js";
import { rememberTurns } from "./remember-turns.js";

const turns = Number(process.argv[2] ?? 100);
const db = join(tmpdir(), `ramem-bench-append-${process.pid}.db`);
let memory = await openMemory({ db, embedder: "use-lite", languageModel: null, env: {} });
const perCall: number[] = [];
let sessionId: string | undefined;
const started = performance.now();
for (let i = 0; i < turns; i++) {
  const t = performance.now();
  const text = `Message number ${i}: I went hiking near the lake and saw ${i} birds.`;
  const out = await rememberTurns(memory, { namespace: "bench", sessionId, turns: [{ speaker: i % 2 ? "Ana" : "Ben", text }] });
  sessionId = out.sessionId;
  perCall.push(performance.now() - t);
}
const seconds = (performance.now() - started) / 1000;
const median = [...perCall].sort((a, b) => a - b)[Math.floor(turns / 2)]!;
console.log(
  `${turns} single-turn remember calls into one session: total ${seconds.toFixed(1)} s; ` +
    `first ${perCall[0]!.toFixed(0)} ms, last ${perCall[turns - 1]!.toFixed(0)} ms, median ${median.toFixed(0)} ms`,
);
await memory.close();
memory = await openMemory({ db, embedder: "use-lite", languageModel: null, env: {} });
await memory.embedder.embed(["warm the model up"]);
const t = performance.now();
await rememberTurns(memory, { namespace: "bench", sessionId, turns: [{ speaker: "Ana", text: "One more message after a restart." }] });
console.log(`after reopening the store: one more single-turn remember into that ${turns}-turn session: ${(performance.now() - t).toFixed(0)} ms`);
await memory.close();
for (const suffix of ["", "-wal", "-shm"]) rmSync(db + suffix, { force: true });
