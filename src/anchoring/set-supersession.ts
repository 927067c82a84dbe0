import { createHash } from "node:crypto";
import type { MemoryUnit } from "../model/memory-unit.js";
import type { MemoryStore } from "../store/contract.js";
import type { ChangeStamp } from "../model/unit-history.js";
import { RamemError } from "../model/errors.js";
import { echoValue } from "../model/echo-value.js";
import { deriveValidity } from "./derive-validity.js";
import { retrySessionChange } from "./retry-session-change.js";

/**
 * A user's correction of what supersedes a unit, kept on the unit
 * (`supersession`) so that recall, export and import all see it: `by` a unit
 * id (this statement is no longer true; that one replaced it) or null (this
 * statement is not superseded, whatever the rules derive). Both units must be
 * in the namespace; a unit never supersedes itself, and no chain may come
 * back to where it started (A → B → A): the correction is refused and nothing
 * is written. A compare-and-swap on the unit's session, redone when another
 * writer changed it meanwhile.
 */
export function setSupersession(store: MemoryStore, namespace: string, unitId: string, by: string | null, change: ChangeStamp): Promise<MemoryUnit> {
  return retrySessionChange(async () => {
    const [found] = await store.getUnits(namespace, [unitId]);
    if (!found) throw notFound(namespace, unitId, "id");
    const sessionId = found.provenance.sessionId;
    const session = await store.getSession(namespace, sessionId);
    if (!session) throw notFound(namespace, unitId, "id");
    // Read again after the hash: a write in between (an update of its text) shows here, or changes the hash so that
    // the write below is refused and redone. Written from the unit read before it, that update was lost.
    const [unit] = await store.getUnits(namespace, [unitId]);
    if (!unit) throw notFound(namespace, unitId, "id");
    if (by !== null) {
      if (by === unitId) throw new RamemError("CYCLIC_SUPERSESSION", `unit ${echoValue(unitId)} cannot supersede itself`, { where: "by", hint: "name the unit that replaced it; nothing was changed" });
      const [successor] = await store.getUnits(namespace, [by]);
      if (!successor) throw notFound(namespace, by, "by");
      const all = await store.listUnits(namespace);
      const corrected = all.map((u) => (u.id === unitId ? { ...u, supersession: { supersededBy: by, at: change.at } } : u));
      const validity = deriveValidity(corrected.filter((u) => (u.context.states?.length ?? 0) > 0 || u.supersession));
      const seen = new Set<string>([unitId]);
      for (let next: string | null | undefined = by; next; next = validity.get(next)?.supersededBy) {
        if (seen.has(next)) {
          throw new RamemError("CYCLIC_SUPERSESSION", `${echoValue(by)} is itself superseded, directly or along a chain, by ${echoValue(unitId)}: the supersession would go round in a circle`, {
            where: "by",
            hint: `unsupersede one of them first (memory.unsupersede(${JSON.stringify(by)})); nothing was changed`,
          });
        }
        seen.add(next);
      }
    }
    const updated: MemoryUnit = { ...unit, supersession: { supersededBy: by, at: change.at } };
    const stored = (await store.getUnitEmbeddings(namespace, [unitId])).get(unitId);
    // Forgotten by another writer since it was read: not found, as a read after the forget says.
    if (!stored && (await store.getUnits(namespace, [unitId])).length === 0) throw notFound(namespace, unitId, "id");
    if (!stored) throw new RamemError("NO_VECTOR", `unit ${echoValue(unitId)} has no stored vector`, { where: "id", hint: "re-ingest or reanchor its session; nothing was changed" });
    const hash = createHash("sha256").update(session.contentHash).update(`\u0000supersede\u0000${unitId}\u0000${by ?? ""}`).digest("hex");
    await store.updateUnits(namespace, sessionId, hash, [{ unit: updated, embedding: stored }], { expectedHash: session.contentHash, change });
    return updated;
  });
}

function notFound(namespace: string, unitId: string, where: string): RamemError {
  return new RamemError("UNIT_NOT_FOUND", `namespace ${echoValue(namespace)} has no memory unit ${echoValue(unitId)}`, {
    where,
    hint: "unit ids are per namespace (a supersession never crosses namespaces): check the id with memory.get or `ramem recall --json`; nothing was changed",
  });
}
