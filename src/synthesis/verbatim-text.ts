import type { MemoryUnit } from "../model/memory-unit.js";
import { annotateTimes } from "../language/annotate-times.js";
import { describeAttachments } from "../language/describe-attachments.js";

/**
 * What a unit's turns said, word for word, with each relative time resolved
 * beside it ("yesterday (7 May 2023)") and shared images described: the
 * evidence a generator should read. The restatement (`content`) exists to be
 * found; a generator is better served by the speaker's own words. Units
 * stored before turns were kept verbatim fall back to their content.
 */
export function verbatimText(unit: Pick<MemoryUnit, "content" | "source" | "context">): string {
  if (!unit.source?.length) return unit.content;
  return unit.source
    .map((turn) => {
      const body = [annotateTimes(turn.text.trim(), unit.context.mentionedTimes), ...describeAttachments(turn)].filter(Boolean).join(" ");
      return `${turn.speaker}: ${body}`;
    })
    .join(" ");
}
