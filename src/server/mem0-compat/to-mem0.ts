import { createHash } from "node:crypto";
import type { MemoryUnit } from "../../model/memory-unit.js";
import type { Metadata } from "../../model/metadata.js";
import type { UnitHistoryEvent } from "../../model/unit-history.js";
import { ENTITY_METADATA_KEYS } from "./entities.js";
import type { Mem0HistoryEntry, Mem0Memory } from "./mem0-schemas.js";

function idIn(metadata: Metadata, key: string): string | null {
  const v = metadata[key];
  return typeof v === "string" ? v : null;
}

/**
 * A unit as Mem0's platform API shows a memory. `memory` is the unit's
 * content (ramem's self-contained restatement: speaker named, relative times
 * resolved), which is what recall matched. The namespace is given back as
 * user_id, except when it is the agent's own (added with agent_id and no
 * user_id): then user_id is null, as Mem0 would have it.
 */
export function toMem0Memory(unit: MemoryUnit): Mem0Memory {
  const all = unit.metadata ?? {};
  const agentId = idIn(all, "agent_id");
  const metadata: Metadata = {};
  for (const [k, v] of Object.entries(all)) if (!(ENTITY_METADATA_KEYS as readonly string[]).includes(k)) metadata[k] = v;
  return {
    id: unit.id,
    memory: unit.content,
    user_id: agentId !== null && agentId === unit.namespace ? null : unit.namespace,
    agent_id: agentId,
    run_id: idIn(all, "run_id"),
    app_id: idIn(all, "app_id"),
    // Mem0 gives an MD5 of the text; any stable digest serves its use (seeing that a memory changed).
    hash: createHash("md5").update(unit.content).digest("hex"),
    metadata: Object.keys(metadata).length > 0 ? metadata : null,
    categories: [],
    created_at: unit.createdAt ?? null,
    updated_at: unit.updatedAt ?? unit.createdAt ?? null,
    expiration_date: null,
    immutable: false,
  };
}

const EVENT: Record<UnitHistoryEvent["event"], Mem0HistoryEntry["event"]> = {
  created: "ADD",
  updated: "UPDATE",
  // A supersession changes what the memory means now (a later statement replaced it): Mem0 has no closer event.
  superseded: "UPDATE",
  forgotten: "DELETE",
};

/** ramem's history of a unit (oldest first) as Mem0's history entries; `actor` (the key's name) is ramem's addition. */
export function toMem0History(events: readonly UnitHistoryEvent[], userId: string | null): Mem0HistoryEntry[] {
  return events.map((e, i) => ({
    id: `${e.unitId}#${i + 1}`,
    memory_id: e.unitId,
    input: [],
    old_memory: e.previousText,
    new_memory: e.text,
    user_id: userId,
    categories: [],
    event: EVENT[e.event],
    is_deleted: e.event === "forgotten",
    created_at: e.at,
    updated_at: e.at,
    actor: e.actor,
  }));
}
