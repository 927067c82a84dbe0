/**
 * The time condition a query states with a date ("in 2022", "last August",
 * "before May 2023"). Event anchors ("after the adoption meeting") live in
 * event-anchor.ts; this module only handles what chrono can ground.
 */
import { groundTimeExpressions, type GroundedTime } from "../language/time-grounding.js";
import { ACTIVATION_CONFIDENCE, type TimeCondition, type TimeRelation } from "../model/recall-frame.js";
import { describeInterval, type TimeInterval } from "../model/time.js";
import { historyRange, overlaps, rangeOf, unitName, unitsSpanned, yearlyOccurrences, type Range } from "./calendar.js";

export interface DateConditionInput {
  history: { start: string; end: string } | null;
  questionDate?: string;
}

export interface DateCondition {
  condition: TimeCondition | null;
  /** Query span [start, end) of the expression plus its relation word, to cut from the need. */
  span: [number, number] | null;
  /** Spans of every time expression seen: words inside them ("May") are not names. */
  timeSpans: [number, number][];
  notes: string[];
}

// Relation words and modifiers chrono leaves outside its match ("before May 2023", "last August": chrono keeps only "August").
// "from" is left out: before a date it is mostly a verb's ("move from 4 years ago"); a real "from X to Y" range is inside chrono's match.
const LEAD_IN =
  /(?:\b(before|prior to|until|till|up to|after|since|following|around|about|approximately|circa|roughly|in|on|at|during|over|throughout|by)\s+)?(?:\bthe\s+)?(?:\b(?:early|late|mid)\s+)?(?:\b(?:last|this|next|past|previous|coming)\s+)?$/i;
const MONTH_OR_SEASON =
  /\b(jan(uary)?|feb(ruary)?|mar(ch)?|apr(il)?|may|june?|july?|aug(ust)?|sep(t(ember)?)?|oct(ober)?|nov(ember)?|dec(ember)?|spring|summer|autumn|fall|winter)\b/i;
const RANGE_WORDS = /\b(to|through|until|till|and)\b|[-–]/i;
const BETWEEN_AND = /\bbetween\s+$/i;

const BARE_WEEKDAY = /^(?:on\s+)?(?:mon|tues|wednes|thurs|fri|satur|sun)days?$/i;

/** A past-tense verb or auxiliary: the question asks about something that already happened. */
const PAST_TENSE = /\b(did|was|were|had|went|saw|made|took|said|told|ate|\w{2,}ed)\b/i;

function startOfDay(iso: string): number {
  const d = new Date(iso);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
}

function relationOf(word: string | undefined, text: string): TimeRelation {
  const lead = /^(since|from|around|circa|about)\b/i.exec(text)?.[1]?.toLowerCase();
  // A stated range ("from May to July 2023") is a window, whatever word leads it.
  if (RANGE_WORDS.test(text)) return "during";
  switch ((word ?? lead)?.toLowerCase()) {
    case "before":
    case "prior to":
    case "until":
    case "till":
    case "up to":
      return "before";
    case "after":
    case "since":
    case "following":
    case "from":
      return "after";
    case "around":
    case "about":
    case "approximately":
    case "circa":
    case "roughly":
      return "around";
    default:
      return "during";
  }
}

/** Does any moment of the history satisfy the relation to this window? */
function satisfiable(relation: TimeRelation, window: Range, history: Range): boolean {
  switch (relation) {
    case "before":
      return history.start < window.start;
    case "after":
      return history.end > window.end;
    default:
      return overlaps(window, history);
  }
}

/** A yearly-recurring slot: a month, season or day named without its year. */
function isYearlySlot(g: GroundedTime): boolean {
  return g.kind === "relative" && MONTH_OR_SEASON.test(g.text) && !/\bago\b/i.test(g.text);
}

interface Candidate {
  g: GroundedTime;
  window: TimeInterval;
  relation: TimeRelation;
  confidence: number;
  note: string;
  span: [number, number];
  outsideHistory?: true;
}

function round(x: number): number {
  return Math.round(x * 100) / 100;
}

/**
 * Decides how sure a relative expression is when only the history range can
 * anchor it. The question date is the only reference that makes "last year"
 * crisp; without it, the history end stands in, and that is only safe when the
 * history leaves a single candidate.
 */
function groundWithoutQuestionDate(g: GroundedTime, history: Range | null, evidence: string): { window: TimeInterval; confidence: number; note: string } | null {
  if (g.kind === "absolute") return { window: g.interval, confidence: 1, note: "absolute date" };
  if (!history) return null;
  if (isYearlySlot(g)) {
    const occ = yearlyOccurrences(g.interval, history);
    const label = g.text.replace(/^(in|on|during|the)\s+/gi, "");
    if (occ.length === 1 && occ[0]) {
      return { window: occ[0], confidence: 0.85, note: `'${evidence}' names no year; the history holds one (${describeInterval(occ[0])}), no question date` };
    }
    if (occ.length === 0) {
      return { window: g.interval, confidence: 0.4, note: `'${evidence}' names no year and the history holds no ${label}; took the latest before the history end` };
    }
    return {
      window: occ[occ.length - 1] ?? g.interval,
      confidence: 0.5,
      note: `'${evidence}' is ambiguous: the history holds ${occ.length} of them (${occ.map(describeInterval).join(", ")}) and there is no question date`,
    };
  }
  // Deictic ("last year", "two weeks ago", "yesterday"): counted back from an unknown "now".
  const units = unitsSpanned(history, g.interval.granularity);
  if (units > 1) {
    return {
      window: g.interval,
      confidence: round(Math.min(g.confidence, 0.4)),
      note: `'${evidence}' is ambiguous: no question date, and the history spans ${units} ${unitName(g.interval.granularity, units)}; grounded against the history end only as a guess`,
    };
  }
  return {
    window: g.interval,
    confidence: round(Math.min(g.confidence, 0.75)),
    note: `'${evidence}' grounded against the history end (no question date); the history spans one ${unitName(g.interval.granularity, 1)}`,
  };
}

export function induceDateCondition(query: string, input: DateConditionInput): DateCondition {
  const notes: string[] = [];
  const history = input.history ? historyRange(input.history) : null;
  const reference = input.questionDate ?? input.history?.end ?? new Date().toISOString();
  const grounded = groundTimeExpressions(query, reference, { pastBias: true });
  const timeSpans: [number, number][] = grounded.map((g) => [g.index, g.index + g.text.length]);

  const candidates: Candidate[] = [];
  for (let i = 0; i < grounded.length; i++) {
    const g = grounded[i];
    if (!g) continue;
    // "two weeks before the wedding": chrono counts from the reference, but the anchor is the event.
    if (/\b(before|after)$/i.test(g.text)) continue;
    const prefix = query.slice(0, g.index);
    const lead = LEAD_IN.exec(prefix);
    const spanStart = g.index - (lead?.[0].length ?? 0);
    let span: [number, number] = [spanStart, g.index + g.text.length];
    let window = g.interval;
    let relation = relationOf(lead?.[1], g.text);
    let confidenceCap = 1;
    let rangeNote = "";

    // "between May and July 2023": two expressions that make one window.
    const next = grounded[i + 1];
    const gap = next ? query.slice(g.index + g.text.length, next.index) : "";
    if (next && BETWEEN_AND.test(query.slice(0, spanStart)) && /^\s+and\s+$/i.test(gap)) {
      const start = Math.min(Date.parse(g.interval.start), Date.parse(next.interval.start));
      const end = Math.max(Date.parse(g.interval.end), Date.parse(next.interval.end));
      window = { start: new Date(start).toISOString(), end: new Date(end).toISOString(), granularity: g.interval.granularity };
      span = [query.slice(0, spanStart).search(BETWEEN_AND), next.index + next.text.length];
      relation = "during";
      i++;
    } else if (/\bbetween\s+\S+\s+and\s+(the\s+)?$/i.test(prefix)) {
      // chrono dropped the first half of the range ("between May and July"): only one end is known.
      confidenceCap = 0.5;
      rangeNote = "; the other end of the 'between' range was not grounded";
      relation = "during";
    }

    const evidence = query.slice(span[0], span[1]).trim();
    // "a movie to watch tonight", "plans for next week": a time at the moment of
    // asking or later says when the need is, not when the evidence was said.
    if (input.questionDate && Date.parse(window.start) >= startOfDay(input.questionDate) && !PAST_TENSE.test(query)) {
      notes.push(`'${evidence}' is the time of asking or later and the question is not about the past: it describes the need, not a recall window`);
      continue;
    }
    let window2: TimeInterval;
    let confidence: number;
    let note: string;
    if (input.questionDate) {
      window2 = window;
      confidence = g.kind === "absolute" ? 1 : g.confidence;
      note = g.kind === "absolute" ? "absolute date" : `'${evidence}' grounded against the question date ${input.questionDate.slice(0, 10)}`;
      // "on Monday" without last/this: which Monday is a guess; "last Monday" is not.
      if (BARE_WEEKDAY.test(evidence)) {
        confidence = Math.min(confidence, 0.6);
        note += "; a weekday named without 'last' or 'this' may be any such day";
      }
    } else {
      const r = groundWithoutQuestionDate({ ...g, interval: window }, history, evidence);
      if (!r) {
        notes.push(`'${evidence}' needs a reference date; there is neither a question date nor a history`);
        continue;
      }
      window2 = r.window;
      confidence = r.confidence;
      note = r.note;
    }
    confidence = Math.min(confidence, confidenceCap);
    note += rangeNote;
    let outsideHistory = false;
    if (history && !satisfiable(relation, rangeOf(window2), history)) {
      outsideHistory = confidence >= ACTIVATION_CONFIDENCE;
      confidence = Math.min(confidence, 0.5);
      note += `; no part of the history is ${relation} ${describeInterval(window2)}`;
    }
    candidates.push({ g, window: window2, relation, confidence: round(confidence), note, span, ...(outsideHistory ? { outsideHistory: true as const } : {}) });
  }

  if (candidates.length === 0) return { condition: null, span: null, timeSpans, notes };
  // One window per frame: the surest wins, the earliest on ties; the rest are reported.
  let best = candidates[0] as Candidate;
  for (const c of candidates) if (c.confidence > best.confidence) best = c;
  for (const c of candidates) {
    if (c !== best) notes.push(`time cue '${query.slice(c.span[0], c.span[1]).trim()}' dropped: the frame holds one window (kept '${best.g.text}')`);
  }
  if (best.confidence < ACTIVATION_CONFIDENCE) notes.push(`time condition below activation (${best.confidence}): ${best.note}`);
  const condition: TimeCondition = {
    relation: best.relation,
    window: best.window,
    evidence: query.slice(best.span[0], best.span[1]).trim(),
    confidence: best.confidence,
    note: best.note,
    ...(best.outsideHistory ? { outsideHistory: true as const } : {}),
  };
  return { condition, span: best.span, timeSpans, notes };
}
