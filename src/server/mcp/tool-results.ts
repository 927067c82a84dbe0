import { verbatimText } from "../../synthesis/verbatim-text.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Role } from "../../store/api-key-contract.js";
import type { RecallHit } from "../../model/recall.js";
import type { RecallFrame } from "../../model/recall-frame.js";
import { describeInterval } from "../../model/time.js";
import { RamemError } from "../../model/errors.js";
import { escapeStoredText as esc } from "../../language/escape-stored-text.js";
import { derivedHitFields, statedHitFields } from "../../model/hit-fields.js";
import { rulesApplied } from "../../retrieval/rules-applied.js";
import type { RecalledMemory } from "./tool-schemas.js";
import type { AskResult } from "../../synthesis/ask.js";

/**
 * What the tools hand back. Errors are tool results with `isError: true`
 * (not protocol errors), so the calling model reads the message and can fix
 * its call; each says what went wrong and what to do.
 */

const VERB: Record<Role, string> = { read: "read", write: "write to", admin: "administer (delete whole namespaces in)" };

/** Says only what the caller may not do: nothing about whether the namespace or its data exist. */
export function forbidden(namespace: string, needs: Role): CallToolResult {
  return errorText(
    `FORBIDDEN: this caller may not ${VERB[needs]} namespace ${JSON.stringify(namespace)}.`,
    `use a key bound to that namespace with the ${needs} role (or higher)`,
  );
}

export function toolError(err: unknown): CallToolResult {
  if (err instanceof RamemError) return errorText(`${err.code}: ${err.where ? `${err.where}: ` : ""}${err.message}`, err.hint);
  // A bug, not a user error: say so without dumping internals into the model's context.
  const message = err instanceof Error ? err.message : String(err);
  return errorText(`INTERNAL: the memory server failed: ${message}`, "retry once; if it fails again, report it to whoever runs the server");
}

export function errorText(message: string, hint?: string): CallToolResult {
  return { content: [{ type: "text", text: hint ? `${message}\nhint: ${hint}` : message }], isError: true };
}

/**
 * One recalled memory as `structuredContent` carries it. MCP is a face a
 * model reads, and clients hand structured content to their model as they
 * hand it the text, so every free-text field is escaped like the evidence
 * pack (content, verbatim, session.id, participants, location, reasons,
 * the states' subject/slot/value/evidence, validity.states, ended[].state and the
 * evidence of its link and relatedLater, mayBeOutdated.because).
 * `unitId`, `provenance` and the unit ids recall derived (validity.supersededBy,
 * relatedLater[].unitId, ended[].supersededBy, planOutcome.toldAsDoneBy, mayBeOutdated.supersededBy)
 * stay exact: they are the ids a caller passes back (forget, update,
 * remember's sessionId), and escaping could change them (README › Which
 * fields are safe for a model). The derived fields and the context's states
 * and saidAt come from model/hit-fields.ts, the serializer every face shares.
 */
export function recalledMemory(hit: RecallHit): RecalledMemory {
  const { unit } = hit;
  const c = unit.context;
  return {
    rank: hit.rank,
    unitId: unit.id,
    content: esc(unit.content),
    verbatim: esc(verbatimText(unit)),
    role: c.role ?? null,
    session: { id: esc(c.session.sessionId), start: c.session.start, end: c.session.end },
    eventTime: c.eventTime ? { start: c.eventTime.start, end: c.eventTime.end, granularity: c.eventTime.granularity } : null,
    participants: c.participants.map(esc),
    location: c.location === null ? null : esc(c.location),
    provenance: { sessionId: unit.provenance.sessionId, turnIds: [...unit.provenance.turnIds] },
    score: hit.score,
    reasons: hit.reasons.map(esc),
    ...statedHitFields(c, esc),
    ...derivedHitFields(unit, esc),
  };
}

/** The recall frame in `structuredContent`: its words come from the query, stored names and the LLM, so every string is escaped. */
export function frameSummary(frame: RecallFrame) {
  const orNull = (s: string | null | undefined) => (s === null || s === undefined ? null : esc(s));
  return {
    active: frame.active,
    need: esc(frame.need),
    time: frame.time
      ? {
          relation: frame.time.relation,
          window: { start: frame.time.window.start, end: frame.time.window.end, granularity: frame.time.window.granularity },
          evidence: esc(frame.time.evidence),
          confidence: frame.time.confidence,
        }
      : null,
    participants: frame.participants ? frame.participants.names.map(esc) : null,
    location: frame.location ? frame.location.names.map(esc) : null,
    role: frame.role?.role ?? null,
    asksFor: frame.asksFor,
    aggregates: orNull(frame.aggregates?.evidence),
    counts: frame.aggregates?.counts ? esc(frame.aggregates.counts) : null,
    currentState: orNull(frame.currentState?.evidence),
    stateSlot: frame.stateSlot ? frame.stateSlot.slots.map(esc) : null,
    occurrence: frame.occurrence
      ? {
          event: esc(frame.occurrence.event),
          ordinal: frame.occurrence.ordinal,
          ...(frame.occurrence.position ? { position: frame.occurrence.position } : {}),
          ...(frame.occurrence.anchor ? { anchor: esc(frame.occurrence.anchor) } : {}),
          episode: orNull(frame.occurrence.episodeId),
          occurrences: frame.occurrence.occurrences.length,
          confidence: frame.occurrence.confidence,
        }
      : null,
    notes: frame.notes.map(esc),
  };
}

/**
 * One line on how the query was read, so the agent can rephrase when the
 * frame is wrong. Names and notes come from the store (the people it knows),
 * so they are escaped like the evidence pack.
 */
export function describeFrame(frame: RecallFrame, hits: readonly Pick<RecallHit, "reasons">[] = []): string {
  const parts: string[] = [];
  if (frame.time) parts.push(`time ${frame.time.relation} ${describeInterval(frame.time.window)} (from "${esc(frame.time.evidence)}")`);
  if (frame.participants) parts.push(`people ${frame.participants.names.map(esc).join(", ")}`);
  if (frame.location) parts.push(`place ${frame.location.names.map(esc).join(", ")}`);
  if (frame.role) parts.push(`the ${frame.role.role}'s turns`);
  // The state rules and the frame's cues apply without an active frame too: said when they moved a memory.
  const { state, cues } = rulesApplied(hits);
  const applied = [...(state.length ? [`state rules applied: ${state.map(esc).join(", ")}`] : []), ...(cues.length ? [`cues applied: ${cues.join(", ")}`] : [])];
  const head = frame.active
    ? `Recall frame: ${parts.join("; ")} — memories from that context are ranked first${applied.length ? `; ${applied.join("; ")}` : ""}.`
    : applied.length
      ? `Recall frame: none grounded — ranked by content; ${applied.join("; ")}.`
      : "Recall frame: none grounded — ranked by content only.";
  return frame.notes.length ? `${head}\nNotes: ${frame.notes.map(esc).join(" | ")}` : head;
}

/** Per memory: the id to forget it by, where it comes from, and why it was recalled (stored strings escaped). */
export function describeReasons(memories: readonly RecalledMemory[]): string {
  if (memories.length === 0) return "";
  const lines = memories.map((m) => {
    const event = m.eventTime ? ` · event ${describeInterval({ ...m.eventTime, granularity: m.eventTime.granularity as never })}` : "";
    return `[${m.rank}] unit ${esc(m.unitId)} · session ${esc(m.session.id)} (${m.session.start.slice(0, 10)}) · turns ${m.provenance.turnIds.map(esc).join(",")}${event} · ${m.reasons.map(esc).join("; ")}`;
  });
  return ["Why each memory is here:", ...lines].join("\n");
}

/** `ask`'s text: the answer (model output that read stored text, so escaped too), what it cited, the pack. */
export function describeAnswer(result: Pick<AskResult, "answer" | "cited" | "evidence">): string {
  const cited = result.cited.length
    ? `Cited: ${result.cited.map((c) => `[${c.rank}] unit ${esc(c.unitId)} (turns ${c.turnIds.map(esc).join(",")})`).join("; ")}`
    : "Cited: none";
  return `Answer: ${esc(result.answer ?? "")}\n${cited}\n\nEvidence the answer was drawn from:\n${result.evidence.text}`;
}
