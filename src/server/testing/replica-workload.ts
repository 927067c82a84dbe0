import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { openMemory } from "../../open-memory.js";
import { openStore } from "../../store/open-store.js";
import { seededRandom } from "../../util/seeded-random.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const CITIES = ["Lisbon", "Porto", "Berlin", "Kyoto", "Austin", "Nairobi", "Oslo", "Lyon"];

export interface Replica {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** `ramem serve` from the sources in a process of its own, on `store` (a SQLite file or a postgres:// URL), with the hash embedder. */
export async function startReplica(store: string): Promise<Replica> {
  const child = spawn(process.execPath, ["--import", "tsx", "src/cli/main.ts", "serve", "--store", store, "--embedder", "hash", "--port", "0", "--json", "--log-level", "warn"], {
    cwd: ROOT,
    env: { ...process.env, RAMEM_EMBEDDINGS_MODEL: "", RAMEM_LLM_MODEL: "", RAMEM_DB: "", RAMEM_STORE: "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`ramem serve exited with ${code}: ${stderr}`)));
  });
  const { url } = JSON.parse(line) as { url: string };
  return {
    url,
    child,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    },
  };
}

/** What the clients were told succeeded: the ground truth the store is checked against. */
export interface Acknowledged {
  /** unit id → its namespace, session and its text: as sent, or as the last acknowledged correction answered it. */
  units: Map<string, { namespace: string; sessionId: string; turnId: string; text: string; corrected: boolean }>;
  forgotten: Map<string, string>;
  /** unit id → the unit a correction said supersedes it (the last acknowledged one). */
  supersededBy: Map<string, string | null>;
  counts: { appends: number; updates: number; supersessions: number; forgets: number; refused: number };
  /** Reads from the other replica right after a forget that still returned the unit (must stay 0). */
  staleReads: number;
  seconds: number;
}

export interface WorkloadOptions {
  replicas: readonly Replica[];
  /** Clients in all, spread over the replicas round-robin. */
  clients: number;
  namespaces: readonly string[];
  /** Shared sessions per namespace: every client appends to the same few, from every replica. */
  sessions: number;
  seconds: number;
  seed?: number;
}

async function call(url: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(url + path, { method, headers: { "content-type": "application/json" }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/**
 * Clients on every replica append to the same sessions of the same
 * namespaces, correct and supersede their own units and forget some, for
 * `seconds`. Each forget is read back at once from another replica (a
 * cache there must not serve it). Returns what was acknowledged.
 */
export async function runMixedWorkload(options: WorkloadOptions): Promise<Acknowledged> {
  const ack: Acknowledged = {
    units: new Map(),
    forgotten: new Map(),
    supersededBy: new Map(),
    counts: { appends: 0, updates: 0, supersessions: 0, forgets: 0, refused: 0 },
    staleReads: 0,
    seconds: options.seconds,
  };
  const deadline = performance.now() + options.seconds * 1000;
  const client = async (c: number) => {
    const random = seededRandom((options.seed ?? 1) * 1000 + c);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
    const url = options.replicas[c % options.replicas.length]!.url;
    const other = options.replicas[(c + 1) % options.replicas.length]!.url;
    const mine: string[] = [];
    for (let n = 0; performance.now() < deadline; n++) {
      const roll = random();
      const alive = mine.filter((id) => !ack.forgotten.has(id));
      if (roll < 0.6 || alive.length < 2) {
        const namespace = pick(options.namespaces);
        const sessionId = `s${Math.floor(random() * options.sessions)}`;
        const text = `Client ${c} note ${n}: I moved to ${pick(CITIES)}.`;
        const r = await call(url, "POST", `/v1/namespaces/${namespace}/messages`, { sessionId, messages: [{ role: "user", content: text }] });
        if (r.status !== 200) throw new Error(`append: HTTP ${r.status} ${JSON.stringify(r.body)}`);
        const [unitId] = r.body.unitIds as string[];
        ack.units.set(unitId!, { namespace, sessionId, turnId: (r.body.turnIds as string[])[0]!, text, corrected: false });
        mine.push(unitId!);
        ack.counts.appends++;
      } else if (roll < 0.75) {
        const id = pick(alive);
        const unit = ack.units.get(id)!;
        const text = `Client ${c} note ${n} (corrected): I moved to ${pick(CITIES)}.`;
        const r = await call(url, "PATCH", `/v1/namespaces/${unit.namespace}/memories/${id}`, { text });
        if (r.status !== 200) throw new Error(`update: HTTP ${r.status} ${JSON.stringify(r.body)}`);
        // What the store made of the correction (anchoring may restate it), as the replica answered.
        unit.text = r.body.content as string;
        unit.corrected = true;
        ack.counts.updates++;
      } else if (roll < 0.85) {
        const older = pick(alive);
        const namespace = ack.units.get(older)!.namespace;
        const newer = alive.find((id) => id !== older && ack.units.get(id)!.namespace === namespace);
        if (!newer) continue;
        const r = await call(url, "PUT", `/v1/namespaces/${namespace}/memories/${older}/supersession`, { supersededBy: newer });
        if (r.status === 409) {
          ack.counts.refused++; // a cycle with an earlier correction: refused, nothing changed
          continue;
        }
        if (r.status !== 200) throw new Error(`supersede: HTTP ${r.status} ${JSON.stringify(r.body)}`);
        ack.supersededBy.set(older, newer);
        ack.counts.supersessions++;
      } else {
        const id = pick(alive);
        const { namespace } = ack.units.get(id)!;
        const r = await call(url, "DELETE", `/v1/namespaces/${namespace}/memories/${id}`);
        if (r.status !== 200) throw new Error(`forget: HTTP ${r.status} ${JSON.stringify(r.body)}`);
        ack.forgotten.set(id, namespace);
        ack.counts.forgets++;
        if ((await call(other, "GET", `/v1/namespaces/${namespace}/memories/${id}`)).status !== 404) ack.staleReads++;
      }
    }
  };
  await Promise.all(Array.from({ length: options.clients }, (_, c) => client(c)));
  return ack;
}

export interface ReplicaCheck {
  /** Acknowledged units missing from the store. */
  lost: string[];
  /** Units in the store no client was told of, or a turn stored twice. */
  duplicated: string[];
  /** Forgotten units still stored or served by a replica. */
  resurrected: string[];
  /** Units whose text is not the last acknowledged correction. */
  wrongText: string[];
  /** Units whose validity on a replica differs from a fresh derivation (no cache), or that miss an acknowledged supersession. */
  wrongValidity: string[];
  checkedUnits: number;
}

/** The store after the run, read by a fresh Memory (no cache), against what was acknowledged and what each replica serves now. */
export async function checkReplicas(store: string, replicas: readonly Replica[], ack: Acknowledged, namespaces: readonly string[]): Promise<ReplicaCheck> {
  const memory = await openMemory({ store: await openStore(store, { mustExist: true }), embedder: "hash", languageModel: null, env: {} });
  const check: ReplicaCheck = { lost: [], duplicated: [], resurrected: [], wrongText: [], wrongValidity: [], checkedUnits: 0 };
  try {
    const stored = new Map<string, { content: string; turnIds: readonly string[]; where: string }>();
    for (const namespace of namespaces) {
      for (const unit of await memory.list({ namespace })) stored.set(unit.id, { content: unit.content, turnIds: unit.provenance.turnIds, where: `${namespace}/${unit.provenance.sessionId}` });
      for (const session of await memory.store.listSessions(namespace)) {
        const turnIds = await memory.store.listTurnIds(namespace, session.id);
        if (new Set(turnIds).size !== turnIds.length) check.duplicated.push(`${namespace}/${session.id}: a turn id twice`);
      }
    }
    for (const [id, unit] of ack.units) {
      if (ack.forgotten.has(id)) continue;
      const found = stored.get(id);
      if (!found) check.lost.push(id);
      // A correction must read as its acknowledgement did; an appended unit keeps the words it was sent with.
      else if (unit.corrected ? found.content !== unit.text : !found.content.includes(unit.text.slice(0, unit.text.indexOf(":")))) check.wrongText.push(id);
    }
    for (const id of stored.keys()) if (!ack.units.has(id)) check.duplicated.push(id);
    const seenTurns = new Map<string, string>();
    // A turn id is unique within its session: no two units may cover the same turn.
    for (const [id, s] of stored) {
      for (const t of s.turnIds.map((t) => `${s.where}/${t}`)) seenTurns.has(t) ? check.duplicated.push(`${id}: turn ${t} also in ${seenTurns.get(t)}`) : seenTurns.set(t, id);
    }
    for (const [id, namespace] of ack.forgotten) {
      if (stored.has(id)) check.resurrected.push(`${id} stored`);
      for (const r of replicas) if ((await call(r.url, "GET", `/v1/namespaces/${namespace}/memories/${id}`)).status !== 404) check.resurrected.push(`${id} served by ${r.url}`);
    }
    for (const [id, unit] of ack.units) {
      if (ack.forgotten.has(id)) continue;
      check.checkedUnits++;
      const fresh = JSON.stringify((await memory.validity(id, { namespace: unit.namespace })) ?? null);
      for (const r of replicas) {
        const served = await call(r.url, "GET", `/v1/namespaces/${unit.namespace}/memories/${id}/validity`);
        if (JSON.stringify(served.body?.validity ?? null) !== fresh) check.wrongValidity.push(`${id} on ${r.url}`);
      }
      const corrected = ack.supersededBy.get(id);
      if (corrected && !ack.forgotten.has(corrected) && JSON.parse(fresh)?.supersededBy !== corrected) check.wrongValidity.push(`${id}: supersededBy should be ${corrected}`);
    }
  } finally {
    await memory.close();
  }
  return check;
}
