import { RamemError } from "../../model/errors.js";
import { describeValue, echoValue } from "../../model/echo-value.js";
import { TurnRole } from "../../model/conversation.js";
import type { AddMessage } from "../../formats/messages-to-turns.js";

/**
 * The argument checks of the Mem0-shaped methods: a JavaScript caller can
 * pass anything, and Mem0 itself fails on much of it with a TypeError from
 * deep inside. Here each is a RamemError naming the field, before anything
 * is read or stored.
 */

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Date);
}

export function badArgument(where: string, message: string, hint: string): RamemError {
  return new RamemError("BAD_ARGUMENT", message, { where, hint: `${hint}; nothing was changed` });
}

/**
 * An options object with only the keys Mem0's type for it has: a key it
 * does not know is refused rather than dropped, since a typo (`topk`,
 * `userID`) would otherwise silently change what the call does.
 */
export function checkOptionKeys(call: string, options: unknown, allowed: readonly string[]): Record<string, unknown> {
  if (options === undefined || options === null) return {};
  if (!isObject(options)) throw badArgument("options", `the options of ${call} must be an object, got ${describeValue(options)}`, `e.g. ${call}(…, { userId: "alice" })`);
  for (const key of Object.keys(options)) {
    if (!allowed.includes(key)) throw badArgument(key, `${call} has no option ${echoValue(key)}`, `${call} takes ${allowed.join(", ")}`);
  }
  return options;
}

export function checkType(value: unknown, kind: "boolean" | "object", where: string): void {
  if (value === undefined) return;
  const ok = kind === "boolean" ? typeof value === "boolean" : isObject(value);
  if (!ok) throw badArgument(where, `${where} must be ${kind === "boolean" ? "true or false" : "an object"}, got ${describeValue(value)}`, "see the option's type");
}

/** topK (or Mem0 2.x's limit): a non-negative integer, as Mem0 validates it. */
export function checkCount(value: unknown, where: string, fallback: number): number {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0) throw badArgument(where, `${where} must be a non-negative integer, got ${describeValue(value)}`, `e.g. ${where}: 5`);
  return value;
}

export function checkThreshold(value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !(value >= 0 && value <= 1)) throw badArgument("threshold", `threshold must be a number from 0 to 1, got ${describeValue(value)}`, "ramem's scores are in [0, 1]");
  return value;
}

export function checkMemoryId(value: unknown, call: string): string {
  if (typeof value !== "string" || value === "") throw badArgument("memoryId", `${call} takes a memory id (a string), got ${describeValue(value)}`, "ids come back in the results of add, search and getAll (ramem's look like u_…)");
  return value;
}

/**
 * A moment as Mem0 takes one (timestamp, referenceDate): Unix seconds (a
 * number or digits), an ISO 8601 string, or a Date. null/undefined: none.
 */
export function checkMoment(value: unknown, where: string): Date | undefined {
  if (value === undefined || value === null) return undefined;
  const ms =
    value instanceof Date
      ? value.getTime()
      : typeof value === "number"
        ? value * 1000
        : typeof value === "string"
          ? /^\d+(\.\d+)?$/.test(value)
            ? Number(value) * 1000
            : Date.parse(value)
          : Number.NaN;
  if (!Number.isFinite(ms)) throw badArgument(where, `${where} must be Unix seconds, an ISO 8601 date-time or a Date, got ${describeValue(value)}`, "e.g. 1715000000 or \"2024-05-06T12:53:20Z\"");
  return new Date(ms);
}

/** A message to store, with its index in the caller's list (for errors), or null when Mem0 stores nothing for it. */
export interface KeptMessage {
  index: number;
  message: AddMessage;
}

const ROLE_HINT = `role is one of ${TurnRole.options.map((r) => `"${r}"`).join(", ")}`;

/**
 * add's messages (a string, or Mem0 Messages) as Memory.add takes them.
 * System messages and blank ones are left out, as Mem0 stores no memory for
 * them; a call whose every message is blank is refused, as in Mem0.
 */
export function toKeptMessages(messages: unknown): KeptMessage[] {
  if (messages === undefined || messages === null) throw badArgument("messages", "add needs messages: a string or a list of { role, content }", 'e.g. add("I love sci-fi movies", { userId: "alice" })');
  if (typeof messages === "string") {
    if (messages.trim() === "") throw badArgument("messages", "the messages string is empty", "give the text to remember");
    return [{ index: 0, message: { role: "user", content: messages } }];
  }
  if (!Array.isArray(messages)) throw badArgument("messages", `messages must be a string or a list of { role, content }, got ${describeValue(messages)}`, 'e.g. [{ role: "user", content: "I love sci-fi movies" }]');
  if (messages.length === 0) throw badArgument("messages", "the messages list is empty", "give at least one message with content");
  const kept: KeptMessage[] = [];
  let blank = 0;
  messages.forEach((m: unknown, index) => {
    const where = `messages[${index}]`;
    if (!isObject(m)) throw badArgument(where, `a message is { role, content }, got ${describeValue(m)}`, ROLE_HINT);
    const role = TurnRole.safeParse(m.role);
    if (!role.success) throw badArgument(`${where}.role`, `unknown role ${typeof m.role === "string" ? echoValue(m.role) : describeValue(m.role)}`, ROLE_HINT);
    const content = m.content;
    const name = typeof m.name === "string" ? { name: m.name } : {};
    if (typeof content === "string") {
      if (content.trim() === "") {
        blank++;
        return;
      }
      if (role.data !== "system") kept.push({ index, message: { role: role.data, content, ...name } });
    } else if (isObject(content) && content.type === "image_url" && isObject(content.image_url) && typeof content.image_url.url === "string") {
      // Mem0 has an LLM describe the image; ramem keeps it as the turn's attachment (its URL).
      if (role.data !== "system") kept.push({ index, message: { role: role.data, content: [{ type: "image_url", image_url: content.image_url }], ...name } });
    } else {
      throw badArgument(`${where}.content`, `content must be a string or { type: "image_url", image_url: { url } }, got ${describeValue(content)}`, "as Mem0's Message type says");
    }
  });
  if (blank === messages.length) throw badArgument("messages", "every message is blank", "give at least one message with content");
  return kept;
}

/** An error ramem raised about messages[j] of the kept list, renamed to the caller's index (or to "messages" for a string). */
export function relocateMessageError(err: unknown, kept: readonly KeptMessage[], wasString: boolean): unknown {
  if (!(err instanceof RamemError) || !err.where) return err;
  const m = /^messages\[(\d+)\]/.exec(err.where);
  const original = m ? kept[Number(m[1])] : undefined;
  if (!m || !original) return err;
  const where = err.where.replace(/^messages\[\d+\]/, wasString ? "messages" : `messages[${original.index}]`);
  return new RamemError(err.code, err.message, { where, ...(err.hint ? { hint: err.hint } : {}), cause: err });
}
