import { SessionWithTurns, type Turn } from "../../model/conversation.js";
import { RamemError } from "../../model/errors.js";
import type { TurnInput } from "../rest/schemas.js";
import { echoValue } from "../../model/echo-value.js";

/**
 * Request turns → library turns. A turn without an id gets `<sessionId>:<position>`
 * as in the native file format, positions counting from `firstPosition` (1 for a
 * whole session, one past the stored turns for an append).
 */
export function toTurns(sessionId: string, input: readonly TurnInput[], firstPosition = 1): Turn[] {
  return input.map((t, i) => ({
    id: t.id ?? `${sessionId}:${firstPosition + i}`,
    speaker: t.speaker,
    text: t.text,
    ...(t.time ? { time: t.time } : {}),
    ...(t.attachments ? { attachments: t.attachments } : {}),
    ...(t.role ? { role: t.role } : {}),
    ...(t.metadata ? { metadata: t.metadata } : {}),
  }));
}

/**
 * Runs the library's own SessionWithTurns schema on what the request built:
 * the rules ingest enforces (a turn needs text or an attachment, endTime not
 * before startTime, unique turn ids) give the same answer over HTTP.
 */
export function checkSession(candidate: SessionWithTurns): SessionWithTurns {
  const ids = new Set<string>();
  candidate.turns.forEach((t, i) => {
    if (ids.has(t.id)) throw new RamemError("DUPLICATE_TURN", `turns[${i}].id: turn id ${echoValue(t.id)} appears twice`, { hint: "give every turn of a session its own id, or omit ids" });
    ids.add(t.id);
  });
  const r = SessionWithTurns.safeParse(candidate);
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  const path = issue.path.map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`)).join("").replace(/^\.session\./, "").replace(/^\./, "");
  throw new RamemError("VALIDATION_FAILED", `${path}: ${issue.message}`, { hint: "fix this field; nothing was stored" });
}

export function isoNormalize(iso: string): string {
  return new Date(iso).toISOString();
}
