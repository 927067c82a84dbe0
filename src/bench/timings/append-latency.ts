/**
 * What an agent pays to remember a conversation one turn at a time, and
 * whether it grows with the session: appends `turns` single-turn messages to
 * one session through Memory.add (anchor, embed, appendUnits) and prints the
 * p50 of the appends around turn 10 and around the last turn, their ratio
 * (target ≤ 1.3 at turn 400) and the load average. Not a test: a timing.
 *
 *   node --import tsx src/bench/timings/append-latency.ts [--store <sqlite file | postgres://...>] [--turns 400] [--embedder use-lite|hash]
 *
 * Default: a temporary SQLite file, 400 turns, the offline use-lite embedder.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { openMemory, type EmbedderName } from "../../open-memory.js";
import { openStore, isPostgresUrl } from "../../store/open-store.js";
import { openPostgresStore } from "../../store/postgres/postgres-store.js";

const { values } = parseArgs({ options: { store: { type: "string" }, turns: { type: "string", default: "400" }, embedder: { type: "string", default: "use-lite" } } });
const turns = Number(values.turns);
const dir = mkdtempSync(join(tmpdir(), "ramem-append-"));
const location = values.store ?? join(dir, "append.db");
const store = isPostgresUrl(location)
  ? await openPostgresStore(location, { schema: `bench_append_${process.pid}`, dropSchemaOnClose: true })
  : await openStore(location);
const memory = await openMemory({ store, embedder: values.embedder as EmbedderName, languageModel: null, env: {} });
// Warm-up (JIT, the model, prepared statements) in another namespace, so turn 10 is not measured cold.
for (let i = 0; i < 30; i++) await memory.add([{ role: "user", content: `warm-up message ${i} about the weather` }], { namespace: "warmup", sessionId: "w" });

const WORDS = ["lake", "birds", "hiking", "bread", "violin", "garden", "train", "letter", "market", "storm", "novel", "harbour"];
const start = Date.parse("2024-01-01T09:00:00Z");
const ms: number[] = [];
let sessionId: string | undefined;
for (let i = 0; i < turns; i++) {
  const text = `Message ${i}: on day ${i % 28} I talked about the ${WORDS[i % WORDS.length]} and the ${WORDS[(i * 7) % WORDS.length]} with ${i % 3 ? "Ana" : "Ben"}.`;
  const now = new Date(start + i * 60_000);
  const t = performance.now();
  const r = await memory.add([{ role: i % 2 ? "assistant" : "user", content: text }], { now, ...(sessionId ? { sessionId } : {}) });
  ms.push(performance.now() - t);
  sessionId = r.sessionId;
}
const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
// Windows of 21 appends: turns 1–21 (around 10; the first creates the session and is left out) and the last 21.
const early = p50(ms.slice(1, 21));
const late = p50(ms.slice(-21));
const stats = await memory.stats("default");
console.log(
  JSON.stringify({
    dialect: memory.store.dialect,
    embedder: memory.embedder.id,
    turns,
    unitsInSession: stats.units,
    p50AtTurn10Ms: Math.round(early * 10) / 10,
    [`p50AtTurn${turns}Ms`]: Math.round(late * 10) / 10,
    ratio: Math.round((late / early) * 100) / 100,
    totalSeconds: Math.round(ms.reduce((a, b) => a + b, 0) / 100) / 10,
    loadAverage: loadavg().map((l) => Math.round(l * 100) / 100),
  }),
);
await memory.close();
rmSync(dir, { recursive: true, force: true });
