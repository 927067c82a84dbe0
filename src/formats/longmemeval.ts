import { MAX_TURN_CHARS, type SessionWithTurns, type Turn } from "../model/conversation.js";
import type { BenchmarkQuestion, ConversationInput, EvidenceParseReport, ReaderOptions, ReadResult } from "./types.js";
import { at, badInput, buildTurn, checkNamespace, describeType, isRecord, parseDate, validateSession } from "./shared.js";
import { echoValue } from "../model/echo-value.js";

/**
 * LongMemEval (Wu et al., 2025): an array of questions, each with its own
 * haystack of user/assistant sessions. Haystacks overlap between questions but
 * must not leak into each other, so every question gets its own namespace.
 */

export const LONGMEMEVAL_NAMESPACE_PREFIX = "lme";

const LME_DATE = /^(\d{4})\/(\d{2})\/(\d{2}) \((Sun|Mon|Tue|Wed|Thu|Fri|Sat)\) (\d{2}):(\d{2})$/;

/**
 * Reads "2023/05/20 (Sat) 02:21" exactly (as UTC wall-clock). chrono reads
 * the date but drops the time after the weekday, so it is only the fallback.
 */
export function parseLongMemEvalDate(value: unknown, where: string): string {
  if (typeof value === "string") {
    const m = LME_DATE.exec(value.trim());
    if (m) {
      // The weekday is redundant with the date, so a wrong one is not an error.
      const [, y, mo, d, , h, mi] = m;
      const date = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi)));
      const valid =
        date.getUTCFullYear() === Number(y) && date.getUTCMonth() === Number(mo) - 1 && date.getUTCDate() === Number(d) && Number(h) < 24 && Number(mi) < 60;
      if (!valid) throw badInput(where, `${echoValue(value)} is not a real date/time`, 'LongMemEval dates look like "2023/05/20 (Sat) 02:21"');
      return date.toISOString();
    }
  }
  return parseDate(value, where);
}

export function readLongMemEval(json: unknown, opts: ReaderOptions = {}): ReadResult {
  const source = opts.source ?? "input";
  if (!Array.isArray(json)) {
    throw badInput(source, `expected a JSON array of LongMemEval questions, got ${describeType(json)}`, 'a LongMemEval file is [{ "question_id", "question", "answer", "haystack_sessions", ... }, ...]');
  }
  const prefix = opts.namespace === undefined ? LONGMEMEVAL_NAMESPACE_PREFIX : checkNamespace(opts.namespace, "namespace option");
  const report: EvidenceParseReport = { dropped: [], warnings: [] };
  const seen = new Map<string, number>();
  const conversations = json.map((item, i) => {
    const c = readItem(item, i, source, prefix, report);
    const prev = seen.get(c.namespace);
    if (prev !== undefined) throw badInput(at(source, `[${i}]`, "question_id"), `duplicate question_id (also [${prev}])`, "give every question its own question_id");
    seen.set(c.namespace, i);
    return c;
  });
  return { conversations, report };
}

function stringArray(v: unknown, where: string, what: string): string[] {
  if (!Array.isArray(v) || v.some((x) => typeof x !== "string")) throw badInput(where, `expected an array of ${what} strings, got ${describeType(v)}`, `give ${what} as an array of strings`);
  return v as string[];
}

function readItem(item: unknown, index: number, source: string, prefix: string, report: EvidenceParseReport): ConversationInput {
  const w0 = at(source, `[${index}]`);
  if (!isRecord(item)) throw badInput(w0, `expected a question object, got ${describeType(item)}`, "each entry is one LongMemEval question with its haystack");
  if (typeof item.question_id !== "string" || item.question_id === "") {
    throw badInput(at(w0, "question_id"), `question_id must be a non-empty string, got ${describeType(item.question_id)}`, "give the question an id");
  }
  const qid = item.question_id;
  const where = at(source, qid);
  const namespace = checkNamespace(`${prefix}:${qid}`, at(where, "question_id"));
  if (typeof item.question !== "string" || item.question.trim() === "") {
    throw badInput(at(where, "question"), `question must be a non-empty string, got ${describeType(item.question)}`, "give the question text");
  }
  if (typeof item.question_type !== "string" || item.question_type === "") {
    throw badInput(at(where, "question_type"), `question_type must be a string, got ${describeType(item.question_type)}`, 'e.g. "temporal-reasoning"');
  }
  let answer: string;
  if (typeof item.answer === "string") answer = item.answer;
  else if (typeof item.answer === "number") answer = String(item.answer);
  else throw badInput(at(where, "answer"), `answer must be a string or number, got ${describeType(item.answer)}`, "give the answer text");
  const questionDate = parseLongMemEvalDate(item.question_date, at(where, "question_date"));
  const ids = stringArray(item.haystack_session_ids, at(where, "haystack_session_ids"), "session id");
  const dates = stringArray(item.haystack_dates, at(where, "haystack_dates"), "date");
  const answerSessionIds = item.answer_session_ids === undefined ? [] : stringArray(item.answer_session_ids, at(where, "answer_session_ids"), "session id");
  const hay = item.haystack_sessions;
  if (!Array.isArray(hay)) throw badInput(at(where, "haystack_sessions"), `expected an array of sessions, got ${describeType(hay)}`, "haystack_sessions is an array of arrays of {role, content}");
  if (ids.length !== hay.length || dates.length !== hay.length) {
    throw badInput(
      where,
      `haystack_session_ids (${ids.length}), haystack_dates (${dates.length}) and haystack_sessions (${hay.length}) differ in length`,
      "the three arrays are parallel: one id and one date per session",
    );
  }

  const evidence: string[] = [];
  const uses = new Map<string, number>();
  const sessions: SessionWithTurns[] = hay.map((rawTurns, s) => {
    // LongMemEval-S repeats a filler session id inside a few haystacks
    // (https://github.com/xiaowu0162/LongMemEval/issues/54); a suffix keeps
    // both copies addressable.
    const baseId = ids[s]!;
    const n = (uses.get(baseId) ?? 0) + 1;
    uses.set(baseId, n);
    const sessionId = n === 1 ? baseId : `${baseId}#${n}`;
    if (n > 1) report.warnings?.push(`${qid}: haystack session id ${baseId} repeats; occurrence ${n} renamed ${sessionId}`);
    const sw = at(where, `session ${sessionId}`);
    const startTime = parseLongMemEvalDate(dates[s], at(where, `haystack_dates[${s}]`));
    if (!Array.isArray(rawTurns)) throw badInput(sw, `expected an array of turns, got ${describeType(rawTurns)}`, "a session is an array of { role, content }");
    const turns: Turn[] = [];
    rawTurns.forEach((t, i) => {
      const tw = at(sw, `turn ${i + 1}`);
      if (!isRecord(t)) throw badInput(tw, `expected a turn object, got ${describeType(t)}`, 'a turn is { "role": "user", "content": "..." }');
      if (t.role !== "user" && t.role !== "assistant") {
        throw badInput(at(tw, "role"), `unknown speaker format: role ${describeType(t.role)}`, 'role is "user" or "assistant"');
      }
      // Ids are positional so they stay stable against the original file even
      // when an empty turn is skipped.
      const id = `${sessionId}:${i + 1}`;
      if (typeof t.content === "string" && t.content.trim() === "") {
        report.warnings?.push(`${qid}: empty ${t.role} turn ${id} skipped`);
        return;
      }
      // A handful of LongMemEval turns are pasted documents longer than a turn
      // may be; the benchmark keeps their start (where the chat is) rather than
      // refusing the whole file, and says so.
      let text = t.content;
      if (typeof text === "string" && text.length > MAX_TURN_CHARS) {
        report.warnings?.push(`${qid}: ${t.role} turn ${id} is ${text.length.toLocaleString("en")} characters; kept the first ${MAX_TURN_CHARS.toLocaleString("en")}`);
        // Not between the two halves of a surrogate pair: half a character is not text (model/stored-text.ts).
        const end = /[\uD800-\uDBFF]/.test(text[MAX_TURN_CHARS - 1] ?? "") ? MAX_TURN_CHARS - 1 : MAX_TURN_CHARS;
        text = text.slice(0, end);
      }
      turns.push(buildTurn({ id, speaker: t.role, role: t.role, text }, id, tw, '"user" or "assistant"'));
      if (t.has_answer === true) evidence.push(id);
    });
    if (turns.length === 0) throw badInput(sw, "session has no non-empty turns", "remove the session, its id and its date");
    const participants = [...new Set(turns.map((t) => t.speaker))];
    return validateSession({ session: { id: sessionId, namespace, startTime, endTime: startTime, participants }, turns }, sw);
  });

  const question: BenchmarkQuestion = {
    id: qid,
    namespace,
    question: item.question,
    answer,
    category: item.question_type,
    evidence,
    questionDate,
    answerSessionIds,
  };
  return { namespace, sessions, questions: [question] };
}
