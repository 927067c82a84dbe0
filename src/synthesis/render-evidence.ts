import type { MemoryUnit } from "../model/memory-unit.js";
import { describeInterval } from "../model/time.js";
import { countTokens } from "../language/count-tokens.js";
import { defuseJoinedDelimiters, escapeStoredText as esc } from "../language/escape-stored-text.js";
import { verbatimText } from "./verbatim-text.js";
import type { EvidenceJudgment } from "../retrieval/judge-evidence.js";
import { checkArgs, checkFields } from "../model/check-args.js";
import { RamemError } from "../model/errors.js";

export const EVIDENCE_OPEN = "<memories>";
export const EVIDENCE_CLOSE = "</memories>";

export interface RenderEvidenceOptions {
  /** Context-preserved (default) or the flattened plain list used by the no-context-preserved-generation ablation. */
  mode?: "context" | "plain";
  /** Drop the lowest-ranked units until the pack fits. */
  maxTokens?: number;
  /** The recall's abstain judgment: when it says the store likely holds nothing, the pack opens by saying so. */
  holdsEvidence?: EvidenceJudgment;
}

export interface EvidencePack {
  text: string;
  tokens: number;
  /** Units that made it into the pack, in rank order. */
  included: MemoryUnit[];
  dropped: number;
}

/**
 * Stage 4: gives the generator each unit with its coordinates, so it can
 * check whether a piece of evidence applies before using it.
 *
 * Format (documented in src/synthesis/README.md): units grouped by session in
 * chronological order, one header per session (id, date, participants — or the
 * participants once on top when every session has the same), then
 * one line per unit: `[rank] turn-ids (event: when) content`. Grouping keeps
 * the session date — the stable coordinate — at one header per episode
 * instead of repeating it per unit, which is what keeps the pack small.
 * Everything sits between <memories> delimiters, and every stored string
 * printed here (session id, participants, turn ids, place, content) goes
 * through escapeStoredText, so nothing stored can close the block, start a
 * line of its own or pose as instructions.
 */
export function renderEvidence(units: readonly MemoryUnit[], options: RenderEvidenceOptions = {}): EvidencePack {
  checkUnits(units);
  checkFields("renderEvidence", "options", options, "object?", { mode: "string?", maxTokens: "number?", holdsEvidence: "object?" });
  const renderUnits = options.mode === "plain" ? renderPlain : renderWithContext;
  const check = evidenceCheckLine(options.holdsEvidence);
  const render = check ? (us: readonly MemoryUnit[]) => withCheckLine(renderUnits(us), check) : renderUnits;
  let included = [...units];
  let text = render(included);
  let tokens = countTokens(text);
  while (options.maxTokens !== undefined && tokens > options.maxTokens && included.length > 0) {
    included = included.slice(0, -1);
    text = render(included);
    tokens = countTokens(text);
  }
  return { text, tokens, included, dropped: units.length - included.length };
}

function checkUnits(units: readonly MemoryUnit[]): void {
  checkArgs("renderEvidence", { units: [units, "array"] });
  units.forEach((u: unknown, i) => {
    const unit = (u as { unit?: unknown } | null)?.unit;
    // The likeliest slip: recall's hits passed as they come, each holding its unit.
    if (typeof unit === "object" && unit !== null) {
      throw new RamemError("BAD_ARGUMENT", `units[${i}] is a recall hit, not a memory unit`, { where: `units[${i}]`, hint: "pass the hits' units: renderEvidence(hits.map((h) => h.unit))" });
    }
    checkArgs("renderEvidence", { [`units[${i}]`]: [u, "object"] });
  });
}

/**
 * A generator handed near-misses answers from them ("table tennis" from a
 * memory about tennis). When the recall judged that nothing stored answers
 * the query, the pack's first line says so, with what is missing; `why`
 * quotes a stored memory, so it is escaped like every stored string. A
 * judgment that evidence is likely adds nothing: the memories speak for
 * themselves, and the line would cost tokens on every call.
 */
function evidenceCheckLine(judgment: EvidenceJudgment | undefined): string | null {
  if (!judgment || judgment.likely) return null;
  return `evidence check: the store likely holds nothing that answers this (confidence ${judgment.confidence.toFixed(2)}): ${esc(judgment.why)}`;
}

function withCheckLine(pack: string, line: string): string {
  const [open, ...rest] = pack.split("\n");
  return [open, defuseJoinedDelimiters(line), ...rest].join("\n");
}

/** One day of an instant, as the pack's dates read ("30 January 2023"). */
function onDay(iso: string): string {
  return describeInterval({ start: iso, end: iso, granularity: "day" });
}

function renderWithContext(units: readonly MemoryUnit[]): string {
  const rankOf = new Map(units.map((u, i) => [u.id, i + 1]));
  const bySession = new Map<string, MemoryUnit[]>();
  for (const u of units) {
    const key = u.provenance.sessionId;
    bySession.set(key, [...(bySession.get(key) ?? []), u]);
  }
  const groups = [...bySession.values()].sort((a, b) => a[0]!.context.session.start.localeCompare(b[0]!.context.session.start));
  const whoOf = (group: readonly MemoryUnit[]) => group[0]!.context.participants.map(esc).sort().join(", ");
  // In a long chat between the same people, naming them once beats naming them per session.
  const everyone = new Set(groups.map(whoOf));
  const shared = everyone.size === 1 ? [...everyone][0]! : null;
  const lines = [EVIDENCE_OPEN];
  if (shared) lines.push(`participants in every session: ${shared}`);
  for (const group of groups) {
    const s = group[0]!.context.session;
    const who = shared === null ? whoOf(group) : "";
    lines.push(`## ${esc(s.sessionId)} · ${sessionDate(s.start, s.end)}${who ? ` · ${who}` : ""}`);
    for (const u of group.sort((a, b) => turnOrder(a) - turnOrder(b))) {
      const coords = [u.provenance.turnIds.map(esc).join(",")];
      const said = verbatimText(u);
      const event = u.context.eventTime ? describeInterval(u.context.eventTime) : null;
      // Relative times are resolved inline ("yesterday (7 May 2023)"): say it once.
      if (event && !said.includes(event)) coords.push(`event: ${event}`);
      if (u.context.location) coords.push(`at: ${esc(u.context.location)}`);
      // The place of its episode, when the turn names none: "grilled sardines" on the Lisbon trip.
      else if (u.context.episode?.place) coords.push(`episode at: ${esc(u.context.episode.place)}`);
      // A plan told is not an event that happened: the generator must not report it as one.
      if (u.context.planned) {
        const done = u.planOutcome;
        const by = done ? rankOf.get(done.toldAsDoneBy) : undefined;
        coords.push(done ? `planned; told as done ${onDay(done.on)}${by ? ` [${by}]` : ""}` : "planned");
      }
      // A state that no longer holds says so, and what replaced it (by rank when it is in the pack).
      if (u.validity?.supersededBy) {
        const by = rankOf.get(u.validity.supersededBy);
        coords.push(`earlier value, stated ${onDay(u.validity.validFrom)}; superseded${u.validity.validTo ? ` ${onDay(u.validity.validTo)}` : ""} by ${by ? `[${by}]` : "a later statement"}`);
      } else if (u.validity?.relatedLater?.length) {
        // The rules could not tell whether a later statement replaced this one: the model is told both exist.
        const later = u.validity.relatedLater[u.validity.relatedLater.length - 1]!;
        const by = rankOf.get(later.unitId);
        coords.push(`a related statement followed ${onDay(later.on)}${by ? ` [${by}]` : ""}`);
      }
      // One of its states ended while another holds: that one is history.
      for (const e of u.validity?.ended ?? []) {
        const by = rankOf.get(e.supersededBy);
        coords.push(`${esc(e.state)}: earlier value, superseded ${onDay(e.validTo)} by ${by ? `[${by}]` : "a later statement"}`);
      }
      // A fact that hung on a state since changed ("my commute to the Lisbon office", before the move).
      if (u.mayBeOutdated) {
        const by = rankOf.get(u.mayBeOutdated.supersededBy);
        coords.push(`may be outdated: ${esc(u.mayBeOutdated.because)} changed ${onDay(u.mayBeOutdated.on)}${by ? ` [${by}]` : ""}`);
      }
      lines.push(`[${rankOf.get(u.id)}] (${coords.join("; ")}) ${esc(said)}`);
    }
  }
  // Every line but the delimiters once more as a whole: escaped fields side by side must not read as one together.
  return [EVIDENCE_OPEN, ...lines.slice(1).map(defuseJoinedDelimiters), EVIDENCE_CLOSE].join("\n");
}

function renderPlain(units: readonly MemoryUnit[]): string {
  // The SimpleMem-style list: self-contained restatements, no coordinates, no verbatim turns.
  return [EVIDENCE_OPEN, ...units.map((u, i) => defuseJoinedDelimiters(`[${i + 1}] ${esc(u.content)}`)), EVIDENCE_CLOSE].join("\n");
}

/** The day is what temporal questions need; the clock time costs tokens and rarely matters. */
function sessionDate(start: string, end: string): string {
  const day = (iso: string) => describeInterval({ start: iso, end: new Date(Date.parse(iso) + 86_400_000).toISOString(), granularity: "day" });
  return start.slice(0, 10) === end.slice(0, 10) ? day(start) : `${day(start)} – ${day(end)}`;
}

/** Position in the conversation; turn ids are opaque strings, so the trailing number is the best order there is. */
function turnOrder(u: MemoryUnit): number {
  const m = /(\d+)\D*$/.exec(u.provenance.turnIds[0] ?? "");
  return m ? Number(m[1]) : 0;
}
