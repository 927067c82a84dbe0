import type { IngestDeps } from "./ingest-sessions.js";
import { embedAll } from "./ingest-sessions.js";
import { retrySessionChange } from "./retry-session-change.js";
import type { ChangeStamp } from "../model/unit-history.js";
import { redescribeEpisodes } from "./segment-episodes.js";
import { revisedSessionHash } from "../store/session-hash.js";
import { checkArgs } from "../model/check-args.js";

/**
 * Deletes one unit so that its words are gone too. Anchoring cues each unit
 * with the previous turn, so the unit's neighbours in its session carry words
 * of its turn in their `cue`: deleting the unit alone would leave its text
 * searchable and exported through them. The neighbours' cues are cleared and
 * the session is written back in one transaction, every kept unit with its
 * stored vector (cues are not embedded); without such a cue the unit is just
 * deleted. Its episode is described again from the units left (segment-episodes.ts:
 * an episode's place, topic and names are read off its units). Reads then writes the session with a compare-and-swap, redone
 * when another writer (another process, too) changed the session meanwhile;
 * the write revises the session's hash, so a writer that read the session
 * before it cannot write the unit back.
 *
 * Returns false when the namespace has no such unit.
 */
export async function forgetUnit(deps: Pick<IngestDeps, "store" | "embedder">, namespace: string, unitId: string, change?: ChangeStamp): Promise<boolean> {
  checkArgs("forgetUnit", { deps: [deps, "object"], namespace: [namespace, "string"], unitId: [unitId, "string"], change: [change, "object?"] });
  return retrySessionChange(() => forgetOnce(deps, namespace, unitId, change));
}

async function forgetOnce(deps: Pick<IngestDeps, "store" | "embedder">, namespace: string, unitId: string, change: ChangeStamp | undefined): Promise<boolean> {
  const { store } = deps;
  const [unit] = await store.getUnits(namespace, [unitId]);
  if (!unit) return false;
  const sessionId = unit.provenance.sessionId;
  // The hash before the units: a writer that commits in between changes the hash, so the write below is refused and redone.
  const session = await store.getSession(namespace, sessionId);
  const units = await store.listUnits(namespace, { sessionId });
  const at = units.findIndex((u) => u.id === unitId);
  if (at < 0) return false;
  const neighbours = new Set([units[at - 1]?.id, units[at + 1]?.id].filter((id): id is string => id !== undefined));
  // Its episode's description (place, topic, names) was read off its units, this one too: described again without it.
  const left = units.filter((u) => u.id !== unitId);
  const kept = redescribeEpisodes(left.map((u) => (neighbours.has(u.id) ? { ...u, cue: "" } : u)));
  const changed = kept.some((u, i) => u.cue !== left[i]!.cue || JSON.stringify(u.context.episode) !== JSON.stringify(left[i]!.context.episode));
  // A swap on the hash read above, like the rewrite below: a unit another writer added after it since then may cue its words.
  if (!session || !changed) return store.deleteUnit(namespace, unitId, { ...(session ? { expectedHash: session.contentHash } : {}), ...(change ? { change } : {}) });
  const vectors = await store.getUnitEmbeddings(namespace, kept.map((u) => u.id));
  const missing = kept.filter((u) => !vectors.has(u.id));
  // A store that lost a vector gets it back the way ingest made it: from the content.
  (await embedAll(deps.embedder, missing.map((u) => u.content))).forEach((v, i) => vectors.set(missing[i]!.id, v));
  const { contentHash, unitCount: _n, ...plain } = session;
  // A revised hash, never the one read: another writer that read the session before this write must see that it changed (session-hash.ts).
  await store.replaceSession(plain, revisedSessionHash(contentHash, `forget ${unitId}`), kept.map((u) => ({ unit: u, embedding: vectors.get(u.id)! })), {
    expectedHash: contentHash,
    removedAs: "forgotten",
    ...(change ? { change } : {}),
  });
  return true;
}
