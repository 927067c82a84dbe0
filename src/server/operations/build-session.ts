import { SessionWithTurns, type Turn } from "../../model/conversation.js";
import { RamemError } from "../../model/errors.js";
import type { TurnInput } from "../rest/schemas.js";

/** Request turns → library turns: default ids continue from `firstIndex` (1-based) and skip ids already `taken`. */
export function toTurns(sessionId: string, input: readonly TurnInput[], firstIndex = 1, taken: ReadonlySet<string> = new Set()): Turn[] {
  const used = new Set(taken);
  let next = firstIndex;
  return input.map((t) => {
    let id = t.id;
    if (id === undefined) {
      while (used.has(`${sessionId}:${next}`)) next++;
      id = `${sessionId}:${next++}`;
    }
    used.add(id);
    return { id, speaker: t.speaker, text: t.text, ...(t.time ? { time: t.time } : {}), ...(t.attachments ? { attachments: t.attachments } : {}) };
  });
}

/**
 * Runs the library's own SessionWithTurns schema on what the request built:
 * the rules ingest enforces (a turn needs text or an attachment, endTime not
 * before startTime, unique turn ids) give the same answer over HTTP.
 */
export function checkSession(candidate: SessionWithTurns): SessionWithTurns {
  const ids = new Set<string>();
  candidate.turns.forEach((t, i) => {
    if (ids.has(t.id)) throw new RamemError("DUPLICATE_TURN", `turns[${i}].id: turn id ${JSON.stringify(t.id)} appears twice`, { hint: "give every turn of a session its own id, or omit ids" });
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
