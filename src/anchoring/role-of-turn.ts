import { TurnRole, type Turn } from "../model/conversation.js";

/**
 * The role a turn's speaker plays, if any: the turn's own `role`, or a
 * speaker whose "name" is itself a role word ("user", "assistant") as chat
 * logs without names write it. A role is not a name, so first-person forms
 * are never rewritten to it ("user has been using user's Fitbit").
 */
export function roleOfTurn(turn: Pick<Turn, "speaker" | "role">): TurnRole | null {
  if (turn.role) return turn.role;
  const asRole = TurnRole.safeParse(turn.speaker.trim().toLowerCase());
  return asRole.success ? asRole.data : null;
}

/** Whether the speaker's name is only a role word: then there is no name to write "I" as. */
export function speakerIsRole(turn: Pick<Turn, "speaker" | "role">): boolean {
  return TurnRole.safeParse(turn.speaker.trim().toLowerCase()).success;
}
