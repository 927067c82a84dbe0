import * as chrono from "chrono-node";
import type { z } from "zod";
import { MAX_TURN_CHARS, NamespaceName, SessionWithTurns, TurnRole } from "../model/conversation.js";
import type { Attachment, Turn } from "../model/conversation.js";
import { IsoDateTime } from "../model/time.js";
import { RamemError } from "../model/errors.js";
import { describeIllFormedText, findIllFormedText } from "../model/stored-text.js";
import { echoValue } from "../model/echo-value.js";
import { checkMetadata } from "../model/metadata.js";

/**
 * Helpers shared by the readers. Every reader builds plain objects, checks the
 * things users actually get wrong with a precise message first, and runs the
 * model's zod schema last as a safety net, so nothing invalid is ever returned.
 */

export const ACCEPTED_DATE_FORMATS =
  'ISO 8601 ("2023-05-08T13:56:00Z", "2023-05-08T13:56", "2023-05-08") or an absolute English date ("1:56 pm on 8 May, 2023", "8 May 2023", "May 8, 2023 10:00")';

/** Joins location parts into the breadcrumb users see, e.g. `conv-26 › session_3 › turn 4 › text`. */
export function at(...parts: Array<string | undefined>): string {
  return parts.filter((p): p is string => p !== undefined && p !== "").join(" › ");
}

export function badInput(where: string, message: string, hint: string, cause?: unknown): RamemError {
  return new RamemError("BAD_INPUT", message, { where, hint, cause });
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export function describeType(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "object") return "an object";
  if (typeof v === "string") return `the string ${JSON.stringify(truncate(v, 40))}`;
  return `${typeof v} ${String(v)}`;
}

export function truncate(s: string, n: number): string {
  return s.length <= n ? s : `${s.slice(0, n - 1)}…`;
}

/** The 1-based line and column of a character offset, for JSON syntax errors. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/**
 * JSON.parse with an error that names the line and column: V8 reports only a
 * character offset, which is useless for a person opening the file in an editor.
 */
export function parseJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    const pos = /position (\d+)/.exec(msg);
    let loc = "";
    if (pos?.[1] !== undefined) {
      const { line, column } = lineColumn(text, Number(pos[1]));
      loc = `:${line}:${column}`;
    } else if (/end of (JSON|data) input/i.test(msg)) {
      loc = `:${lineColumn(text, text.length).line}`;
    }
    throw badInput(
      `${where}${loc}`,
      `malformed JSON: ${msg}`,
      "fix the JSON syntax at that line and column (a missing comma, quote or bracket is the usual cause)",
      err,
    );
  }
}

const ISO_DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const ISO_NO_OFFSET = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;

/**
 * Parses a session or turn date into ISO 8601 UTC. Wall-clock times without a
 * zone are read as UTC (see model/time.ts). Only absolute dates are accepted:
 * "yesterday" or "8 May" would silently depend on the day the import ran.
 */
export function parseDate(value: unknown, where: string): string {
  if (typeof value !== "string" || value.trim() === "") {
    throw badInput(where, `expected a date string, got ${describeType(value)}`, `write the date as ${ACCEPTED_DATE_FORMATS}`);
  }
  const s = value.trim();
  if (IsoDateTime.safeParse(s).success) return new Date(s).toISOString();
  if (ISO_DATE_ONLY.test(s) || ISO_NO_OFFSET.test(s)) {
    const d = new Date(`${ISO_DATE_ONLY.test(s) ? `${s}T00:00:00` : s.replace(" ", "T")}Z`);
    if (!Number.isNaN(d.getTime())) return d.toISOString();
  }
  const human = parseHumanDate(s);
  if (human !== null) return human;
  throw badInput(where, `cannot read the date ${JSON.stringify(truncate(s, 80))}`, `write the date as ${ACCEPTED_DATE_FORMATS}`);
}

function parseHumanDate(s: string): string | null {
  // A fixed reference keeps results independent of when the import runs; the
  // certainty checks below reject anything the reference would have filled in.
  const results = chrono.strict.parse(s, new Date(Date.UTC(2000, 0, 1)));
  if (results.length !== 1) return null;
  const r = results[0]!;
  const leftover = (s.slice(0, r.index) + s.slice(r.index + r.text.length)).replace(/[\s,.]/g, "");
  if (leftover !== "") return null;
  const c = r.start;
  if (!c.isCertain("year") || !c.isCertain("month") || !c.isCertain("day")) return null;
  const hasTime = c.isCertain("hour");
  const ms = Date.UTC(
    c.get("year")!,
    c.get("month")! - 1,
    c.get("day")!,
    hasTime ? c.get("hour")! : 0,
    hasTime ? (c.get("minute") ?? 0) : 0,
    hasTime ? (c.get("second") ?? 0) : 0,
  );
  const offsetMinutes = c.isCertain("timezoneOffset") ? (c.get("timezoneOffset") ?? 0) : 0;
  const d = new Date(ms - offsetMinutes * 60_000);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

export function checkNamespace(name: string, where: string): string {
  const r = NamespaceName.safeParse(name);
  if (!r.success) {
    throw badInput(
      where,
      `invalid namespace ${JSON.stringify(truncate(name, 60))}: ${r.error.issues[0]?.message ?? "invalid"}`,
      "namespaces are 1-128 characters: letters, digits and . _ : - , starting with a letter or digit",
    );
  }
  return name;
}

/**
 * The stored-text rule (model/stored-text.ts) checked where a reader still
 * knows the field: "turn 2 › speaker" rather than the participant list the
 * speaker ends up in.
 */
export function checkText(value: string, where: string): string {
  const found = findIllFormedText(value);
  if (found) throw badInput(where, describeIllFormedText(found), "remove the character (or fix the file's encoding); nothing was stored");
  return value;
}

/** Raw turn fields after a reader has mapped its format's names onto ours. */
export interface RawTurn {
  id?: unknown;
  speaker: unknown;
  text: unknown;
  time?: unknown;
  attachments?: unknown;
  /** The message role in a chat with an assistant ("user", "assistant", ...). */
  role?: unknown;
  /** The caller's JSON object; units of the turn inherit it. */
  metadata?: unknown;
}

/**
 * Checks one turn. `where` locates the turn itself; field names are appended.
 * `speakerHint` lets a format say what a speaker looks like in its own terms.
 */
export function buildTurn(raw: RawTurn, defaultId: string, where: string, speakerHint = 'a non-empty string, e.g. "speaker": "Caroline"'): Turn {
  let id = defaultId;
  if (raw.id !== undefined && raw.id !== null) {
    if (typeof raw.id !== "string" || raw.id.trim() === "") {
      throw badInput(at(where, "id"), `turn id must be a non-empty string, got ${describeType(raw.id)}`, `omit "id" to get "${defaultId}", or give a string`);
    }
    id = checkText(raw.id, at(where, "id"));
  }
  if (raw.speaker === undefined) {
    throw badInput(at(where, "speaker"), "turn has no speaker", `add "speaker": ${speakerHint}`);
  }
  if (typeof raw.speaker !== "string") {
    throw badInput(at(where, "speaker"), `unknown speaker format: got ${describeType(raw.speaker)}`, `the speaker must be ${speakerHint}`);
  }
  if (raw.speaker.trim() === "") {
    throw badInput(at(where, "speaker"), "speaker is empty", `the speaker must be ${speakerHint}`);
  }
  checkText(raw.speaker, at(where, "speaker"));
  if (raw.text !== undefined && raw.text !== null && typeof raw.text !== "string") {
    throw badInput(at(where, "text"), `turn text must be a string, got ${describeType(raw.text)}`, "give the turn's words as one string");
  }
  const text = typeof raw.text === "string" ? checkText(raw.text, at(where, "text")) : "";
  const attachments = buildAttachments(raw.attachments, at(where, "attachments"));
  if (text.trim() === "" && attachments.length === 0) {
    throw badInput(at(where, "text"), "turn is empty (no text and no attachment)", "remove the turn, or give it text or an attachment with a caption");
  }
  if (text.length > MAX_TURN_CHARS) {
    throw badInput(
      at(where, "text"),
      `turn text is ${text.length.toLocaleString("en-US")} characters; the limit is ${MAX_TURN_CHARS.toLocaleString("en-US")}`,
      "split the text into several turns (one per message or paragraph); a turn is one utterance, not a document",
    );
  }
  const turn: Turn = { id, speaker: raw.speaker.trim(), text };
  if (raw.role !== undefined && raw.role !== null) {
    const role = TurnRole.safeParse(raw.role);
    if (!role.success) throw badInput(at(where, "role"), `unknown role ${describeType(raw.role)}`, `role is one of ${TurnRole.options.map((r) => `"${r}"`).join(", ")}, or absent between people`);
    turn.role = role.data;
  }
  if (raw.time !== undefined && raw.time !== null) turn.time = parseDate(raw.time, at(where, "time"));
  if (attachments.length > 0) turn.attachments = attachments;
  if (raw.metadata !== undefined && raw.metadata !== null) turn.metadata = checkMetadata(raw.metadata, at(where, "metadata"));
  return turn;
}

function buildAttachments(raw: unknown, where: string): Attachment[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) {
    throw badInput(where, `attachments must be an array, got ${describeType(raw)}`, 'use "attachments": [{ "kind": "image", "caption": "..." }]');
  }
  return raw.map((a, i) => {
    const w = at(where, `attachment ${i + 1}`);
    if (!isRecord(a)) throw badInput(w, `attachment must be an object, got ${describeType(a)}`, 'use { "kind": "image", "caption": "..." }');
    if (a.kind !== "image" && a.kind !== "file" && a.kind !== "link") {
      throw badInput(at(w, "kind"), `unknown attachment kind ${describeType(a.kind)}`, 'kind is one of "image", "file", "link"');
    }
    if (typeof a.caption !== "string" || a.caption.trim() === "") {
      throw badInput(at(w, "caption"), `attachment caption must be a non-empty string, got ${describeType(a.caption)}`, "give the image caption, alt text or file name: it is what memory keeps");
    }
    if (a.caption.length > MAX_TURN_CHARS) {
      throw badInput(at(w, "caption"), `caption is ${a.caption.length} characters; the limit is ${MAX_TURN_CHARS}`, "shorten the caption");
    }
    if (a.url !== undefined && typeof a.url !== "string") {
      throw badInput(at(w, "url"), `url must be a string, got ${describeType(a.url)}`, "give the url as a string or omit it");
    }
    const out: Attachment = { kind: a.kind, caption: checkText(a.caption, at(w, "caption")) };
    if (typeof a.url === "string") out.url = checkText(a.url, at(w, "url"));
    return out;
  });
}

/** Throws on the first repeated turn id: provenance points at turns by id. */
export function checkUniqueTurnIds(turns: Turn[], where: (index: number) => string): void {
  const seen = new Map<string, number>();
  turns.forEach((t, i) => {
    const prev = seen.get(t.id);
    if (prev !== undefined) {
      throw badInput(at(where(i), "id"), `duplicate turn id ${echoValue(t.id)} (also turn ${prev + 1})`, "give every turn in a session its own id, or omit ids to number turns automatically");
    }
    seen.set(t.id, i);
  });
}

export function distinctSpeakers(turns: Turn[]): string[] {
  return [...new Set(turns.map((t) => t.speaker))];
}

/**
 * Final check against the model schema. Readers check everything users get
 * wrong first, so reaching an issue here means a reader bug or an odd corner;
 * the message still names the field.
 */
export function validateSession(candidate: z.input<typeof SessionWithTurns>, where: string): SessionWithTurns {
  const r = SessionWithTurns.safeParse(candidate);
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  const parts: string[] = [];
  for (let i = 0; i < issue.path.length; i++) {
    const k = issue.path[i];
    if (k === "turns" && typeof issue.path[i + 1] === "number") {
      parts.push(`turn ${(issue.path[i + 1] as number) + 1}`);
      i++;
    } else if (k !== "session") parts.push(String(k));
  }
  throw badInput(at(where, ...parts), issue.message, "fix this field; see src/formats/README.md for the expected shape");
}
