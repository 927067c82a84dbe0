import type { SessionWithTurns, Turn } from "../model/conversation.js";
import type { BenchmarkQuestion, ConversationInput, EvidenceParseReport, ReaderOptions, ReadResult } from "./types.js";
import { at, badInput, buildTurn, checkNamespace, checkUniqueTurnIds, describeType, distinctSpeakers, isRecord, parseDate, truncate, validateSession } from "./shared.js";
import { echoValue } from "../model/echo-value.js";

/**
 * LoCoMo (Maharana et al., 2024): an array of samples, each one two-person
 * conversation with numbered sessions and QA. Turn ids stay the dataset's
 * `dia_id` ("D3:12") because QA evidence points at them.
 */

const SESSION_KEY = /^session_(\d+)$/;
const ADVERSARIAL = 5;

export function readLocomo(json: unknown, opts: ReaderOptions = {}): ReadResult {
  const source = opts.source ?? "input";
  if (!Array.isArray(json)) {
    throw badInput(source, `expected a JSON array of LoCoMo samples, got ${describeType(json)}`, 'a LoCoMo file is [{ "sample_id": ..., "conversation": {...}, "qa": [...] }, ...]');
  }
  const report: EvidenceParseReport = { dropped: [], repaired: [], warnings: [] };
  const shared = opts.namespace === undefined ? undefined : checkNamespace(opts.namespace, "namespace option");
  const perSample: ConversationInput[] = [];
  const seenSamples = new Map<string, number>();
  json.forEach((sample, i) => {
    const c = readSample(sample, i, source, shared, report);
    const prev = seenSamples.get(c.sampleId);
    if (prev !== undefined) {
      throw badInput(at(source, `[${i}]`, "sample_id"), `duplicate sample_id ${echoValue(c.sampleId)} (also [${prev}])`, "give every sample its own sample_id");
    }
    seenSamples.set(c.sampleId, i);
    perSample.push(c.conversation);
  });
  const conversations =
    shared === undefined
      ? perSample
      : [{ namespace: shared, sessions: perSample.flatMap((c) => c.sessions), questions: perSample.flatMap((c) => c.questions ?? []) }];
  return { conversations, report };
}

function readSample(
  sample: unknown,
  index: number,
  source: string,
  sharedNamespace: string | undefined,
  report: EvidenceParseReport,
): { sampleId: string; conversation: ConversationInput } {
  const w0 = at(source, `[${index}]`);
  if (!isRecord(sample)) throw badInput(w0, `expected a sample object, got ${describeType(sample)}`, 'each sample is { "sample_id", "conversation", "qa" }');
  if (typeof sample.sample_id !== "string" || sample.sample_id === "") {
    throw badInput(at(w0, "sample_id"), `sample_id must be a non-empty string, got ${describeType(sample.sample_id)}`, 'give the sample an id such as "conv-26"');
  }
  const sampleId = sample.sample_id;
  const where = at(source, sampleId);
  const namespace = sharedNamespace ?? checkNamespace(sampleId, at(where, "sample_id"));
  const conv = sample.conversation;
  if (!isRecord(conv)) throw badInput(at(where, "conversation"), `expected an object, got ${describeType(conv)}`, 'conversation is { "speaker_a", "speaker_b", "session_1": [...], "session_1_date_time": "..." }');

  const declared = [conv.speaker_a, conv.speaker_b].filter((s): s is string => typeof s === "string" && s.trim() !== "");
  const sessionNumbers = Object.keys(conv)
    .map((k) => SESSION_KEY.exec(k)?.[1])
    .filter((n): n is string => n !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
  if (sessionNumbers.length === 0) throw badInput(at(where, "conversation"), "conversation has no session_N arrays", 'add "session_1": [turns] and "session_1_date_time"');

  const orphanDates = Object.keys(conv).filter((k) => /^session_\d+_date_time$/.test(k) && conv[k.slice(0, -"_date_time".length)] === undefined);
  if (orphanDates.length > 0) {
    // The released LoCoMo file dates 16 sessions of conv-26 that it does not contain.
    report.warnings?.push(`${sampleId}: ${orphanDates.length} session dates without a session ignored (${orphanDates[0]}${orphanDates.length > 1 ? ` … ${orphanDates.at(-1)}` : ""})`);
  }

  const turnIds = new Set<string>();
  const turnsPerSession = new Map<number, number>();
  const sessions: SessionWithTurns[] = sessionNumbers.map((n) => {
    const key = `session_${n}`;
    const sw = at(where, key);
    const rawTurns = conv[key];
    if (!Array.isArray(rawTurns)) throw badInput(sw, `expected an array of turns, got ${describeType(rawTurns)}`, "each session_N is an array of turns");
    if (rawTurns.length === 0) throw badInput(sw, "session has no turns", `remove ${key} and ${key}_date_time, or add its turns`);
    if (conv[`${key}_date_time`] === undefined) {
      throw badInput(at(where, `${key}_date_time`), `${key} has no date`, `add "${key}_date_time": "1:56 pm on 8 May, 2023"`);
    }
    const startTime = parseDate(conv[`${key}_date_time`], at(where, `${key}_date_time`));
    const turns = rawTurns.map((t, i) => readTurn(t, sw, i));
    checkUniqueTurnIds(turns, (i) => at(sw, `turn ${i + 1}`));
    for (const t of turns) {
      if (turnIds.has(t.id)) throw badInput(at(sw, t.id), `dia_id ${t.id} also appears in another session`, "dia_ids must be unique within a sample (D<session>:<turn>)");
      turnIds.add(t.id);
    }
    turnsPerSession.set(n, turns.length);
    const id = sharedNamespace === undefined ? key : `${sampleId}/${key}`;
    const participants = declared.length > 0 ? [...new Set([...declared, ...distinctSpeakers(turns)])] : distinctSpeakers(turns);
    return validateSession({ session: { id, namespace, startTime, endTime: startTime, participants }, turns }, sw);
  });

  if (!Array.isArray(sample.qa)) throw badInput(at(where, "qa"), `expected an array of questions, got ${describeType(sample.qa)}`, 'qa is [{ "question", "answer", "evidence": ["D1:3"], "category" }]');
  const questions = sample.qa.map((q, i) => readQuestion(q, `${sampleId}:q${i + 1}`, namespace, at(where, `qa ${i + 1}`), turnIds, turnsPerSession, sampleId, report));
  return { sampleId, conversation: { namespace, sessions, questions } };
}

function readTurn(t: unknown, sessionWhere: string, index: number): Turn {
  const where = at(sessionWhere, `turn ${index + 1}`);
  if (!isRecord(t)) throw badInput(where, `expected a turn object, got ${describeType(t)}`, 'a LoCoMo turn is { "speaker", "dia_id": "D1:3", "text" } (optionally "time" and "role")');
  if (typeof t.dia_id !== "string" || !/^D\d+:\d+$/.test(t.dia_id)) {
    throw badInput(at(where, "dia_id"), `dia_id must look like "D3:12", got ${describeType(t.dia_id)}`, "turn ids are D<session number>:<turn number>");
  }
  // blip_caption is the only text LoCoMo has for a shared photo; img_url is a
  // list in the released file, a string in some derived copies.
  let attachments: unknown;
  if (typeof t.blip_caption === "string" && t.blip_caption.trim() !== "") {
    const url = Array.isArray(t.img_url) ? t.img_url.find((u): u is string => typeof u === "string") : typeof t.img_url === "string" ? t.img_url : undefined;
    attachments = [url === undefined ? { kind: "image", caption: t.blip_caption } : { kind: "image", caption: t.blip_caption, url }];
  }
  // LoCoMo has neither; ramem's own sets (datasets/ramem-states) give a turn its own time and a chat role.
  return buildTurn({ id: t.dia_id, speaker: t.speaker, text: t.text, attachments, time: t.time, role: t.role }, t.dia_id, at(sessionWhere, `turn ${index + 1} (${t.dia_id})`), 'the speaker\'s name as a string, e.g. "speaker": "Caroline"');
}

function readQuestion(
  q: unknown,
  id: string,
  namespace: string,
  where: string,
  turnIds: Set<string>,
  turnsPerSession: Map<number, number>,
  sampleId: string,
  report: EvidenceParseReport,
): BenchmarkQuestion {
  if (!isRecord(q)) throw badInput(where, `expected a question object, got ${describeType(q)}`, 'a question is { "question", "answer", "evidence", "category" }');
  if (typeof q.question !== "string" || q.question.trim() === "") {
    throw badInput(at(where, "question"), `question must be a non-empty string, got ${describeType(q.question)}`, "give the question text");
  }
  const category = q.category;
  if (typeof category !== "number" || !Number.isInteger(category) || category < 1 || category > 5) {
    throw badInput(at(where, "category"), `category must be an integer 1..5, got ${describeType(category)}`, "LoCoMo categories: 1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop, 5 adversarial");
  }
  const answer = answerField(q.answer, at(where, "answer"));
  const adversarial = answerField(q.adversarial_answer, at(where, "adversarial_answer"));
  if (category !== ADVERSARIAL && answer === null) {
    throw badInput(at(where, "answer"), `category ${category} question has no answer`, 'add "answer"; only category 5 (adversarial) questions go without one');
  }
  const evidence = parseEvidence(q.evidence, id, at(where, "evidence"), turnIds, turnsPerSession, sampleId, report);
  const out: BenchmarkQuestion = { id, namespace, question: q.question, answer, category, evidence };
  if (category === ADVERSARIAL) out.adversarialAnswer = adversarial;
  // ramem's state/sequence set (datasets/ramem-states) adds what kind of validity a question tests and which statements are stale for it.
  if (q.kind === "current" || q.kind === "past" || q.kind === "ordinal") {
    const stale = Array.isArray(q.stale_evidence) ? q.stale_evidence.filter((x): x is string => typeof x === "string" && turnIds.has(x)) : [];
    out.validity = { kind: q.kind, staleEvidence: stale, ...(typeof q.slot === "string" ? { slot: q.slot } : {}) };
  }
  return out;
}

function answerField(v: unknown, where: string): string | null {
  if (v === undefined || v === null) return null;
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  throw badInput(where, `answer must be a string or number, got ${describeType(v)}`, "give the answer as text");
}

const ID_TOKEN = /^D:?(\d+):(\d+)$/;

/**
 * LoCoMo evidence is hand-written and messy ("D8:6; D9:17", "D:11:26",
 * "D30:05", space-separated lists, ids of turns that do not exist). Scoring
 * needs the good ids, so malformed-but-unambiguous ones are repaired, the rest
 * dropped, and every repair or drop is reported rather than hidden.
 */
export function parseEvidence(
  raw: unknown,
  questionId: string,
  where: string,
  turnIds: Set<string>,
  turnsPerSession: Map<number, number>,
  sampleId: string,
  report: EvidenceParseReport,
): string[] {
  if (raw === undefined || raw === null) return [];
  const items = typeof raw === "string" ? [raw] : raw;
  if (!Array.isArray(items)) throw badInput(where, `evidence must be an array of turn ids, got ${describeType(raw)}`, 'write "evidence": ["D1:3", "D2:7"]');
  const out: string[] = [];
  for (const item of items) {
    if (typeof item !== "string") {
      report.dropped.push({ questionId, raw: JSON.stringify(item), reason: `not a string (${describeType(item)})` });
      continue;
    }
    const tokens = item.split(/[;,\s]+/).filter((t) => t !== "");
    const ids: string[] = [];
    for (const token of tokens) {
      const m = ID_TOKEN.exec(token);
      if (!m) {
        report.dropped.push({ questionId, raw: item, reason: `${JSON.stringify(truncate(token, 30))} is not a dialogue id (D<session>:<turn>)` });
        continue;
      }
      const session = Number(m[1]);
      const id = `D${session}:${Number(m[2])}`;
      if (!turnIds.has(id)) {
        const n = turnsPerSession.get(session);
        report.dropped.push({
          questionId,
          raw: item,
          reason: n === undefined ? `no session ${session} in ${sampleId}` : `no turn ${id} in ${sampleId} (session ${session} has ${n} turns)`,
        });
        continue;
      }
      ids.push(id);
    }
    if (ids.length > 0 && (ids.length !== 1 || ids[0] !== item)) report.repaired?.push({ questionId, raw: item, ids });
    for (const id of ids) if (!out.includes(id)) out.push(id);
  }
  return out;
}
