import type { StoredSession } from "../contract.js";

/** Namespaces whose session lists a store handle keeps (least recently listed dropped first). */
const MAX_NAMESPACES = 32;

/**
 * listSessions' answers per namespace, each with the namespace's sessions
 * version (schema 7: namespace_sessions_version, raised by a trigger on every
 * statement that writes its session rows, from any process). A list is
 * returned again only while the version it was read at is still the
 * namespace's; the caller reads the version *before* the rows, so a write
 * landing in between makes the kept list newer than its version, never
 * older: the next call reads again.
 */
export class SessionListCache {
  private readonly lists = new Map<string, { version: string; sessions: readonly StoredSession[] }>();

  /** The list read at `version`, as fresh objects (callers may change what they get), or null. */
  get(namespace: string, version: string): StoredSession[] | null {
    const kept = this.lists.get(namespace);
    if (!kept || kept.version !== version) return null;
    // Most recently listed last: the first key is the one to drop.
    this.lists.delete(namespace);
    this.lists.set(namespace, kept);
    return kept.sessions.map(copySession);
  }

  set(namespace: string, version: string, sessions: readonly StoredSession[]): void {
    this.lists.delete(namespace);
    this.lists.set(namespace, { version, sessions: sessions.map(copySession) });
    if (this.lists.size > MAX_NAMESPACES) this.lists.delete(this.lists.keys().next().value!);
  }
}

const copySession = (s: StoredSession): StoredSession => ({
  ...s,
  participants: [...s.participants],
  ...(s.metadata ? { metadata: structuredClone(s.metadata) } : {}),
});
