import type { MemoryUnit } from "../model/memory-unit.js";

// What the anchorers append for a shared photo or file: "[shares an image: …]".
const TRAILING_ATTACHMENTS = /(\s*\[shares [^\]]*\])+\s*$/;

/**
 * Whether a unit's own words end in a question ("You play any instruments?"),
 * attachments aside. Such a turn repeats the words a recall query uses, yet the
 * fact asked about is in the turn that answers it: on LoCoMo 14 % of question
 * turns are evidence for some question, against 28 % of the others.
 */
export function asksQuestion(unit: Pick<MemoryUnit, "content">): boolean {
  // Most turns share nothing: the pattern, tried from every blank of a long turn, was a twentieth of a recall.
  const own = unit.content.includes("[shares ") ? unit.content.replace(TRAILING_ATTACHMENTS, "") : unit.content;
  return own.trimEnd().endsWith("?");
}
