/**
 * The other tenant's writer of the tenants bench (run-tenants.ts), in a
 * thread of its own with its own store connection, as another replica
 * would be: each task appends generated sessions to its namespace for
 * `ms`, then reports how many units it wrote.
 */
import { workerData } from "node:worker_threads";
import { servePoolTasks } from "../../util/serve-pool-tasks.js";
import { openStore } from "../../store/open-store.js";
import { Memory } from "../../memory.js";
import { createHashEmbedder } from "../../providers/hash-embedder.js";
import { generateConversations } from "../scale/generate-conversations.js";

const { store: location, namespace, seed } = workerData as { store: string; namespace: string; seed: number };
const memory = new Memory({ store: await openStore(location), embedder: createHashEmbedder() });
let round = 0;

servePoolTasks<{ ms: number }, { units: number; seconds: number }>(async ({ ms }) => {
  const started = performance.now();
  let units = 0;
  while (performance.now() - started < ms) {
    const corpus = generateConversations({ seed: seed + round, turns: 200, namespaces: 1, queries: 0 });
    const sessions = corpus.namespaces[0]!.sessions.map((s) => ({ ...s, session: { ...s.session, id: `w${round}-${s.session.id}`, namespace } }));
    round++;
    units += (await memory.ingest(sessions)).unitsWritten;
  }
  return { units, seconds: (performance.now() - started) / 1000 };
});
