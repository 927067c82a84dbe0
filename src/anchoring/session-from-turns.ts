import type { SessionWithTurns, Turn } from "../model/conversation.js";
import type { StoredSession } from "../store/contract.js";
import { RamemError } from "../model/errors.js";
import { checkFields, type ArgKind } from "../model/check-args.js";
import { at, buildTurn, parseDate, validateSession } from "../formats/shared.js";
import { echoValue } from "../model/echo-value.js";
import { checkMetadata, mergeMetadata, type Metadata } from "../model/metadata.js";

/** One turn as a caller hands it over (REST body, MCP tool, library call). */
export interface TurnInput {
  /** Default: `<sessionId>:<position>`. */
  id?: string | undefined;
  speaker: string;
  text?: string | undefined;
  /** Any date parseDate reads (ISO 8601 best). */
  time?: string | undefined;
  attachments?: Array<{ kind: "image" | "file" | "link"; caption: string; url?: string | undefined }> | undefined;
  /** The message role in a chat with an assistant; absent between people. */
  role?: "user" | "assistant" | "system" | "tool" | undefined;
  /** The caller's JSON object (size-limited); the turn's units inherit it over the session's. */
  metadata?: Metadata | undefined;
}

export interface SessionTurnsRequest {
  namespace: string;
  sessionId: string;
  turns: readonly TurnInput[];
  /** When the session started; it widens the span (never narrows a stored one). */
  startTime?: string | undefined;
  /** Added to the speakers (and the stored session's participants). */
  participants?: readonly string[] | undefined;
  /** The time of turns given without one (the MCP face dates live turns "now"); default: none. */
  undatedTurnTime?: string | undefined;
  /** The session's metadata: set when the call creates the session (or replaces it), merged over the stored one on an append. */
  metadata?: Metadata | undefined;
}

/** The request's fields a caller in plain JavaScript may get wrong (each turn is checked by buildTurn). */
export const SESSION_TURNS_FIELDS: Readonly<Record<string, ArgKind>> = {
  namespace: "string",
  sessionId: "string",
  turns: "array",
  startTime: "string?",
  undatedTurnTime: "string?",
};

/**
 * Checks a call's turns and builds the session they make: alone (a new or
 * replaced session) or added to `stored` (an append: positions go on after
 * the stored turns, the span and participants only grow). Throws a
 * RamemError on the first bad field and never touches a store, so callers
 * validate everything before their first write.
 */
export function sessionFromTurns(request: SessionTurnsRequest, options: { now: Date; stored?: StoredSession | null; firstPosition?: number }): SessionWithTurns {
  checkFields("sessionFromTurns", "request", request, "object", SESSION_TURNS_FIELDS);
  checkFields("sessionFromTurns", "options", options, "object", { now: "date", firstPosition: "number?" });
  const { sessionId, namespace } = request;
  const first = options.firstPosition ?? 1;
  const turns: Turn[] = request.turns.map((raw, i) =>
    buildTurn(
      { id: raw.id, speaker: raw.speaker, text: raw.text, time: raw.time ?? request.undatedTurnTime, attachments: raw.attachments, role: raw.role, metadata: raw.metadata },
      `${sessionId}:${first + i}`,
      `turns[${i}]`,
    ),
  );
  const seen = new Set<string>();
  turns.forEach((t, i) => {
    if (seen.has(t.id)) {
      throw new RamemError("DUPLICATE_TURN", `turn id ${echoValue(t.id)} appears twice in this call`, {
        where: `turns[${i}] › id`,
        hint: "give every turn its own id, or omit ids; nothing of this call was stored",
      });
    }
    seen.add(t.id);
  });
  const stored = options.stored ?? null;
  const startTime = request.startTime === undefined ? undefined : parseDate(request.startTime, "startTime");
  const times = turns.flatMap((t) => (t.time ? [Date.parse(t.time)] : []));
  const startMs = Math.min(startTime ? Date.parse(startTime) : Infinity, ...times, stored ? Date.parse(stored.startTime) : Infinity);
  const start = Number.isFinite(startMs) ? new Date(startMs).toISOString() : options.now.toISOString();
  const endMs = Math.max(Date.parse(start), ...times, stored ? Date.parse(stored.endTime) : -Infinity);
  const participants = [...new Set([...(stored?.participants ?? []), ...(request.participants ?? []), ...turns.map((t) => t.speaker)])];
  const given = request.metadata === undefined ? undefined : checkMetadata(request.metadata, "metadata");
  const metadata = mergeMetadata(stored?.metadata, given);
  return validateSession(
    { session: { id: sessionId, namespace, startTime: start, endTime: new Date(endMs).toISOString(), participants, ...(metadata ? { metadata } : {}) }, turns },
    at(`session ${sessionId}`),
  );
}
