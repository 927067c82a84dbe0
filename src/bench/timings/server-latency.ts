/**
 * Latency of the REST API on a real store, over loopback HTTP:
 *   npm run -s ramem -- ingest --format locomo --db /tmp/lc.db --embedder hash ../shared/datasets/locomo/locomo10.json
 *   node --import tsx src/bench/timings/server-latency.ts /tmp/lc.db conv-26
 * Appends 10 turns to the namespace's largest session and imports a copy into
 * "<ns>-copy": run it on a scratch store.
 */
import { openMemory } from "../../open-memory.js";
import { openApiKeyStore } from "../../store/open-api-key-store.js";
import { startServer } from "../../server/serve.js";

const [db, ns = "conv-26"] = process.argv.slice(2);
if (!db) throw new Error("usage: bench-server.ts DB [NAMESPACE]");
const memory = await openMemory({ db, languageModel: null });
const keys = await openApiKeyStore(db);
const server = await startServer({ memory, keys, port: 0, warn: () => {} });
const post = (path: string, body: unknown) => fetch(server.url + path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p90 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.9)]!;
try {
  const queries = ["What did Caroline research?", "When did Melanie paint a sunrise?", "What did Caroline do in July 2023?", "Where did Melanie go camping?", "What are Caroline's plans for the summer?"];
  for (const q of queries) await (await post(`/v1/namespaces/${ns}/recall`, { query: q, k: 10 })).text();
  const recall: number[] = [];
  for (let i = 0; i < 50; i++) {
    const t0 = performance.now();
    await (await post(`/v1/namespaces/${ns}/recall`, { query: queries[i % queries.length], k: 10 })).text();
    recall.push(performance.now() - t0);
  }
  const stats = await memory.stats(ns);
  console.log(`recall k=10, ${ns} (${stats.units} units, ${memory.embedder.id}): median ${median(recall).toFixed(1)} ms, p90 ${p90(recall).toFixed(1)} ms (50 requests)`);

  const largest = (await memory.store.listSessions(ns)).sort((a, b) => b.unitCount - a.unitCount)[0]!;
  const append: number[] = [];
  for (let i = 0; i < 10; i++) {
    const t0 = performance.now();
    const r = await post(`/v1/namespaces/${ns}/sessions/${encodeURIComponent(largest.id)}/turns`, { turns: [{ speaker: "Bench", text: `Appended note number ${i}.` }] });
    if (r.status !== 200) throw new Error(await r.text());
    await r.text();
    append.push(performance.now() - t0);
  }
  console.log(`append 1 turn to ${largest.id} (${largest.unitCount}+ units): median ${median(append).toFixed(1)} ms (10 requests)`);

  let t0 = performance.now();
  const exported = await (await fetch(`${server.url}/v1/namespaces/${ns}/export`)).text();
  const header = JSON.parse(exported.slice(0, exported.indexOf("\n"))) as { sessions: number; units: number };
  console.log(`export: ${header.sessions} sessions, ${header.units} units, ${(exported.length / 1e6).toFixed(2)} MB in ${(performance.now() - t0).toFixed(0)} ms`);
  t0 = performance.now();
  const imported = await fetch(`${server.url}/v1/namespaces/${ns}-copy/import`, { method: "POST", headers: { "content-type": "application/x-ndjson" }, body: exported });
  console.log(`import: HTTP ${imported.status} ${await imported.text()} in ${(performance.now() - t0).toFixed(0)} ms`);
} finally {
  await server.close();
  await keys.close();
  await memory.close();
}
