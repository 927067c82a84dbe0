import { z } from "zod";
import { IsoDateTime } from "./time.js";
import { StoredText, storedText } from "./stored-text.js";
import { MetadataSchema } from "./metadata.js";

/** 1 MB of text in one turn is a paste accident, not a conversation turn. */
export const MAX_TURN_CHARS = 64_000;

export const NamespaceName = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:-]*$/, "use letters, digits and . _ : - (start with a letter or digit)");

/** Ids that URL paths resolve away ("." and ".."), and any id of dots only with them. */
export const ONLY_DOTS = /^\.+$/;

/**
 * A session id: any stored text, except ids of dots only. "." and ".." are
 * path segments a URL resolves away (/sessions/.. is /), so a session so named
 * could be stored but never read or forgotten through REST or the inspector.
 */
export const SessionId = storedText(z.string())
  .min(1)
  .max(200)
  .refine((id) => !ONLY_DOTS.test(id), { message: 'a session id may not be only dots: "." and ".." cannot be addressed in a URL; use letters or digits too' });

export const Attachment = z.object({
  kind: z.enum(["image", "file", "link"]),
  /** A textual description (image caption, alt text, file name): what memory keeps. */
  caption: storedText(z.string()).max(MAX_TURN_CHARS),
  url: StoredText.optional(),
});
export type Attachment = z.infer<typeof Attachment>;

/**
 * What part a speaker plays in a chat with an assistant. A coordinate of its
 * own, apart from the speaker's name: in a user–assistant chat the user
 * states the facts and the assistant answers at length, while in a
 * conversation between people nobody has a role.
 */
export const TurnRole = z.enum(["user", "assistant", "system", "tool"]);
export type TurnRole = z.infer<typeof TurnRole>;

export const Turn = z
  .object({
    id: storedText(z.string()).min(1).max(200),
    speaker: storedText(z.string()).trim().min(1, "a turn needs a speaker name").max(200),
    /** Set for chats with an assistant (the message's role); absent between people. */
    role: TurnRole.optional(),
    text: storedText(z.string()).max(MAX_TURN_CHARS, `a turn may hold at most ${MAX_TURN_CHARS} characters; split long documents into several turns`),
    time: IsoDateTime.optional(),
    attachments: z.array(Attachment).optional(),
    /** The caller's own fields (JSON, size-limited); the turn's units inherit them over the session's. */
    metadata: MetadataSchema.optional(),
  })
  .refine((t) => t.text.trim().length > 0 || (t.attachments?.length ?? 0) > 0, {
    message: "a turn needs text or an attachment (empty turns carry nothing to remember)",
    path: ["text"],
  });
export type Turn = z.infer<typeof Turn>;

export const Session = z
  .object({
    id: SessionId,
    namespace: NamespaceName,
    startTime: IsoDateTime,
    /** Defaults to startTime: most chat logs only date the start of a session. */
    endTime: IsoDateTime.optional(),
    participants: z.array(storedText(z.string()).min(1)).default([]),
    /** The caller's own fields (JSON, size-limited); every unit of the session inherits them. */
    metadata: MetadataSchema.optional(),
  })
  // Keys in the schema's order: a session's content hash (ingest skips unchanged sessions) reads them in order.
  .transform((s) => ({
    id: s.id,
    namespace: s.namespace,
    startTime: s.startTime,
    endTime: s.endTime ?? s.startTime,
    participants: s.participants,
    ...(s.metadata !== undefined ? { metadata: s.metadata } : {}),
  }))
  .refine((s) => Date.parse(s.startTime) <= Date.parse(s.endTime), {
    message: "session endTime is before its startTime",
    path: ["endTime"],
  });
export type Session = z.infer<typeof Session>;

/** One session with its turns: the unit of ingest and of atomicity. */
export const SessionWithTurns = z.object({
  session: Session,
  turns: z.array(Turn).min(1, "a session needs at least one turn"),
});
export type SessionWithTurns = z.infer<typeof SessionWithTurns>;
/** What a caller may pass to ingest: endTime and participants may be left out (they default to startTime and []). */
export type SessionWithTurnsInput = z.input<typeof SessionWithTurns>;
