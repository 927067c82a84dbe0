/**
 * What the first recall after an append pays for state validity: appends
 * one turn at a time into sessions of an existing namespace and, after
 * each, times namespaceValidity (it re-reads only the changed session)
 * against deriving it from every state unit read afresh (what it did before,
 * the floor it must beat), interleaved, and checks both give the same
 * validities. Not a test: a timing. It writes into the store: point it at a
 * scratch one, e.g. a `ramem bench scale` store.
 *
 *   node --import tsx src/bench/timings/validity-after-append.ts --store <sqlite file | postgres://...?schema=...> [--namespace scale-0] [--rounds 8]
 */
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { openStore } from "../../store/open-store.js";
import { Memory } from "../../memory.js";
import { createHashEmbedder } from "../../providers/hash-embedder.js";
import { deriveValidity } from "../../anchoring/derive-validity.js";
import { namespaceValidity } from "../../anchoring/namespace-validity.js";

const { values } = parseArgs({ options: { store: { type: "string" }, namespace: { type: "string", default: "scale-0" }, rounds: { type: "string", default: "8" } } });
if (!values.store) throw new Error("--store <location> is required (a scratch store: the bench appends to it)");
const ns = values.namespace!;
const store = await openStore(values.store);
const memory = new Memory({ store, embedder: createHashEmbedder(), defaultNamespace: ns });
if (!store.listStateUnits) throw new Error("this store has no listStateUnits");
const entries = (m: Map<string, unknown>) => JSON.stringify([...m].sort(([a], [b]) => (a < b ? -1 : 1)));
const sessions0 = await store.listSessions(ns);
if (sessions0.length === 0) throw new Error(`namespace ${ns} is empty`);
let t = performance.now();
await namespaceValidity(store, ns, sessions0);
const coldMs = performance.now() - t;
const incremental: number[] = [];
const full: number[] = [];
const rounds = Number(values.rounds);
for (let r = 0; r < rounds; r++) {
  const target = sessions0[(r * 617) % sessions0.length]!;
  await memory.add([{ role: "user", content: `I moved to city number ${r} last week.` }], { namespace: ns, sessionId: target.id });
  const sessions = await store.listSessions(ns);
  const runIncremental = async () => {
    const t0 = performance.now();
    const v = (await namespaceValidity(store, ns, sessions)).validity;
    incremental.push(performance.now() - t0);
    return v;
  };
  const runFull = async () => {
    const t0 = performance.now();
    const v = deriveValidity(await store.listStateUnits!(ns));
    full.push(performance.now() - t0);
    return v;
  };
  // Alternating which goes first, so both see the same caches and load.
  const [a, b] = r % 2 === 0 ? [await runIncremental(), await runFull()] : [await runFull(), await runIncremental()];
  if (entries(a) !== entries(b)) throw new Error(`round ${r}: the incremental validity differs from the full derivation`);
}
const p50 = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
const round1 = (x: number) => Math.round(x * 10) / 10;
console.log(
  JSON.stringify({
    dialect: store.dialect,
    stateUnits: (await store.listStateUnits(ns)).length,
    coldMs: round1(coldMs),
    afterAppendP50Ms: round1(p50(incremental)),
    fullDerivationP50Ms: round1(p50(full)),
    rounds,
    identical: true,
    loadAverage: loadavg().map((l) => Math.round(l * 100) / 100),
  }),
);
await memory.close();
