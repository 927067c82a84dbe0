// Old vs new PostgreSQL store writes in one run: sessions already anchored and
// embedded are read from a SQLite store (e.g. the scale bench's 100k file) and
// written through replaceSession, block by block, alternately into a schema
// opened with the old checkout's PostgreSQL store and one opened with this
// checkout's, so both share the machine's load. Prints units/s of each side,
// the ratio and the 1-minute load average before and after. Without --old
// only this checkout's side runs (e.g. to copy a whole store; --keep keeps
// the schema). --defer-index: this checkout's side drops the HNSW index
// before the first write and builds it after the last one (timed with the
// writes), as a bulk load does.
//
// Usage:
//   git archive <old commit> src package.json | tar -x -C /tmp/baseline && ln -s $PWD/node_modules /tmp/baseline/
//   node --import tsx research/compare-store-writes.ts --from <sqlite file> --to postgres://... \
//     [--old /tmp/baseline] [--units 4000] [--block 10] [--namespace scale-0] [--schema NAME] [--keep] [--defer-index] [--maintenance-work-mem 1GB]
import { loadavg } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { performance } from "node:perf_hooks";
import type { MemoryStore, UnitRecord } from "../src/store/contract.js";
import type { StoredSession } from "../src/store/contract.js";
import { openSqliteStore } from "../src/store/sqlite/sqlite-store.js";
import { openPostgresStore } from "../src/store/postgres/postgres-store.js";

function argValue(name: string, fallback?: string): string {
  const i = process.argv.indexOf(name);
  const v = i >= 0 ? process.argv[i + 1] : fallback;
  if (v === undefined) throw new Error(`pass ${name}`);
  return v;
}
const has = (name: string) => process.argv.includes(name);

const from = argValue("--from");
const to = argValue("--to");
const oldRoot = has("--old") ? resolve(argValue("--old")) : null;
const unitsWanted = Number(argValue("--units", "4000"));
const block = Number(argValue("--block", "10"));
const namespace = argValue("--namespace", "scale-0");
const schemaBase = argValue("--schema", `writes_${process.pid}`);
const keep = has("--keep");
const deferIndex = has("--defer-index");
const maintenanceWorkMem = has("--maintenance-work-mem") ? argValue("--maintenance-work-mem") : undefined;

const source = await openSqliteStore(from);
const sessions: StoredSession[] = [];
let units = 0;
for (const s of await source.listSessions(namespace)) {
  if (units >= unitsWanted) break;
  sessions.push(s);
  units += s.unitCount;
}
const { embedder, dimensions } = await source.stats();

/** A session's units with their vectors, read once from the source. */
async function recordsOf(s: StoredSession): Promise<UnitRecord[]> {
  const list = await source.listUnits(namespace, { sessionId: s.id });
  const vectors = await source.getUnitEmbeddings(namespace, list.map((u) => u.id));
  return list.map((unit) => ({ unit, embedding: vectors.get(unit.id)! }));
}

type Open = typeof openPostgresStore;
const sides: Array<{ name: "old" | "new"; store: MemoryStore; ms: number }> = [];
let newStore: Awaited<ReturnType<Open>> | undefined;
if (oldRoot) {
  const mod = (await import(pathToFileURL(join(oldRoot, "src", "store/postgres/postgres-store.ts")).href)) as { openPostgresStore: Open };
  sides.push({ name: "old", store: await mod.openPostgresStore(to, { schema: `${schemaBase}_old`, dropSchemaOnClose: !keep }), ms: 0 });
}
newStore = await openPostgresStore(to, { schema: oldRoot ? `${schemaBase}_new` : schemaBase, dropSchemaOnClose: !keep });
sides.push({ name: "new", store: newStore, ms: 0 });
for (const side of sides) await side.store.bindEmbedder(embedder!, dimensions!);
const index = { dropped: false, buildSeconds: 0, loadSeconds: 0 };
if (deferIndex) index.dropped = await newStore.dropDenseIndex();

const before = loadavg()[0]!;
try {
  for (let i = 0; i < sessions.length; i += block) {
    const part = await Promise.all(sessions.slice(i, i + block).map(async (s) => ({ s, records: await recordsOf(s) })));
    // Alternate which side goes first, so neither always runs on a machine the other just warmed.
    const order = (i / block) % 2 === 0 ? sides : [...sides].reverse();
    for (const side of order) {
      const started = performance.now();
      for (const { s, records } of part) await side.store.replaceSession(s, s.contentHash, records);
      side.ms += performance.now() - started;
    }
    process.stderr.write(`\r${Math.min(i + block, sessions.length)}/${sessions.length} sessions`);
  }
  if (deferIndex) {
    const side = sides.at(-1)!;
    index.loadSeconds = +(side.ms / 1000).toFixed(1);
    const built = await newStore.rebuildDenseIndex(maintenanceWorkMem ? { maintenanceWorkMem } : {});
    index.buildSeconds = +built.seconds.toFixed(1);
    side.ms += built.seconds * 1000;
  }
} finally {
  for (const side of sides) await side.store.close();
  await source.close();
}
const after = loadavg()[0]!;
const rate = (ms: number) => +(units / (ms / 1000)).toFixed(1);
const figures = Object.fromEntries(sides.map((s) => [`${s.name}UnitsPerSecond`, rate(s.ms)]));
const old = sides.find((s) => s.name === "old");
console.log(
  `\n${JSON.stringify({ from, sessions: sessions.length, units, ...figures, ...(old ? { speedup: +(old.ms / sides.at(-1)!.ms).toFixed(2) } : {}), ...(deferIndex ? { deferredIndex: index } : {}), loadAverage: [+before.toFixed(2), +after.toFixed(2)] })}`,
);
