import { z } from "zod";
import { IsoDateTime } from "./time.js";

/**
 * What happened to a memory unit, as the store recorded it in the same
 * transaction as the change. Text is kept only while the unit exists: a
 * forget clears the text of every event of the unit (deletion deletes).
 */
export const UnitHistoryEventName = z.enum(["created", "updated", "superseded", "forgotten"]);
export type UnitHistoryEventName = z.infer<typeof UnitHistoryEventName>;

export const UnitHistoryEvent = z.object({
  unitId: z.string(),
  sessionId: z.string(),
  event: UnitHistoryEventName,
  at: IsoDateTime,
  /** Who made the change: the API key's name on the server, "library" for direct calls, "import" for an import. */
  actor: z.string(),
  /** The unit's content after the event; null after a forget (and for every event of a forgotten unit). */
  text: z.string().nullable(),
  /** The content before the event (updated, superseded); null when there was none or it was forgotten. */
  previousText: z.string().nullable(),
});
export type UnitHistoryEvent = z.infer<typeof UnitHistoryEvent>;

/** Who and when, handed to every store write that records history. */
export interface ChangeStamp {
  actor: string;
  /** ISO 8601. */
  at: string;
}

export const LIBRARY_ACTOR = "library";

export function changeStamp(actor: string | undefined, now: Date = new Date()): ChangeStamp {
  return { actor: actor ?? LIBRARY_ACTOR, at: now.toISOString() };
}
