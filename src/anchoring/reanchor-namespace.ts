import type { IngestDeps, IngestProgress, IngestReport } from "./ingest-sessions.js";
import { ingestSessions } from "./ingest-sessions.js";
import { sessionFromUnits } from "../formats/session-from-units.js";
import { RamemError } from "../model/errors.js";

/**
 * Anchoring run again over what a namespace already holds: each session's
 * turns are read back from its units' verbatim sources and anchored and
 * embedded afresh with the given anchorer and embedder, one transaction per
 * session (a failure leaves that session as it was). A unit corrected by
 * `update` carries the corrected words in its verbatim turn, so a reanchor
 * keeps the correction (update-unit.ts). For a better anchorer;
 * another embedder needs another store (`ramem export`, then `ramem ingest`
 * of the export into it).
 */
export async function reanchorNamespace(
  deps: IngestDeps,
  namespace: string,
  options: { onProgress?: (p: IngestProgress) => void } = {},
): Promise<IngestReport> {
  const stored = await deps.store.listSessions(namespace);
  if (stored.length === 0) {
    throw new RamemError("NAMESPACE_NOT_FOUND", `namespace "${namespace}" holds no sessions`, { where: "namespace", hint: "`ramem stats` lists the namespaces" });
  }
  // Every session is read (and checked) before anything is rewritten.
  const sessions = [];
  for (const s of stored) sessions.push(sessionFromUnits(s, await deps.store.listUnits(namespace, { sessionId: s.id }), `${namespace} › session ${s.id}`));
  return ingestSessions(deps, sessions, { force: true, ...(options.onProgress ? { onProgress: options.onProgress } : {}) });
}
