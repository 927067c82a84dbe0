import { createHash } from "node:crypto";
import type { MemoryUnit } from "../model/memory-unit.js";
import type { UnitRecord } from "../store/contract.js";
import { RamemError } from "../model/errors.js";
import { embedAll, ingestSessions, type IngestDeps } from "./ingest-sessions.js";
import { sessionFromTurns, type SessionTurnsRequest } from "./session-from-turns.js";
import { retrySessionChange } from "./retry-session-change.js";
import { echoValue } from "../model/echo-value.js";

export type AppendTurnsRequest = SessionTurnsRequest;

export interface AppendTurnsReport {
  namespace: string;
  sessionId: string;
  /** True when the session did not exist and was created by this call. */
  created: boolean;
  /** Ids of this call's turns, in order. */
  turnIds: string[];
  /** Units that cover this call's turns. */
  unitIds: string[];
  unitsWritten: number;
  /** Units whose stored vector was missing and were embedded again from their content. */
  reembedded: number;
  warnings: string[];
  sessionStart: string;
  sessionEnd: string;
}

/**
 * Adds turns to a session, the way an agent produces them: a few at a time.
 * A session that does not exist is created (ingested as a whole, so a later
 * ingest of the same session from a file is a no-op). For a stored session
 * only the new turns are anchored and embedded; the stored units keep their
 * content and vectors (read back with getUnitEmbeddings; a unit without one is
 * embedded again from its content) and only their session span follows the
 * grown session. Turn ids go on after the stored ones; an id the session
 * already has is refused. Everything is checked before the first write, and
 * the write is one replaceSession, so bad input never leaves part of a call.
 *
 * Reads then writes the session with a compare-and-swap (replaceSession's
 * expectedHash), redone when another writer — another process, too — changed
 * the session in between, so concurrent appends never lose each other's turns.
 */
export function appendTurns(deps: IngestDeps, request: AppendTurnsRequest, options: { now?: Date } = {}): Promise<AppendTurnsReport> {
  const now = options.now ?? new Date();
  return retrySessionChange(() => appendOnce(deps, request, now));
}

async function appendOnce(deps: IngestDeps, request: AppendTurnsRequest, now: Date): Promise<AppendTurnsReport> {
  const { namespace, sessionId } = request;
  const stored = await deps.store.getSession(namespace, sessionId);
  if (!stored) {
    const session = sessionFromTurns(request, { now });
    const report = await ingestSessions(deps, [session], { mustBeNew: true });
    const turnIds = session.turns.map((t) => t.id);
    const units = await deps.store.listUnits(namespace, { sessionId });
    return {
      namespace,
      sessionId,
      created: true,
      turnIds,
      unitIds: units.map((u) => u.id),
      unitsWritten: report.unitsWritten,
      reembedded: 0,
      warnings: report.warnings,
      sessionStart: session.session.startTime,
      sessionEnd: session.session.endTime,
    };
  }

  const storedUnits = await deps.store.listUnits(namespace, { sessionId });
  const taken = new Set(storedUnits.flatMap((u) => u.provenance.turnIds));
  const added = sessionFromTurns(request, { now, stored, firstPosition: nextTurnPosition(sessionId, taken) });
  added.turns.forEach((t, i) => {
    if (taken.has(t.id)) {
      throw new RamemError("DUPLICATE_TURN", `session ${echoValue(sessionId)} already has a turn ${echoValue(t.id)}`, {
        where: `turns[${i}] › id`,
        hint: "omit turn ids to number new turns automatically, or use a new id (or replace the whole session); nothing of this call was stored",
      });
    }
  });

  await deps.store.bindEmbedder(deps.embedder.id, deps.embedder.dimensions);
  const anchored = await deps.anchorer.anchorSession(added);
  const { session } = added;
  const span = { sessionId, start: session.startTime, end: session.endTime };
  const withSpan = (u: MemoryUnit): MemoryUnit => ({ ...u, context: { ...u.context, session: span } });
  const old = storedUnits.map(withSpan);
  const fresh = anchored.units.map(withSpan);

  const storedVectors = await deps.store.getUnitEmbeddings(namespace, old.map((u) => u.id));
  const missing = old.filter((u) => !storedVectors.has(u.id));
  const toEmbed = [...missing, ...fresh];
  const embedded = await embedAll(deps.embedder, toEmbed.map((u) => u.content));
  const vectors = new Map(storedVectors);
  toEmbed.forEach((u, i) => vectors.set(u.id, embedded[i]!));
  const records: UnitRecord[] = [...old, ...fresh].map((unit) => ({ unit, embedding: vectors.get(unit.id)! }));

  // A later ingest of the whole session from a file sees another hash and replaces this, as it should.
  const hash = createHash("sha256")
    .update(stored.contentHash)
    .update("\u0000append\u0000")
    .update(JSON.stringify(added))
    .update(`\u0000${deps.anchorer.id}\u0000${deps.embedder.id}`)
    .digest("hex");
  await deps.store.replaceSession(session, hash, records, { expectedHash: stored.contentHash });
  return {
    namespace,
    sessionId,
    created: false,
    turnIds: added.turns.map((t) => t.id),
    unitIds: fresh.map((u) => u.id),
    unitsWritten: fresh.length,
    reembedded: missing.length,
    warnings: anchored.warnings,
    sessionStart: session.startTime,
    sessionEnd: session.endTime,
  };
}

/**
 * The position of the next turn: one past the number of stored turns, or past
 * the highest "<session>:<n>" id if that is larger, so a default id is never
 * one the session already has.
 */
function nextTurnPosition(sessionId: string, taken: ReadonlySet<string>): number {
  let max = taken.size;
  const prefix = `${sessionId}:`;
  for (const id of taken) {
    if (!id.startsWith(prefix)) continue;
    const n = Number(id.slice(prefix.length));
    if (Number.isInteger(n) && n > max) max = n;
  }
  return max + 1;
}
