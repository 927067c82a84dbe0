import { revisedSessionHash } from "../store/session-hash.js";
import type { MemoryUnit } from "../model/memory-unit.js";
import { MAX_TURN_CHARS, type Turn } from "../model/conversation.js";
import { RamemError } from "../model/errors.js";
import { checkArgs } from "../model/check-args.js";
import { describeIllFormedText, findIllFormedText } from "../model/stored-text.js";
import type { ChangeStamp } from "../model/unit-history.js";
import { redescribeEpisodes } from "./segment-episodes.js";
import { echoValue } from "../model/echo-value.js";
import { embedAll, type IngestDeps } from "./ingest-sessions.js";
import { retrySessionChange } from "./retry-session-change.js";
import { cueFor } from "./unit-context.js";

/**
 * Corrects what a unit says: its turn is anchored again with the new text
 * (times grounded against the session, people and places extracted, the
 * first person resolved) and embedded again; the unit keeps its id, place in
 * the session, provenance, cue and metadata. The next unit's cue, which
 * quotes this unit's turn, is re-derived from the new text, so the old words
 * are gone from the index, and its episode is described again from the
 * corrected words (segment-episodes.ts). The unit's verbatim turn says the
 * corrected words too (same id, speaker, role, time, attachments): it is what
 * the evidence pack shows and what `reanchor` and a re-ingest of an export
 * read back, so a correction kept only in `content` would be shown beside
 * the old words and undone by the next reanchor. The old text goes to the unit's history (the
 * store records it in the same transaction). A compare-and-swap on the
 * session, redone when another writer changed it meanwhile.
 */
export async function updateUnit(deps: IngestDeps, namespace: string, unitId: string, text: string, change?: ChangeStamp): Promise<MemoryUnit> {
  checkArgs("updateUnit", { deps: [deps, "object"], namespace: [namespace, "string"], unitId: [unitId, "string"], text: [text, "string"], change: [change, "object?"] });
  checkText(text);
  return retrySessionChange(() => updateOnce(deps, namespace, unitId, text.trim(), change));
}

function checkText(text: unknown): void {
  const fail = (message: string, hint: string) => new RamemError("BAD_INPUT", message, { where: "text", hint: `${hint}; nothing was changed` });
  if (typeof text !== "string") throw fail(`text must be a string, got ${typeof text}`, "give the unit's corrected words as one string");
  if (text.trim() === "") throw fail("text is empty", "give the corrected words, or forget the unit to delete it");
  if (text.length > MAX_TURN_CHARS) throw fail(`text is ${text.length} characters; the limit is ${MAX_TURN_CHARS}`, "a unit restates one turn: keep it short");
  const bad = findIllFormedText(text);
  if (bad) throw fail(describeIllFormedText(bad), "remove that character");
}

async function updateOnce(deps: IngestDeps, namespace: string, unitId: string, text: string, change: ChangeStamp | undefined): Promise<MemoryUnit> {
  const { store } = deps;
  const [found] = await store.getUnits(namespace, [unitId]);
  if (!found) throw await missing(deps, namespace, unitId);
  const sessionId = found.provenance.sessionId;
  const session = await store.getSession(namespace, sessionId);
  if (!session) throw await missing(deps, namespace, unitId);
  // The units are read after the hash: a write in between (another writer's supersession of this very unit) shows in
  // them, or changes the hash so that the write below is refused and redone. The unit read before it could lose it.
  const inSession = await store.listUnits(namespace, { sessionId });
  const at = inSession.findIndex((u) => u.id === unitId);
  const unit = inSession[at];
  if (!unit) throw await missing(deps, namespace, unitId);
  const source = unit.source?.length ? correctedSource(unit.source, unit.provenance.turnIds[0]!, text) : undefined;
  // Anchored as the verbatim turn it now is (its own time grounds "yesterday", as a reanchor of it will); a unit stored without one, from what it says of itself.
  const speaker = unit.context.participants[0] ?? "someone";
  const turn: Turn = source?.corrected ?? { id: unit.provenance.turnIds[0]!, speaker, text, ...(unit.context.role ? { role: unit.context.role } : {}) };
  const { contentHash, unitCount: _n, metadata: _m, ...plain } = session;
  const anchored = (await deps.anchorer.anchorSession({ session: plain, turns: [turn] })).units[0];
  if (!anchored) throw new RamemError("ANCHOR_FAILED", `the anchorer made no unit of the new text of ${echoValue(unitId)}`, { where: "text", hint: "try other words; nothing was changed" });
  const corrected: MemoryUnit = {
    ...unit,
    content: anchored.content,
    // Its episode stays; what the episode says (place, topic, names) is described again below.
    context: {
      ...anchored.context,
      session: unit.context.session,
      participants: [...new Set([...anchored.context.participants, ...unit.context.participants])],
      ...(unit.context.episode ? { episode: unit.context.episode } : {}),
    },
    anchoredBy: anchored.anchoredBy,
    ...(source ? { source: source.turns } : {}),
  };
  // The next unit's cue quotes this unit's turn: it follows the correction (a cue is not embedded, so its vector stays).
  const nextId = inSession[at + 1]?.cue ? inSession[at + 1]!.id : undefined;
  const rewritten = redescribeEpisodes(inSession.map((u) => (u.id === unitId ? corrected : u.id === nextId ? { ...u, cue: cueFor(turn) } : u)));
  const updated = rewritten[at]!;
  const [vector] = await embedAll(deps.embedder, [updated.content]);
  const records = [{ unit: updated, embedding: vector! }];
  // The other units whose cue or episode description changed keep their stored vectors.
  const others = rewritten.filter((u, i) => i !== at && (u.cue !== inSession[i]!.cue || JSON.stringify(u.context.episode) !== JSON.stringify(inSession[i]!.context.episode)));
  const stored = await store.getUnitEmbeddings(namespace, others.map((u) => u.id));
  for (const u of others) records.push({ unit: u, embedding: stored.get(u.id) ?? (await embedAll(deps.embedder, [u.content]))[0]! });
  // A revision of the stored hash: its source part stays, so the same input ingested again is still skipped and the correction stays.
  const hash = revisedSessionHash(contentHash, `update\u0000${unitId}\u0000${text}`);
  await store.updateUnits(namespace, sessionId, hash, records, { expectedHash: contentHash, ...(change ? { change } : {}) });
  const [after] = await store.getUnits(namespace, [unitId]);
  return after ?? updated;
}

/**
 * The unit's verbatim turns with the correction in the turn it anchors (its
 * first, the one the update re-anchors): that turn keeps its id, speaker,
 * role, time, attachments and metadata, only its words change. The other
 * turns of a unit spanning several were said as they were and stay, so a
 * reanchor still has the whole conversation.
 */
function correctedSource(source: readonly Turn[], turnId: string, text: string): { turns: Turn[]; corrected: Turn } {
  const at = Math.max(0, source.findIndex((t) => t.id === turnId));
  const corrected: Turn = { ...source[at]!, text };
  return { turns: source.map((t, i) => (i === at ? corrected : { ...t })), corrected };
}

/** UNIT_FORGOTTEN when the history says so (with when), else UNIT_NOT_FOUND. */
async function missing(deps: IngestDeps, namespace: string, unitId: string): Promise<RamemError> {
  const forgotten = (await deps.store.unitHistory(namespace, unitId)).findLast((e) => e.event === "forgotten" || e.event === "superseded");
  if (forgotten) {
    return new RamemError("UNIT_FORGOTTEN", `unit ${echoValue(unitId)} was ${forgotten.event} at ${forgotten.at}: there is nothing to update`, {
      where: "id",
      hint: "add the corrected words as a new memory (add / remember) instead; nothing was changed",
    });
  }
  return new RamemError("UNIT_NOT_FOUND", `namespace ${echoValue(namespace)} has no memory unit ${echoValue(unitId)}`, {
    where: "id",
    hint: "use a unit id from recall or getAll in this namespace; nothing was changed",
  });
}
