/**
 * One process of `ramem bench reliability` (run-reliability.ts), in one of
 * two roles:
 * - "workload": opens its own Memory on the shared store, runs the random
 *   mixed writes until the deadline (workload.ts), says it stopped, and on
 *   the parent's word — once every worker has stopped — writes the validity
 *   it sees then;
 * - "inspect": a fresh process with a new store handle that writes what the
 *   store holds at the end (every unit of the namespaces, and their
 *   validity) for the checker.
 */
import { writeFileSync } from "node:fs";
import { openMemory } from "../../open-memory.js";
import { openStore } from "../../store/open-store.js";
import type { Memory } from "../../memory.js";
import { runWorkload, validitySnapshot, type WorkloadPlan } from "./workload.js";
import type { FinalState, FoundUnit } from "./op-log.js";

export type ReliabilityJob =
  | { role: "workload"; location: string; plan: Omit<WorkloadPlan, "until">; snapshotPath: string }
  | { role: "inspect"; location: string; namespaces: string[]; outPath: string };

/** A workload's deadline comes with "start", once every worker has its store open: starting a process (tsx, the store) takes seconds on a loaded machine. */
export type ToWorker = { type: "job"; job: ReliabilityJob } | { type: "start"; until: number } | { type: "snapshot" };

export type FromWorker =
  | { type: "ready" }
  | { type: "opened" }
  | { type: "stopped"; operations: number }
  | { type: "done" }
  | { type: "failed"; message: string; code?: string; hint?: string };

const send = (m: FromWorker) => new Promise<void>((resolve) => process.send!(m, () => resolve()));

async function open(location: string): Promise<Memory> {
  // The hash embedder: the bench measures the store's writes, not the model.
  return openMemory({ store: await openStore(location), embedder: "hash", languageModel: null, env: {} });
}

/** The parent's next message of this type. */
function next(type: ToWorker["type"]): Promise<ToWorker> {
  return new Promise((resolve) => {
    const on = (m: ToWorker) => {
      if (m.type !== type) return;
      process.off("message", on);
      resolve(m);
    };
    process.on("message", on);
  });
}

async function run(job: ReliabilityJob): Promise<void> {
  const memory = await open(job.location);
  try {
    if (job.role === "workload") {
      const started = next("start");
      const snapshotAsked = next("snapshot");
      await send({ type: "opened" });
      const { until } = (await started) as Extract<ToWorker, { type: "start" }>;
      const operations = await runWorkload(memory, { ...job.plan, until });
      await send({ type: "stopped", operations });
      await snapshotAsked;
      writeFileSync(job.snapshotPath, JSON.stringify(await validitySnapshot(memory, job.plan.namespaces)));
    } else {
      const units: FoundUnit[] = [];
      for (const namespace of job.namespaces)
        for (const u of await memory.list({ namespace }))
          units.push({ id: u.id, namespace, sessionId: u.provenance.sessionId, turnIds: u.provenance.turnIds, text: u.source?.[0]?.text ?? u.content });
      const final: FinalState = { units, validity: await validitySnapshot(memory, job.namespaces) };
      writeFileSync(job.outPath, JSON.stringify(final));
    }
  } finally {
    await memory.close();
  }
  await send({ type: "done" });
}

// A worker whose parent is gone stops at once instead of writing on unseen.
process.on("disconnect", () => process.exit(1));

void next("job").then((m) =>
  run((m as Extract<ToWorker, { type: "job" }>).job).then(
    () => {
      process.removeAllListeners("disconnect");
      process.disconnect();
    },
    (e: unknown) => {
      const err = e as { message?: string; code?: string; hint?: string };
      process.send!({ type: "failed", message: err.message ?? String(e), ...(err.code ? { code: err.code } : {}), ...(err.hint ? { hint: err.hint } : {}) } satisfies FromWorker, () => process.exit(1));
    },
  ),
);
process.send!({ type: "ready" } satisfies FromWorker);
