import type { RoleCondition } from "../model/recall-frame.js";

/**
 * In a chat with an assistant, who said it is a coordinate of its own. A
 * question about what the assistant said ("the dish you recommended", "our
 * previous conversation about…") is answered by the assistant's turns; a
 * question in the first person ("how many appointments did I go to") by the
 * user's own statements — the assistant's replies only echo them. Grounded
 * only where the history has roles: between people it is never set.
 */
export const ROLE_CONFIDENCE = 0.8;

// "you recommended" reports what the assistant said; "can you recommend" is a new request.
const REPORTED = "recommended|suggested|mentioned|said|told|provided|gave|listed|wrote|described|explained|shared|proposed|offered|advised|named|came up with";
const REPORTED_AFTER_DID = "recommend|suggest|mention|say|tell|provide|give|list|write|describe|explain|share|propose|offer|advise|name|come up with";
const ASKS_ABOUT_ASSISTANT = new RegExp(
  `\\byou(?: had| have|'d|'ve)? (?:${REPORTED})\\b|\\bdid you (?:${REPORTED_AFTER_DID})\\b|\\b(?:our|the|that) (?:previous|last|earlier|past) (?:conversation|chat|discussion|exchange)\\b`,
  "i",
);
// "me" after a request verb is the one who asks ("remind me", "tell me"), not the one the fact is about.
const FIRST_PERSON = /\b(I|I'm|I've|I'd|I'll|my|mine|myself)\b|(?<!\b(?:remind|tell|help|show|give|let|recommend|suggest|send|find)\s)\bme\b/i;
// Asking to be reminded of something from the conversation: either side may have said it.
const RECALL_REQUEST = /\b(remind me|trying to (recall|remember)|do you (remember|recall)|can you recall)\b/i;

export function induceRoleCondition(query: string, knownRoles: readonly string[]): RoleCondition | null {
  if (!knownRoles.includes("user") || !knownRoles.includes("assistant")) return null;
  const aboutAssistant = ASKS_ABOUT_ASSISTANT.exec(query);
  if (aboutAssistant) {
    return { role: "assistant", evidence: aboutAssistant[0], confidence: ROLE_CONFIDENCE, note: "asks what the assistant said" };
  }
  if (RECALL_REQUEST.test(query)) return null;
  const firstPerson = FIRST_PERSON.exec(query);
  if (firstPerson) {
    return { role: "user", evidence: firstPerson[0], confidence: ROLE_CONFIDENCE, note: "asks about the user in the first person: the user's own turns state it" };
  }
  return null;
}
