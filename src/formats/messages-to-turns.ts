import { TurnRole } from "../model/conversation.js";
import { RamemError } from "../model/errors.js";
import { echoValue } from "../model/echo-value.js";
import type { Metadata } from "../model/metadata.js";
import { checkArgs } from "../model/check-args.js";

/** One turn as messagesToTurns gives it: the shape Memory.appendTurns takes (anchoring/session-from-turns.ts). */
export interface TurnInput {
  id?: string;
  speaker: string;
  text: string;
  role?: TurnRole;
  time?: string;
  attachments?: Array<{ kind: "image" | "file"; caption: string; url?: string }>;
  metadata?: Metadata;
}

/** A message as agent frameworks pass them (OpenAI, Vercel AI SDK, LangChain): a role and content. */
export interface AgentMessage {
  role: TurnRole;
  /** A string, or parts: text parts are kept; image and file parts become attachments. */
  content: string | ReadonlyArray<MessagePart>;
  /** The speaker's name; default: the namespace's name for the role. */
  name?: string;
  /** When it was said (ISO 8601 or a Date); default: now. */
  createdAt?: string | Date;
  metadata?: Metadata;
  /** Turn id; default "<session>:<n>". */
  id?: string;
}

/** What a content part may look like across the ecosystem; anything else is ignored if text remains. */
export type MessagePart =
  | { type: "text"; text: string }
  | { type: "image" | "image_url" | "file"; image?: unknown; image_url?: unknown; url?: string; alt?: string; filename?: string; name?: string; mediaType?: string };

/** ramem's own turn shape, accepted by `add` too. */
export interface SpeakerMessage {
  speaker: string;
  text: string;
  role?: TurnRole;
  time?: string;
  metadata?: Metadata;
  id?: string;
}

export type AddMessage = AgentMessage | SpeakerMessage;

/** Who speaks for each role when a message names nobody. */
export type SpeakerNames = Readonly<Record<TurnRole, string>>;
export const DEFAULT_SPEAKER_NAMES: SpeakerNames = { user: "user", assistant: "assistant", system: "system", tool: "tool" };

const ROLE_HINT = `role is one of ${TurnRole.options.map((r) => `"${r}"`).join(", ")}; or give ramem's own {speaker, text}`;

/**
 * Turns of either message shape, checked one by one: an unknown role, empty
 * content, a part list with no text or attachment are refused naming the
 * message (BAD_INPUT), before anything is stored.
 */
export function messagesToTurns(messages: unknown, names: SpeakerNames, now: Date): TurnInput[] {
  if (!Array.isArray(messages) || messages.length === 0) {
    throw new RamemError("BAD_INPUT", "add takes a non-empty list of messages", { where: "messages", hint: 'e.g. [{ role: "user", content: "I moved to Lisbon" }]' });
  }
  checkArgs("messagesToTurns", { names: [names, "object"], now: [now, "date"] });
  return messages.map((m, i) => toTurn(m, `messages[${i}]`, names, now));
}

function fail(where: string, message: string, hint: string): RamemError {
  return new RamemError("BAD_INPUT", message, { where, hint: `${hint}; nothing of this call was stored` });
}

function toTurn(m: unknown, where: string, names: SpeakerNames, now: Date): TurnInput {
  if (typeof m !== "object" || m === null || Array.isArray(m)) throw fail(where, "a message is an object", ROLE_HINT);
  const msg = m as Record<string, unknown>;
  const common = {
    ...(msg.id !== undefined ? { id: msg.id as string } : {}),
    ...(msg.metadata !== undefined ? { metadata: msg.metadata as Metadata } : {}),
  };
  if ("speaker" in msg && !("role" in msg && "content" in msg)) {
    const role = msg.role === undefined ? undefined : parseRole(msg.role, `${where} › role`);
    return {
      speaker: msg.speaker as string,
      text: msg.text as string,
      ...(role ? { role } : {}),
      time: timeOf(msg.time, `${where} › time`) ?? now.toISOString(),
      ...common,
    };
  }
  if (!("role" in msg)) throw fail(`${where} › role`, "the message has neither a role nor a speaker", ROLE_HINT);
  const role = parseRole(msg.role, `${where} › role`);
  const { text, attachments } = contentOf(msg.content, `${where} › content`);
  const name = typeof msg.name === "string" && msg.name.trim() !== "" ? msg.name.trim() : names[role];
  return {
    speaker: name,
    text,
    role,
    time: timeOf(msg.createdAt, `${where} › createdAt`) ?? now.toISOString(),
    ...(attachments.length ? { attachments } : {}),
    ...common,
  };
}

function parseRole(raw: unknown, where: string): TurnRole {
  const r = TurnRole.safeParse(raw);
  if (r.success) return r.data;
  throw fail(where, `unknown role ${typeof raw === "string" ? echoValue(raw) : String(raw)}`, ROLE_HINT);
}

function timeOf(raw: unknown, where: string): string | undefined {
  if (raw === undefined || raw === null) return undefined;
  const ms = raw instanceof Date ? raw.getTime() : typeof raw === "string" || typeof raw === "number" ? Date.parse(String(raw)) : Number.NaN;
  if (Number.isNaN(ms)) throw fail(where, `not a date: ${typeof raw === "string" ? echoValue(raw) : String(raw)}`, "give an ISO 8601 date-time or a Date");
  return new Date(ms).toISOString();
}

function contentOf(raw: unknown, where: string): { text: string; attachments: Array<{ kind: "image" | "file"; caption: string; url?: string }> } {
  if (typeof raw === "string") {
    if (raw.trim() === "") throw fail(where, "the message's content is empty", "give the message's words, or leave the message out");
    return { text: raw, attachments: [] };
  }
  if (!Array.isArray(raw)) throw fail(where, `content must be a string or a list of parts, got ${raw === null ? "null" : typeof raw}`, 'e.g. "content": "hello" or [{ "type": "text", "text": "hello" }]');
  const texts: string[] = [];
  const attachments: Array<{ kind: "image" | "file"; caption: string; url?: string }> = [];
  raw.forEach((part, i) => {
    if (typeof part === "string") return void texts.push(part);
    if (typeof part !== "object" || part === null) throw fail(`${where}[${i}]`, "a content part is an object", '{ "type": "text", "text": "..." }');
    const p = part as Record<string, unknown>;
    if (p.type === "text" && typeof p.text === "string") return void texts.push(p.text);
    if (p.type === "image" || p.type === "image_url" || p.type === "file") {
      const url = typeof p.url === "string" ? p.url : typeof p.image_url === "string" ? p.image_url : typeof (p.image_url as { url?: unknown })?.url === "string" ? ((p.image_url as { url: string }).url) : undefined;
      const caption = [p.alt, p.filename, p.name].find((c): c is string => typeof c === "string" && c.trim() !== "") ?? (p.type === "file" ? "a file" : "an image");
      attachments.push({ kind: p.type === "file" ? "file" : "image", caption, ...(url && !url.startsWith("data:") ? { url } : {}) });
    }
  });
  const text = texts.join("\n").trim();
  if (text === "" && attachments.length === 0) throw fail(where, "the message has no text part and no image or file", "give at least one text part");
  return { text, attachments };
}

/** Turn fields under the name an ecosystem message gives them; ramem's own {speaker, text} keeps its names. */
const AGENT_FIELD: Readonly<Record<string, string>> = { text: "content", attachments: "content", speaker: "name", time: "createdAt" };

/**
 * The same error located in what the caller sent. `add` checks its turns with
 * the session builder, which names them `turns[0] › text` or `session s-… ›
 * turn 1 › text`; the caller passed `messages`, whose i-th entry is the i-th
 * turn, and an ecosystem message calls the text `content`. Errors located
 * elsewhere are returned as they are.
 */
export function locateInMessages(err: unknown, messages: readonly unknown[]): unknown {
  if (!(err instanceof RamemError) || err.where === undefined) return err;
  const m = /^turns\[(\d+)\](?: › (.*))?$/s.exec(err.where) ?? /^session \S+ › turn (\d+)(?: › (.*))?$/s.exec(err.where);
  if (!m) return err;
  // "turn N" counts from 1 (it is the Nth turn of this call); turns[i] from 0.
  const index = err.where.startsWith("turns[") ? Number(m[1]) : Number(m[1]) - 1;
  const message = messages[index];
  if (message === undefined) return err;
  const isAgent = typeof message === "object" && message !== null && "role" in message && "content" in message;
  const [field, ...rest] = m[2] === undefined ? [] : m[2].split(" › ");
  const callerField = field === undefined ? undefined : isAgent ? (AGENT_FIELD[field] ?? field) : field;
  // Inside content the turn's attachment numbering is not the caller's part numbering, so stop at content.
  const tail = callerField === "content" ? [] : rest;
  const where = [`messages[${index}]`, ...(callerField === undefined ? [] : [callerField]), ...tail].join(" › ");
  return new RamemError(err.code, err.message, { where, ...(err.hint !== undefined ? { hint: err.hint } : {}), cause: err });
}
