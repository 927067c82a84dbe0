import { createHash } from "node:crypto";
import type { UnitRecord } from "../store/contract.js";
import { RamemError } from "../model/errors.js";
import { checkArgs, checkFields } from "../model/check-args.js";
import type { ChangeStamp } from "../model/unit-history.js";
import { embedAll, ingestSessions, type IngestDeps } from "./ingest-sessions.js";
import { SESSION_TURNS_FIELDS, sessionFromTurns, type SessionTurnsRequest } from "./session-from-turns.js";
import { retrySessionChange } from "./retry-session-change.js";
import { inheritMetadata } from "./inherit-metadata.js";
import { refuseForgottenUnits, withUnusedTurnIds } from "./unused-turn-ids.js";
import { echoValue } from "../model/echo-value.js";
import { COHESION_WINDOW, segmentEpisodes } from "./segment-episodes.js";
import type { Episode, MemoryUnit } from "../model/memory-unit.js";

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
  /** Always 0 since appends stopped rewriting the stored units; kept for callers that read it. */
  reembedded: number;
  warnings: string[];
  sessionStart: string;
  sessionEnd: string;
}

/**
 * Adds turns to a session, the way an agent produces them: a few at a time.
 * A session that does not exist is created (ingested as a whole, so a later
 * ingest of the same session from a file is a no-op). For a stored session
 * only the new turns are anchored, embedded and written
 * (MemoryStore.appendUnits): the stored units are not read back or
 * rewritten — their session span is the session row's, which the append
 * widens — so an append costs the same at turn 400 as at turn 10. Turn ids go
 * on after the stored ones, past any a forget removed (unused-turn-ids.ts: an
 * id is never given to a second memory); an id the session already has, or
 * had and forgot, is refused.
 * Everything is checked before the first write, and the write is one
 * transaction, so bad input never leaves part of a call.
 *
 * Reads then writes the session with a compare-and-swap (appendUnits'
 * expectedHash), redone when another writer — another process, too — changed
 * the session in between, so concurrent appends never lose each other's turns.
 */
export async function appendTurns(deps: IngestDeps, request: AppendTurnsRequest, options: { now?: Date; change?: ChangeStamp } = {}): Promise<AppendTurnsReport> {
  checkArgs("appendTurns", { deps: [deps, "object"] });
  checkFields("appendTurns", "request", request, "object", SESSION_TURNS_FIELDS);
  checkFields("appendTurns", "options", options, "object?", { now: "date?", change: "object?" });
  const now = options.now ?? new Date();
  return retrySessionChange(() => appendOnce(deps, request, now, options.change));
}

async function appendOnce(deps: IngestDeps, request: AppendTurnsRequest, now: Date, change: ChangeStamp | undefined): Promise<AppendTurnsReport> {
  const { namespace, sessionId } = request;
  const stored = await deps.store.getSession(namespace, sessionId);
  const givenIds = request.turns.map((t) => t.id);
  if (!stored) {
    // A session forgotten before keeps its units' ids in the history: a new one of that id does not take them.
    const { session } = await withUnusedTurnIds(deps.store, deps.anchorer.id, givenIds, 1, (first) => sessionFromTurns(request, { now, firstPosition: first }));
    const report = await ingestSessions(deps, [session], { mustBeNew: true, ...(change ? { change } : {}) });
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

  // The turn ids alone, not the units: an append never reads the stored units back.
  const taken = new Set(await deps.store.listTurnIds(namespace, sessionId));
  const { session: added, probed } = await withUnusedTurnIds(deps.store, deps.anchorer.id, givenIds, nextTurnPosition(sessionId, taken), (first) =>
    sessionFromTurns(request, { now, stored, firstPosition: first }),
  );
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
  const anchoredUnits = inheritMetadata(anchored.units, added).map((u) => ({ ...u, context: { ...u.context, session: span } }));
  await refuseForgottenUnits(deps.store, namespace, anchoredUnits, probed);
  const vectors = await embedAll(deps.embedder, anchoredUnits.map((u) => u.content));
  const fresh = await segmentAppended(deps, namespace, sessionId, stored.unitCount, anchoredUnits, vectors);
  const records: UnitRecord[] = fresh.map((unit, i) => ({ unit, embedding: vectors[i]! }));

  // A later ingest of the whole session from a file sees another hash and replaces this, as it should.
  const hash = createHash("sha256")
    .update(stored.contentHash)
    .update("\u0000append\u0000")
    .update(JSON.stringify(added))
    .update(`\u0000${deps.anchorer.id}\u0000${deps.embedder.id}`)
    .digest("hex");
  await deps.store.appendUnits(session, hash, records, { expectedHash: stored.contentHash, ...(change ? { change } : {}) });
  return {
    namespace,
    sessionId,
    created: false,
    turnIds: added.turns.map((t) => t.id),
    unitIds: fresh.map((u) => u.id),
    unitsWritten: fresh.length,
    reembedded: 0,
    warnings: anchored.warnings,
    sessionStart: session.startTime,
    sessionEnd: session.endTime,
  };
}

/**
 * The new units' episodes: segmented together with the last stored turns of
 * the session's last episode (a window of them, read by offset, so an append
 * still reads a few units, not the session), so the first new turns continue
 * that episode unless the subject changes where they begin. The stored units
 * keep the episode as it was when they were written (its lastTurnId does not
 * move); a re-ingest or `ramem reanchor` brings them up to date.
 */
async function segmentAppended(
  deps: IngestDeps,
  namespace: string,
  sessionId: string,
  storedUnits: number,
  units: MemoryUnit[],
  vectors: Float32Array[],
): Promise<MemoryUnit[]> {
  const window = await deps.store.listUnits(namespace, { sessionId, offset: Math.max(0, storedUnits - COHESION_WINDOW), limit: COHESION_WINDOW });
  const continues: Episode | undefined = window[window.length - 1]?.context.episode;
  if (!continues) return segmentEpisodes(units, vectors);
  const tail = window.filter((u) => u.context.episode?.id === continues.id);
  const tailVectors = await deps.store.getUnitEmbeddings(namespace, tail.map((u) => u.id));
  const segmented = segmentEpisodes([...tail, ...units], [...tail.map((u) => tailVectors.get(u.id)), ...vectors], { continues });
  return segmented.slice(tail.length);
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
