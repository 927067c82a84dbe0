import type { MemoryUnit } from "./memory-unit.js";

/**
 * What a unit's turns said, without speakers or annotations: the verbatim
 * source turns' text, joined; the content for a unit stored before turns
 * were kept verbatim. For rules that read the words said (plan cues, the
 * words an event or a plan shares with a report, topic cohesion), not the
 * restatement made for finding the unit.
 */
export function spokenText(unit: Pick<MemoryUnit, "content" | "source">): string {
  return unit.source && unit.source.length > 0 ? unit.source.map((t) => t.text).join(" ") : unit.content;
}
