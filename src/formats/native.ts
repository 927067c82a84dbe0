import type { SessionWithTurns, Turn } from "../model/conversation.js";
import type { ConversationInput, ReaderOptions, ReadResult } from "./types.js";
import {
  at,
  badInput,
  buildTurn,
  checkNamespace,
  checkUniqueTurnIds,
  describeType,
  distinctSpeakers,
  isRecord,
  lineColumn,
  parseDate,
  validateSession,
} from "./shared.js";
import { echoValue } from "../model/echo-value.js";

/**
 * ramem's own format; documented for users in src/formats/README.md. Two
 * spellings: one JSON document `{ namespace?, sessions: [...] }`, or JSONL
 * where each line is a whole session or a single turn.
 */

const DEFAULT_NAMESPACE = "default";
const SESSION_SHAPE = '{ "id": "s1", "startTime": "2023-05-08T13:56:00Z", "turns": [{ "speaker": "Caroline", "text": "..." }] }';
const TURN_LINE_SHAPE = '{ "session": "s1", "sessionTime": "2023-05-08T13:56:00Z", "speaker": "Caroline", "text": "..." }';

export function readNativeJson(json: unknown, opts: ReaderOptions = {}): ReadResult {
  const source = opts.source ?? "input";
  if (!isRecord(json)) {
    throw badInput(source, `expected a JSON object with a "sessions" array, got ${describeType(json)}`, `write { "namespace": "my-agent", "sessions": [ ${SESSION_SHAPE} ] }`);
  }
  if (!Array.isArray(json.sessions)) {
    throw badInput(at(source, "sessions"), `expected a "sessions" array, got ${describeType(json.sessions)}`, `write "sessions": [ ${SESSION_SHAPE} ]`);
  }
  const fileNamespace = json.namespace === undefined ? undefined : namespaceField(json.namespace, at(source, "namespace"));
  const namespace = resolveNamespace(opts.namespace, fileNamespace, source);
  const seen = new Map<string, number>();
  const sessions = json.sessions.map((raw, i) => {
    const where = at(source, `sessions[${i}]${isRecord(raw) && typeof raw.id === "string" ? ` (${raw.id})` : ""}`);
    const s = buildSession(raw, namespace, where);
    const prev = seen.get(s.session.id);
    if (prev !== undefined) {
      throw badInput(at(where, "id"), `duplicate session id ${echoValue(s.session.id)} (also sessions[${prev}])`, "give every session its own id");
    }
    seen.set(s.session.id, i);
    return s;
  });
  return { conversations: [{ namespace, sessions }], report: { dropped: [] } };
}

/**
 * JSONL: each line is a whole session (has "turns") or one turn (has
 * "session"). Turn lines are grouped by session id, sessions kept in order of
 * first appearance, so a chat log can be appended to line by line.
 */
export function readNativeJsonl(text: string, opts: ReaderOptions = {}): ReadResult {
  const source = opts.source ?? "input";
  interface Pending {
    kind: "whole" | "turns";
    firstLine: number;
    namespace: string;
    id: string;
    built?: SessionWithTurns;
    startTime?: { iso: string; line: number };
    endTime?: { iso: string; line: number };
    participants?: string[];
    turns: Array<{ turn: Turn; line: number }>;
  }
  const byKey = new Map<string, Pending>();
  const order: Pending[] = [];
  const lines = text.split("\n");
  lines.forEach((rawLine, i) => {
    const lineNo = i + 1;
    const line = rawLine.trim();
    if (line === "") return;
    const where = `${source}:${lineNo}`;
    let obj: unknown;
    try {
      obj = JSON.parse(line);
    } catch (err) {
      const msg = err instanceof Error ? err.message : String(err);
      const pos = /position (\d+)/.exec(msg);
      const col = pos?.[1] !== undefined ? `:${lineColumn(line, Number(pos[1])).column}` : "";
      throw badInput(`${where}${col}`, `malformed JSON on line ${lineNo}: ${msg}`, "each line must be one complete JSON object; a value may not span several lines", err);
    }
    if (!isRecord(obj)) {
      throw badInput(where, `expected a JSON object, got ${describeType(obj)}`, `each line is a session ${SESSION_SHAPE} or a turn ${TURN_LINE_SHAPE}`);
    }
    const lineNamespace = obj.namespace === undefined ? undefined : namespaceField(obj.namespace, at(where, "namespace"));
    const namespace = resolveNamespace(opts.namespace, lineNamespace, where);
    if (Array.isArray(obj.turns)) {
      const built = buildSession(obj, namespace, where);
      const key = `${namespace}\u0000${built.session.id}`;
      const prev = byKey.get(key);
      if (prev) {
        throw badInput(at(where, "id"), `session ${echoValue(built.session.id)} already appeared on line ${prev.firstLine}`, "give every session its own id; to add turns one per line, use turn lines only for that session");
      }
      const p: Pending = { kind: "whole", firstLine: lineNo, namespace, id: built.session.id, built, turns: [] };
      byKey.set(key, p);
      order.push(p);
      return;
    }
    if (obj.session === undefined) {
      throw badInput(where, 'line is neither a session (no "turns" array) nor a turn (no "session" field)', `write a session ${SESSION_SHAPE} or a turn ${TURN_LINE_SHAPE}`);
    }
    if (typeof obj.session !== "string" || obj.session.trim() === "") {
      throw badInput(at(where, "session"), `"session" must be the session id as a non-empty string, got ${describeType(obj.session)}`, `write a turn as ${TURN_LINE_SHAPE}`);
    }
    const key = `${namespace}\u0000${obj.session}`;
    let p = byKey.get(key);
    if (p?.kind === "whole") {
      throw badInput(at(where, "session"), `session ${echoValue(obj.session)} was given whole on line ${p.firstLine}; it cannot also get turn lines`, "put this turn into that session's \"turns\" array, or write the whole session as turn lines");
    }
    if (!p) {
      p = { kind: "turns", firstLine: lineNo, namespace, id: obj.session, turns: [] };
      byKey.set(key, p);
      order.push(p);
    }
    for (const [field, slot] of [["sessionTime", "startTime"], ["sessionEndTime", "endTime"]] as const) {
      if (obj[field] === undefined) continue;
      const iso = parseDate(obj[field], at(where, field));
      const prev = p[slot];
      if (prev && prev.iso !== iso) {
        throw badInput(at(where, field), `${field} ${iso} disagrees with ${prev.iso} given for session ${echoValue(p.id)} on line ${prev.line}`, `give every turn line of a session the same ${field}, or give it only on the first line`);
      }
      p[slot] ??= { iso, line: lineNo };
    }
    if (obj.participants !== undefined && p.participants === undefined) p.participants = participantsField(obj.participants, at(where, "participants"));
    const turn = buildTurn(
      { id: obj.id, speaker: obj.speaker, role: obj.role, text: obj.text, time: obj.time, attachments: obj.attachments },
      `${p.id}:${p.turns.length + 1}`,
      where,
    );
    p.turns.push({ turn, line: lineNo });
  });

  const groups = new Map<string, ConversationInput>();
  for (const p of order) {
    let built: SessionWithTurns;
    if (p.built) built = p.built;
    else {
      const where = `${source}:${p.firstLine}`;
      if (!p.startTime) {
        throw badInput(at(where, "sessionTime"), `session ${echoValue(p.id)} has no sessionTime on any of its turn lines`, 'add "sessionTime": "2023-05-08T13:56:00Z" to the first turn line of the session');
      }
      const turns = p.turns.map((t) => t.turn);
      checkUniqueTurnIds(turns, (i) => `${source}:${p.turns[i]!.line}`);
      built = validateSession(
        {
          session: {
            id: p.id,
            namespace: p.namespace,
            startTime: p.startTime.iso,
            endTime: p.endTime?.iso ?? p.startTime.iso,
            participants: p.participants ?? distinctSpeakers(turns),
          },
          turns,
        },
        at(where, `session ${p.id}`),
      );
    }
    let g = groups.get(p.namespace);
    if (!g) {
      g = { namespace: p.namespace, sessions: [] };
      groups.set(p.namespace, g);
    }
    g.sessions.push(built);
  }
  if (groups.size === 0) {
    throw badInput(source, "the file holds no sessions", `write one JSON object per line: a session ${SESSION_SHAPE} or a turn ${TURN_LINE_SHAPE}`);
  }
  return { conversations: [...groups.values()], report: { dropped: [] } };
}

function buildSession(raw: unknown, namespace: string, where: string): SessionWithTurns {
  if (!isRecord(raw)) throw badInput(where, `expected a session object, got ${describeType(raw)}`, `write a session as ${SESSION_SHAPE}`);
  if (typeof raw.id !== "string" || raw.id.trim() === "") {
    throw badInput(at(where, "id"), `session id must be a non-empty string, got ${describeType(raw.id)}`, 'give the session an id such as "id": "2023-05-08-chat"');
  }
  const id = raw.id;
  if (raw.startTime === undefined) {
    throw badInput(at(where, "startTime"), "session has no startTime", 'add "startTime": "2023-05-08T13:56:00Z" (when the conversation happened: memory anchors every turn to it)');
  }
  const startTime = parseDate(raw.startTime, at(where, "startTime"));
  const endTime = raw.endTime === undefined || raw.endTime === null ? startTime : parseDate(raw.endTime, at(where, "endTime"));
  if (Date.parse(endTime) < Date.parse(startTime)) {
    throw badInput(at(where, "endTime"), `endTime ${endTime} is before startTime ${startTime}`, "swap the two, or omit endTime");
  }
  if (!Array.isArray(raw.turns)) {
    throw badInput(at(where, "turns"), `expected a "turns" array, got ${describeType(raw.turns)}`, 'write "turns": [{ "speaker": "Caroline", "text": "..." }]');
  }
  if (raw.turns.length === 0) throw badInput(at(where, "turns"), "session has no turns", "remove the session or add its turns");
  const turnWhere = (i: number): string => at(where, `turn ${i + 1}`);
  const turns = raw.turns.map((t, i) => {
    if (!isRecord(t)) throw badInput(turnWhere(i), `expected a turn object, got ${describeType(t)}`, 'write a turn as { "speaker": "Caroline", "text": "..." }');
    return buildTurn({ id: t.id, speaker: t.speaker, role: t.role, text: t.text, time: t.time, attachments: t.attachments }, `${id}:${i + 1}`, turnWhere(i));
  });
  checkUniqueTurnIds(turns, turnWhere);
  const participants = raw.participants === undefined ? distinctSpeakers(turns) : participantsField(raw.participants, at(where, "participants"));
  return validateSession({ session: { id, namespace, startTime, endTime, participants }, turns }, where);
}

function participantsField(raw: unknown, where: string): string[] {
  if (!Array.isArray(raw) || raw.some((p) => typeof p !== "string" || p.trim() === "")) {
    throw badInput(where, `participants must be an array of non-empty names, got ${describeType(raw)}`, 'write "participants": ["Caroline", "Melanie"], or omit it to use the speakers');
  }
  return raw.map((p: string) => p.trim());
}

function namespaceField(raw: unknown, where: string): string {
  if (typeof raw !== "string") throw badInput(where, `namespace must be a string, got ${describeType(raw)}`, 'write "namespace": "my-agent", or omit it');
  return raw;
}

/** Precedence: the caller's choice, then the file's, then "default". */
function resolveNamespace(fromCaller: string | undefined, fromFile: string | undefined, where: string): string {
  if (fromCaller !== undefined) return checkNamespace(fromCaller, "namespace option");
  if (fromFile !== undefined) return checkNamespace(fromFile, at(where, "namespace"));
  return DEFAULT_NAMESPACE;
}
