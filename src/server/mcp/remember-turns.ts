import { randomBytes } from "node:crypto";
import type { Memory } from "../../memory.js";
import type { TurnInput } from "../../anchoring/session-from-turns.js";
import { sessionFromTurns } from "../../anchoring/session-from-turns.js";
import { parseDate } from "../../formats/shared.js";
import { checkMetadata } from "../../model/metadata.js";

export interface RememberRequest {
  namespace: string;
  turns: TurnInput[];
  sessionId?: string | undefined;
  sessionTime?: string | undefined;
  participants?: string[] | undefined;
  replace?: boolean | undefined;
  metadata?: Record<string, unknown> | undefined;
  /** Who the change is recorded as (history). */
  actor?: string | undefined;
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
 * The `remember` tool's semantics on top of the library: turns without a
 * session id start a new session (its id is returned for later calls); turns
 * with a session id are appended to that session, or start it when it is not
 * stored (Memory.appendTurns: only the new turns are anchored and embedded).
 * `replace` stores a whole session, as `ingest` does. Live turns given
 * without a time happened now (unless the call dates the session).
 *
 * Both paths are Memory methods, so they hold the namespace's write lock that
 * REST writes hold too: concurrent remembers and REST appends all land.
 */
export async function rememberTurns(memory: Memory, request: RememberRequest, now: () => Date = () => new Date()): Promise<RememberOutcome> {
  const at = now();
  const { namespace } = request;
  const sessionId = request.sessionId ?? newSessionId(at);
  const sessionTime = request.sessionTime === undefined ? undefined : parseDate(request.sessionTime, "sessionTime");
  const turns = {
    namespace,
    sessionId,
    turns: request.turns,
    ...(sessionTime !== undefined ? { startTime: sessionTime } : { undatedTurnTime: at.toISOString() }),
    ...(request.participants ? { participants: request.participants } : {}),
    ...(request.metadata ? { metadata: checkMetadata(request.metadata, "metadata") } : {}),
  };
  const actor = request.actor ? { actor: request.actor } : {};

  if (!request.replace) {
    const report = await memory.appendTurns(turns, { now: at, ...actor });
    const { turnIds, unitIds, sessionStart, sessionEnd } = report;
    return { namespace, sessionId, mode: report.created ? "created" : "appended", turnIds, unitIds, sessionStart, sessionEnd };
  }

  const session = sessionFromTurns(turns, { now: at });
  const before = await memory.store.getSession(namespace, sessionId);
  const report = await memory.ingest([session], actor);
  const turnIds = session.turns.map((t) => t.id);
  const mine = new Set(turnIds);
  const units = await memory.store.listUnits(namespace, { sessionId });
  return {
    namespace,
    sessionId,
    mode: report.sessionsUnchanged > 0 ? "unchanged" : before ? "replaced" : "created",
    turnIds,
    unitIds: units.filter((u) => u.provenance.turnIds.some((id) => mine.has(id))).map((u) => u.id),
    sessionStart: session.session.startTime,
    sessionEnd: session.session.endTime,
  };
}

function newSessionId(at: Date): string {
  return `mcp-${at.toISOString().replace(/[-:]/g, "").slice(0, 15)}-${randomBytes(3).toString("hex")}`;
}
