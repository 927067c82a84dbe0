import type { Turn } from "../model/conversation.js";

/** "[shares an image: a sunset over the lake]" for each attachment: what memory keeps of a shared photo or file. */
export function describeAttachments(turn: Pick<Turn, "attachments">): string[] {
  return (turn.attachments ?? []).map((a) => `[shares ${a.kind === "image" ? "an image" : `a ${a.kind}`}: ${a.caption}]`);
}
