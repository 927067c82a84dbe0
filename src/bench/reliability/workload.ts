import { appendFileSync } from "node:fs";
import type { Memory } from "../../memory.js";
import { RamemError } from "../../model/errors.js";
import { unitId } from "../../anchoring/unit-id.js";
import { namespaceValidity } from "../../anchoring/namespace-validity.js";
import { seededRandom } from "../../util/seeded-random.js";
import type { OpKind, OpRecord, ValiditySnapshot } from "./op-log.js";

export interface WorkloadPlan {
  worker: number;
  seed: number;
  namespaces: readonly string[];
  /** Sessions per namespace that every worker writes ("s1" … "sN"): the workers meet in them. */
  sessions: number;
  /** Epoch ms at which the worker stops starting operations. */
  until: number;
  /** The worker's JSONL log of operations. */
  logPath: string;
}

const CITIES = ["Lisbon", "Porto", "Tokyo", "Osaka", "Berlin", "Madrid", "Oslo", "Lima", "Quito", "Cairo"];
const THINGS = ["lamp", "kettle", "umbrella", "bicycle", "guitar", "notebook", "scarf", "teapot"];
const COLOURS = ["green", "red", "blue", "yellow", "black", "white"];
const ROOMS = ["hall", "kitchen", "attic", "garage", "study", "garden"];

/** Each op's share of the mix (cumulative draw); a forget or an update with nothing to act on appends instead. */
const MIX: ReadonlyArray<[OpKind, number]> = [
  ["append", 0.47],
  ["update", 0.15],
  ["forgetUnit", 0.22],
  // Rare: each one empties a session the others are writing.
  ["forgetSession", 0.015],
  ["supersede", 0.115],
  // Warms this process's validity cache, so a write it misses shows as a stale view at the end.
  ["recall", 0.03],
];

/**
 * Each worker's first operations: every kind once, whatever the draw, so a
 * run of a few seconds on a slow machine still acknowledges each (the
 * session forget last: it empties the session the others act on).
 */
const OPENING: readonly OpKind[] = ["append", "append", "update", "supersede", "recall", "forgetUnit", "forgetSession"];

/** Epoch ms with sub-ms resolution: one clock for all the processes on this machine. */
const clock = () => performance.timeOrigin + performance.now();

/**
 * One worker's random mixed writes on the shared namespaces and sessions,
 * until `plan.until`; returns how many operations it ran. The targets of updates, forgets and supersessions are
 * read from the store just before, so the workers act on each other's units
 * (two forgets of one session's units, an update racing a forget): the
 * conflicts the checker looks for. Every call is logged when it returns or
 * throws; a throw is a refusal (the unit was just forgotten, a cycle), not a
 * crash of the worker.
 */
export async function runWorkload(memory: Memory, plan: WorkloadPlan): Promise<number> {
  const random = seededRandom(plan.seed * 7919 + plan.worker * 104_729 + 1);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  let seq = 0;
  let texts = 0;
  // Its own per text (an append of two turns writes two): the checker finds a turn's copies by it.
  const tag = () => `w${plan.worker}-${++texts}`;
  const stateText = () => `${random() < 0.5 ? "I live in" : "I moved to"} ${pick(CITIES)}. (${tag()})`;
  // A question makes the next turn's unit carry it as its cue: a forget or an update then rewrites that neighbour too (the session-wide write whose races the checker looks for).
  const questionText = () => `Where is the ${pick(THINGS)} now, and where do you live? (${tag()})`;
  const noteText = (word: string) => `${word} ${tag()}: the ${pick(COLOURS)} ${pick(THINGS)} is in the ${pick(ROOMS)}.`;

  async function run(base: Omit<OpRecord, "worker" | "seq" | "start" | "end" | "ok">, call: () => Promise<Partial<OpRecord> | void>): Promise<void> {
    const start = clock();
    let record: OpRecord;
    try {
      const extra = (await call()) ?? {};
      record = { worker: plan.worker, seq, ...base, ...extra, start, end: clock(), ok: true };
    } catch (err) {
      const error = err instanceof RamemError ? err.code : err instanceof Error ? `${(err as { code?: string }).code ?? err.name}: ${err.message.slice(0, 120)}` : String(err);
      record = { worker: plan.worker, seq, ...base, start, end: clock(), ok: false, error };
    }
    appendFileSync(plan.logPath, `${JSON.stringify(record)}\n`);
  }

  async function append(namespace: string, sessionId: string, stating = false): Promise<void> {
    const count = random() < 0.2 ? 2 : 1;
    const texts = Array.from({ length: count }, () => {
      const draw = random();
      return stating || draw < 0.35 ? stateText() : draw < 0.55 ? questionText() : noteText("Note");
    });
    // Ann states the states (one subject, so her moves supersede each other); Bob asks, and either leaves notes.
    const speakers = texts.map((t) => (/^I (live|moved)/.test(t) ? "Ann" : t.includes("?") ? "Bob" : random() < 0.5 ? "Ann" : "Bob"));
    const time = new Date().toISOString();
    await run({ op: "append", namespace, sessionId, unitIds: [], texts }, async () => {
      const report = await memory.appendTurns({ namespace, sessionId, turns: texts.map((text, i) => ({ speaker: speakers[i]!, text, time })) });
      // The rule anchorer's one unit per turn, by the id it derives: a created session's report lists all of its units, another worker's too.
      return { turnIds: report.turnIds, unitIds: report.turnIds.map((t) => unitId(namespace, sessionId, [t], memory.anchorer.id)) };
    });
  }

  while (clock() < plan.until) {
    seq++;
    const opening = OPENING[seq - 1];
    // The opening stays in one session of one namespace, so each step has what it acts on (two state units to supersede).
    const namespace = opening ? plan.namespaces[plan.worker % plan.namespaces.length]! : pick(plan.namespaces);
    const sessionId = opening ? `s${1 + (plan.worker % plan.sessions)}` : `s${1 + Math.floor(random() * plan.sessions)}`;
    const draw = random();
    let acc = 0;
    const kind = opening ?? MIX.find(([, share]) => (acc += share) > draw)?.[0] ?? "append";
    if (kind === "append") {
      await append(namespace, sessionId, opening !== undefined);
      continue;
    }
    if (kind === "supersede") {
      const states = (await memory.list({ namespace })).filter((u) => (u.context.states ?? []).length > 0);
      if (states.length < 2) {
        await append(namespace, sessionId);
        continue;
      }
      const a = pick(states);
      const b = pick(states.filter((u) => u.id !== a.id));
      // The one said first is superseded by the later one, as a user correcting the rules would.
      const [older, newer] = states.indexOf(a) < states.indexOf(b) ? [a, b] : [b, a];
      await run({ op: "supersede", namespace, sessionId: older.provenance.sessionId, unitIds: [older.id, newer.id] }, async () => {
        await memory.supersede(older.id, newer.id, { namespace });
      });
      continue;
    }
    if (kind === "recall") {
      await run({ op: "recall", namespace, sessionId, unitIds: [] }, async () => ({
        unitIds: (await memory.recall("Where does Ann live now?", { namespace, k: 5 })).hits.map((h) => h.unit.id),
      }));
      continue;
    }
    if (kind === "forgetSession") {
      await run({ op: "forgetSession", namespace, sessionId, unitIds: [] }, async () => ({ result: await memory.forgetSession(sessionId, { namespace }) }));
      continue;
    }
    const units = await memory.list({ namespace, sessionId });
    if (units.length === 0) {
      await append(namespace, sessionId);
      continue;
    }
    const target = pick(units);
    if (kind === "update") {
      const text = random() < 0.3 ? stateText() : noteText("Corrected");
      await run({ op: "update", namespace, sessionId, unitIds: [target.id], texts: [text] }, async () => {
        await memory.update(target.id, { text }, { namespace });
      });
    } else {
      await run({ op: "forgetUnit", namespace, sessionId, unitIds: [target.id] }, async () => ({ result: await memory.forgetUnit(target.id, { namespace }) }));
    }
  }
  return seq;
}

/**
 * The validity of every state unit of the namespaces as this process derives
 * it now, through the same per-store cache recall and `memory.validity` use:
 * a process whose cache missed another's write shows the stale view here.
 */
export async function validitySnapshot(memory: Memory, namespaces: readonly string[]): Promise<ValiditySnapshot> {
  const out: ValiditySnapshot = {};
  for (const namespace of namespaces) {
    const { validity } = await namespaceValidity(memory.store, namespace, await memory.store.listSessions(namespace));
    const views: ValiditySnapshot[string] = {};
    for (const id of [...validity.keys()].sort()) {
      const v = validity.get(id)!;
      // A fixed key order: the checker compares views as JSON.
      views[id] = { states: [...v.states], validFrom: v.validFrom, validTo: v.validTo, supersededBy: v.supersededBy, origin: v.origin };
    }
    out[namespace] = views;
  }
  return out;
}
