import type { MemoryUnit } from "../model/memory-unit.js";

/** Assistant, system and tool turns speak for a service, not a person. */
export function speaksForAService(unit: MemoryUnit): boolean {
  const role = unit.context.role;
  return role === "assistant" || role === "system" || role === "tool";
}
