import { createHash, randomBytes } from "node:crypto";
import type { Memory } from "../../memory.js";
import type { SessionWithTurns, Turn } from "../../model/conversation.js";
import type { MemoryUnit } from "../../model/memory-unit.js";
import type { UnitRecord } from "../../store/contract.js";
import { RamemError } from "../../model/errors.js";
import { at, buildTurn, parseDate, validateSession } from "../../formats/shared.js";
import { embedWithCache } from "./embed-with-cache.js";

export interface RememberRequest {
  namespace: string;
  turns: Array<{
    speaker: string;
    text: string;
    time?: string | undefined;
    id?: string | undefined;
    attachments?: Array<{ kind: "image" | "file" | "link"; caption: string; url?: string | undefined }> | undefined;
  }>;
  sessionId?: string | undefined;
  sessionTime?: string | undefined;
  participants?: string[] | undefined;
  replace?: boolean | undefined;
}

export interface RememberOutcome {
  namespace: string;
  sessionId: string;
  /** created: new session; appended: added to a stored one; replaced / unchanged: `replace` given. */
  mode: "created" | "appended" | "replaced" | "unchanged";
  /** Ids of the turns of this call, in order. */
  turnIds: string[];
  /** Units that now cover those turns. */
  unitIds: string[];
  sessionStart: string;
  sessionEnd: string;
}

/**
 * Stores turns the way an agent produces them: a few at a time, during a
 * conversation. Turns without a session id start a new session (its id is
 * returned for later calls); turns with the id of a stored session are
 * appended to it: the new turns are anchored, the session's span grows to
 * cover them, and the session is rewritten in one store transaction with its
 * earlier units (their vectors come from this process's cache, or are
 * re-embedded from their stored content: the store hands out no vectors).
 * `replace` stores a whole session, as `ingest` does.
 *
 * Everything is validated before the first write, and the write is one
 * `replaceSession`, so bad input never leaves part of a call stored. Calls on
 * the same session are serialised within this process, so two concurrent
 * appends both land.
 */
export async function rememberTurns(memory: Memory, request: RememberRequest, now: () => Date = () => new Date()): Promise<RememberOutcome> {
  const sessionId = request.sessionId ?? newSessionId(now());
  return serialised(memory, `${request.namespace}\u0000${sessionId}`, () => remember(memory, { ...request, sessionId }, now));
}

async function remember(memory: Memory, request: RememberRequest & { sessionId: string }, now: () => Date): Promise<RememberOutcome> {
  const { namespace, sessionId } = request;
  const sessionTime = request.sessionTime === undefined ? undefined : parseDate(request.sessionTime, "sessionTime");
  // A live turn with no date happened now; a turn of a dated session happened during it.
  const defaultTurnTime = sessionTime === undefined ? now().toISOString() : undefined;

  const existing = request.replace ? null : await memory.store.getSession(namespace, sessionId);
  const storedUnits = existing ? await memory.store.listUnits(namespace, { sessionId }) : [];
  const storedTurnIds = new Set(storedUnits.flatMap((u) => u.provenance.turnIds));

  const turns: Turn[] = request.turns.map((raw, i) =>
    buildTurn({ id: raw.id, speaker: raw.speaker, text: raw.text, time: raw.time ?? defaultTurnTime, attachments: raw.attachments }, `${sessionId}:${storedTurnIds.size + i + 1}`, `turns[${i}]`),
  );
  checkTurnIds(turns, storedTurnIds, sessionId);

  const turnTimes = turns.flatMap((t) => (t.time ? [Date.parse(t.time)] : []));
  const startMs = Math.min(
    sessionTime ? Date.parse(sessionTime) : Infinity,
    turnTimes.length ? Math.min(...turnTimes) : Infinity,
    existing ? Date.parse(existing.startTime) : Infinity,
  );
  const start = Number.isFinite(startMs) ? new Date(startMs).toISOString() : now().toISOString();
  const endMs = Math.max(Date.parse(start), ...turnTimes, existing ? Date.parse(existing.endTime) : -Infinity);
  const speakers = turns.map((t) => t.speaker);
  const participants = [...new Set([...(existing?.participants ?? []), ...(request.participants ?? []), ...speakers])];
  const session = validateSession(
    { session: { id: sessionId, namespace, startTime: start, endTime: new Date(endMs).toISOString(), participants }, turns },
    at(`session ${sessionId}`),
  );

  let mode: RememberOutcome["mode"];
  if (existing) {
    await appendToSession(memory, session, storedUnits, existing.contentHash);
    mode = "appended";
  } else {
    const before = request.replace ? await memory.store.getSession(namespace, sessionId) : null;
    const report = await memory.ingest([session]);
    mode = report.sessionsUnchanged > 0 ? "unchanged" : before ? "replaced" : "created";
  }

  const turnIds = turns.map((t) => t.id);
  const mine = new Set(turnIds);
  const units = await memory.store.listUnits(namespace, { sessionId });
  return {
    namespace,
    sessionId,
    mode,
    turnIds,
    unitIds: units.filter((u) => u.provenance.turnIds.some((id) => mine.has(id))).map((u) => u.id),
    sessionStart: session.session.startTime,
    sessionEnd: session.session.endTime,
  };
}

/** The stored units keep their content; only their session span follows the grown session. */
async function appendToSession(memory: Memory, added: SessionWithTurns, stored: readonly MemoryUnit[], storedHash: string): Promise<void> {
  const { session } = added;
  const anchored = await memory.anchorer.anchorSession(added);
  const span = { sessionId: session.id, start: session.startTime, end: session.endTime };
  const kept = stored.map((u) => ({ ...u, context: { ...u.context, session: span } }));
  const units = [...kept, ...anchored.units];
  await memory.store.bindEmbedder(memory.embedder.id, memory.embedder.dimensions);
  const vectors = await embedWithCache(
    memory.embedder,
    units.map((u) => u.content),
  );
  const records: UnitRecord[] = units.map((unit, i) => ({ unit, embedding: vectors[i]! }));
  // A later ingest of the whole session from a file sees a different hash and replaces this, as it should.
  const hash = createHash("sha256")
    .update(storedHash)
    .update(JSON.stringify(added))
    .update(`\u0000${memory.anchorer.id}\u0000${memory.embedder.id}`)
    .digest("hex");
  await memory.store.replaceSession(session, hash, records);
}

function checkTurnIds(turns: readonly Turn[], stored: ReadonlySet<string>, sessionId: string): void {
  const seen = new Set<string>();
  turns.forEach((t, i) => {
    if (stored.has(t.id)) {
      throw new RamemError("DUPLICATE_TURN", `turn id ${JSON.stringify(t.id)} is already stored in session ${JSON.stringify(sessionId)}`, {
        where: `turns[${i}] › id`,
        hint: "omit turn ids to number new turns automatically, or pass replace: true to rewrite the whole session; nothing of this call was stored",
      });
    }
    if (seen.has(t.id)) {
      throw new RamemError("DUPLICATE_TURN", `turn id ${JSON.stringify(t.id)} appears twice in this call`, {
        where: `turns[${i}] › id`,
        hint: "give every turn its own id, or omit ids; nothing of this call was stored",
      });
    }
    seen.add(t.id);
  });
}

function newSessionId(at: Date): string {
  return `mcp-${at.toISOString().replace(/[-:]/g, "").slice(0, 15)}-${randomBytes(3).toString("hex")}`;
}

const queues = new WeakMap<Memory, Map<string, Promise<unknown>>>();

/** Runs `task` after every earlier task with the same key on this Memory has settled. */
function serialised<T>(memory: Memory, key: string, task: () => Promise<T>): Promise<T> {
  let byKey = queues.get(memory);
  if (!byKey) queues.set(memory, (byKey = new Map()));
  const previous = byKey.get(key) ?? Promise.resolve();
  const run = previous.then(task, task);
  const settled = run.then(
    () => undefined,
    () => undefined,
  );
  byKey.set(key, settled);
  void settled.then(() => {
    if (byKey.get(key) === settled) byKey.delete(key);
  });
  return run;
}
