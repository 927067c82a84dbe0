import type { SessionWithTurns } from "../model/conversation.js";
import { NamespaceName } from "../model/conversation.js";
import { RamemError } from "../model/errors.js";
import { DEFAULT_SPEAKER_NAMES, messagesToTurns } from "./messages-to-turns.js";
import type { ReaderOptions, ReadResult } from "./types.js";
import { at, buildTurn, isRecord, parseJson, validateSession } from "./shared.js";

/**
 * OpenAI-style chat logs: `[{role, content, name?, createdAt?}, ...]` (one
 * session), `{messages: [...]}`, or JSONL with one message per line (one
 * session) or one `{messages: [...]}` conversation per line (a session each).
 * A message names its speaker with `name`, else its role does ("user",
 * "assistant"); messages without a time are dated by `undatedTime` (the
 * file's modification time), so re-ingesting the same file is a no-op.
 */
export interface MessagesReaderOptions extends ReaderOptions {
  /** Id of the file's session (the file name without extension); several conversations get "<id>-<n>". */
  sessionId: string;
  undatedTime: Date;
}

/** The tell: the first object has "role" and "content" (or holds "messages"), and no "speaker". */
export function looksLikeMessages(head: string): boolean {
  const first = /\{[^{}]*/.exec(head)?.[0] ?? "";
  if (/"speaker"\s*:/.test(first)) return false;
  return (/"role"\s*:/.test(first) && /"content"\s*:/.test(head)) || /^\s*\{\s*"messages"\s*:\s*\[/.test(head);
}

export function readMessagesJson(json: unknown, opts: MessagesReaderOptions): ReadResult {
  if (Array.isArray(json)) return result(opts, [toSession(json, opts.sessionId, opts, opts.source ?? "file")]);
  if (isRecord(json) && Array.isArray(json.messages)) return result(opts, [toSession(json.messages, opts.sessionId, opts, opts.source ?? "file")]);
  throw new RamemError("BAD_INPUT", "a messages file is a JSON array of {role, content} messages or an object with a \"messages\" array", {
    where: opts.source ?? "file",
    hint: 'e.g. [{"role": "user", "content": "I moved to Lisbon"}, {"role": "assistant", "content": "How is it?"}]',
  });
}

export function readMessagesJsonl(text: string, opts: MessagesReaderOptions): ReadResult {
  const source = opts.source ?? "file";
  const lines = text.split(/\r?\n/).map((line, i) => ({ line, n: i + 1 })).filter((l) => l.line.trim() !== "");
  const parsed = lines.map((l) => ({ value: parseJson(l.line, `${source}:${l.n}`), n: l.n }));
  if (parsed.every((p) => isRecord(p.value) && Array.isArray(p.value.messages))) {
    return result(
      opts,
      parsed.map((p, i) => toSession((p.value as { messages: unknown[] }).messages, parsed.length === 1 ? opts.sessionId : `${opts.sessionId}-${i + 1}`, opts, `${source}:${p.n}`)),
    );
  }
  return result(opts, [toSession(parsed.map((p) => p.value), opts.sessionId, opts, source)]);
}

function toSession(messages: unknown[], sessionId: string, opts: MessagesReaderOptions, where: string): SessionWithTurns {
  const namespace = opts.namespace ?? "default";
  if (!NamespaceName.safeParse(namespace).success) throw new RamemError("BAD_INPUT", `${JSON.stringify(namespace)} is not a namespace name`, { where, hint: "use letters, digits and . _ : -" });
  try {
    const turns = messagesToTurns(messages, DEFAULT_SPEAKER_NAMES, opts.undatedTime).map((t, i) => buildTurn(t, `${sessionId}:${i + 1}`, `messages[${i}]`));
    const times = turns.map((t) => Date.parse(t.time!));
    const participants = [...new Set(turns.map((t) => t.speaker))];
    return validateSession(
      { session: { id: sessionId, namespace, startTime: new Date(Math.min(...times)).toISOString(), endTime: new Date(Math.max(...times)).toISOString(), participants }, turns },
      where,
    );
  } catch (err) {
    if (err instanceof RamemError) throw new RamemError(err.code, err.message, { where: at(where, err.where), ...(err.hint ? { hint: err.hint } : {}) });
    throw err;
  }
}

function result(opts: MessagesReaderOptions, sessions: SessionWithTurns[]): ReadResult {
  return { conversations: [{ namespace: opts.namespace ?? "default", sessions }], report: { dropped: [] } };
}
