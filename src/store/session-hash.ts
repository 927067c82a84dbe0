import { createHash } from "node:crypto";

/**
 * A session's stored hash is two things at once, and this file keeps them
 * apart:
 * - the **compare-and-swap token** of read-modify-write callers (append,
 *   update, forget, supersede): it must change on every write that changes
 *   the session's units, or a writer that read the session before another
 *   one's delete writes the deleted unit back;
 * - the **source** a whole-session ingest compares against to skip an
 *   unchanged input (ingest-sessions.ts).
 *
 * A write that removes what the source said, but keeps the source (a forget),
 * revises the hash: `<source>.<revision>`. The token changes, so every other
 * writer's swap fails and is redone on the fresh session; the source part
 * stays, so an ingest of the same input again still skips the session and
 * the forgotten unit stays forgotten. A hex digest holds no ".", so the
 * source part is always what came before the first one.
 */
export function revisedSessionHash(storedHash: string, change: string): string {
  const revision = createHash("sha256").update(storedHash).update("\u0000").update(change).digest("hex").slice(0, 16);
  return `${sourceHashOf(storedHash)}.${revision}`;
}

/** The hash of the input the session was last built from (without the revisions of later forgets). */
export function sourceHashOf(storedHash: string): string {
  const dot = storedHash.indexOf(".");
  return dot < 0 ? storedHash : storedHash.slice(0, dot);
}
