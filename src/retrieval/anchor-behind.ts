import { isReliable, type RecallFrame } from "../model/recall-frame.js";
import type { ContentCandidate } from "./content-recall.js";

/**
 * "How much had he saved before his clutch died?", "Where was Chidi working
 * before he opened the bakery?": the memory the frame found the event in
 * (`anchorUnitId`) matches the question's words best, since the question
 * names that event — yet it is the point the asked time is counted from, not
 * what held before or came after it. It goes behind the next context-valid
 * candidate: one place, so a memory that tells both ("after the race I
 * realised…") stays near the head.
 */
export function anchorBehindNextValid(ordered: ContentCandidate[], frame: RecallFrame | null, contextValid: ReadonlySet<string>, reasonsOf: Map<string, string[]>): ContentCandidate[] {
  const time = frame?.time ?? null;
  if (!time || !isReliable(time) || (time.relation !== "before" && time.relation !== "after") || time.anchorUnitId === undefined) return ordered;
  const at = ordered.findIndex((c) => c.unitId === time.anchorUnitId);
  const next = ordered.findIndex((c, i) => i > at && contextValid.has(c.unitId));
  if (at < 0 || next < 0) return ordered;
  const out = [...ordered];
  const [anchor] = out.splice(at, 1);
  out.splice(next, 0, anchor!);
  reasonsOf.get(anchor!.unitId)?.push(`the event the question counts ${time.relation} from, behind the next memory valid then`);
  return out;
}
