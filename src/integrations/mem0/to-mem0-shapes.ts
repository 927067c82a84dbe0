import { createHash } from "node:crypto";
import type { MemoryUnit } from "../../model/memory-unit.js";
import type { UnitHistoryEvent } from "../../model/unit-history.js";
import { ENTITY_METADATA_KEYS } from "./mem0-scope.js";
import type { MemoryHistoryEntry, MemoryItem } from "./types.js";

function idIn(metadata: Record<string, unknown>, key: string): string | undefined {
  const v = metadata[key];
  return typeof v === "string" && v !== "" ? v : undefined;
}

/**
 * A unit as Mem0's OSS Memory returns a memory. `memory` is the unit's
 * content: ramem's restatement of the message (speaker named, relative
 * times resolved), which is what recall matched. The namespace is given back
 * as the user id, except when it belongs to an agent (added with agentId and
 * no userId) or is the default one (added with only a runId): Mem0 then has
 * no user id either. Ids are spread in both spellings, as MemoryItem says.
 */
export function toMem0Item(unit: MemoryUnit, defaultNamespace: string): MemoryItem {
  const all = (unit.metadata ?? {}) as Record<string, unknown>;
  const agentId = idIn(all, "agent_id");
  const runId = idIn(all, "run_id");
  const userId = unit.namespace === agentId || unit.namespace === defaultNamespace ? undefined : unit.namespace;
  const metadata: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(all)) if (!(ENTITY_METADATA_KEYS as readonly string[]).includes(k)) metadata[k] = v;
  return {
    id: unit.id,
    memory: unit.content,
    // Mem0 gives the MD5 of the text: code that compares hashes to see a change keeps working.
    hash: createHash("md5").update(unit.content).digest("hex"),
    ...(unit.createdAt ? { createdAt: unit.createdAt } : {}),
    ...(unit.updatedAt ?? unit.createdAt ? { updatedAt: unit.updatedAt ?? unit.createdAt } : {}),
    metadata,
    ...(userId ? { user_id: userId, userId } : {}),
    ...(agentId ? { agent_id: agentId, agentId } : {}),
    ...(runId ? { run_id: runId, runId } : {}),
  };
}

const ACTION: Record<UnitHistoryEvent["event"], MemoryHistoryEntry["action"]> = {
  created: "ADD",
  updated: "UPDATE",
  // A later statement replaced what the memory says: Mem0 has no closer action.
  superseded: "UPDATE",
  forgotten: "DELETE",
};

/**
 * ramem's history of a unit (oldest first) as Mem0's history rows, newest
 * first as Mem0's history stores return them. created_at is when the memory
 * was added (Mem0 stamps every row of a memory with it), updated_at when the
 * change happened (null for the ADD). A forget clears the text of every
 * event (ramem's deletion deletes), so the values of a deleted memory are null.
 */
export function toMem0History(events: readonly UnitHistoryEvent[]): MemoryHistoryEntry[] {
  const createdAt = events.find((e) => e.event === "created")?.at ?? events[0]?.at ?? null;
  return events
    .map((e, i): MemoryHistoryEntry => {
      const action = ACTION[e.event];
      const updatedAt = action === "ADD" ? null : e.at;
      const isDeleted = action === "DELETE" ? 1 : 0;
      const previous = action === "ADD" ? null : e.previousText;
      const value = action === "DELETE" ? null : e.text;
      return {
        id: `${e.unitId}#${i + 1}`,
        memory_id: e.unitId,
        previous_value: previous,
        new_value: value,
        action,
        created_at: createdAt,
        updated_at: updatedAt,
        is_deleted: isDeleted,
        memoryId: e.unitId,
        previousValue: previous,
        newValue: value,
        createdAt,
        updatedAt,
        isDeleted,
      };
    })
    .reverse();
}
