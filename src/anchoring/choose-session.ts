import { randomBytes } from "node:crypto";
import type { MemoryStore } from "../store/contract.js";

export const DEFAULT_IDLE_MINUTES = 30;

/**
 * The session an `add` without a session id goes to: the namespace's latest
 * session (by its last turn), unless the first new message comes more than
 * `idleMinutes` after that turn — then a new session, as a person would call
 * it a new conversation.
 */
export async function chooseSession(
  store: MemoryStore,
  namespace: string,
  firstMessageMs: number,
  idleMinutes: number,
  now: Date,
): Promise<{ sessionId: string; choice: "continued" | "new" }> {
  const sessions = await store.listSessions(namespace);
  let latest: { id: string; end: number } | null = null;
  for (const s of sessions) {
    const end = Date.parse(s.endTime);
    if (!latest || end > latest.end) latest = { id: s.id, end };
  }
  if (latest && firstMessageMs - latest.end <= idleMinutes * 60_000) return { sessionId: latest.id, choice: "continued" };
  return { sessionId: newSessionId(now), choice: "new" };
}

/** "s-20230508T135600-3f9a1c": sorts by start, unique across processes. */
export function newSessionId(at: Date): string {
  return `s-${at.toISOString().replace(/[-:]/g, "").slice(0, 15)}-${randomBytes(3).toString("hex")}`;
}
