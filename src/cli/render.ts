import { verbatimText } from "../synthesis/verbatim-text.js";
import type { RecallHit } from "../model/recall.js";
import { isReliable, type RecallFrame } from "../model/recall-frame.js";
import { describeInterval } from "../model/time.js";
import type { AskResult } from "../synthesis/ask.js";
import type { EvidenceJudgment } from "../retrieval/judge-evidence.js";
import { escapeStoredText as esc } from "../language/escape-stored-text.js";
import { derivedHitFields } from "../model/hit-fields.js";
import { rulesApplied } from "../retrieval/rules-applied.js";

/**
 * Human output for one recalled unit: content, then its episodic coordinates.
 * Stored strings are escaped as in the evidence pack: this output is pasted
 * into prompts too, and a stored line break must not forge a line of its own.
 */
export function renderHit(hit: RecallHit): string {
  const { unit } = hit;
  const c = unit.context;
  const coords = [
    `session ${esc(c.session.sessionId)} · ${c.session.start.slice(0, 16).replace("T", " ")}`,
    c.eventTime ? `event ${describeInterval(c.eventTime)} (${c.eventTime.granularity})` : null,
    c.participants.length ? `with ${c.participants.map(esc).join(", ")}` : null,
    c.location ? `at ${esc(c.location)}` : null,
    c.topic ? `topic: ${esc(c.topic)}` : null,
  ].filter(Boolean);
  return [
    `#${hit.rank}  [${unit.provenance.turnIds.map(esc).join(", ")}] ${esc(verbatimText(unit))}`,
    `     ${coords.join(" | ")}`,
    `     ${hit.reasons.map(esc).join("; ")} · score ${hit.score.toFixed(2)} (content ${hit.contentScore.toFixed(4)})`,
  ].join("\n");
}

/**
 * One hit as `--json` prints it: the unit flattened (`id`, `content`,
 * `context` with its states and saidAt, …) and, beside them, what recall
 * derived on it (validity, planOutcome, mayBeOutdated: model/hit-fields.ts,
 * the serializer every face shares), each when the library's hit has it.
 * Raw, for programs, as REST's hits.
 */
export function hitToJson(hit: RecallHit) {
  return {
    rank: hit.rank,
    score: hit.score,
    contentScore: hit.contentScore,
    id: hit.unit.id,
    content: hit.unit.content,
    verbatim: verbatimText(hit.unit),
    source: hit.unit.source ?? null,
    context: hit.unit.context,
    provenance: hit.unit.provenance,
    ...(hit.unit.metadata ? { metadata: hit.unit.metadata } : {}),
    ...(hit.unit.createdAt ? { createdAt: hit.unit.createdAt } : {}),
    ...derivedHitFields(hit.unit),
    channels: hit.channels,
    reasons: hit.reasons,
  };
}

/**
 * One block saying what the query was read as: a head line saying what was
 * applied, then the need's conditions with their grounding. The head names
 * the active frame's reliable conditions, and the state rules and cues that
 * moved a returned hit (read from the hits' reasons: retrieval/rules-applied.ts):
 * they run on the frame's currentState / stateSlot even when no condition is
 * grounded, so "inactive (content ranking only)" is said only when nothing did.
 */
export function renderFrame(frame: RecallFrame, hits: readonly Pick<RecallHit, "reasons">[] = []): string {
  const lines = [frameHead(frame, hits)];
  if (frame.time) lines.push(`  time: ${frame.time.relation} ${describeInterval(frame.time.window)} ← "${frame.time.evidence}" (${frame.time.note}; confidence ${frame.time.confidence.toFixed(2)})`);
  for (const [label, c] of [["participants", frame.participants], ["location", frame.location], ["entities", frame.entities]] as const) {
    if (c) lines.push(`  ${label}: ${c.names.join(", ")} ← "${c.evidence}" (confidence ${c.confidence.toFixed(2)})`);
  }
  if (frame.role) lines.push(`  role: the ${frame.role.role}'s turns ← "${frame.role.evidence}" (${frame.role.note}; confidence ${frame.role.confidence.toFixed(2)})`);
  if (frame.asksFor === "time") lines.push("  asks for: a time (units that carry one rank a little higher)");
  if (frame.asksFor === "place") lines.push("  asks for: a place (units that name one rank a little higher)");
  if (frame.asksFor === "quantity") lines.push("  asks for: a quantity (units that state a number rank a little higher)");
  if (frame.aggregates) lines.push(`  aggregates: "${frame.aggregates.evidence}" gathers evidence from several episodes${frame.aggregates.counts ? `; counts "${frame.aggregates.counts}", whose kinds are searched too` : ""}`);
  if (frame.currentState) lines.push(`  current state: "${frame.currentState.evidence}" (superseded statements rank last)`);
  if (frame.stateSlot) lines.push(`  state asked: ${frame.stateSlot.slots.join(" / ")} ← "${frame.stateSlot.evidence}"`);
  if (frame.occurrence) lines.push(`  occurrence: ${frame.occurrence.episodeId ?? "none picked"} ← "${frame.occurrence.evidence}" (${frame.occurrence.note}; confidence ${frame.occurrence.confidence.toFixed(2)})`);
  for (const n of frame.notes) lines.push(`  note: ${n}`);
  return lines.join("\n");
}

/** "evidence: likely held (confidence 0.81): …" — the recall's abstain judgment, whose why quotes a stored memory. */
export function renderJudgment(judgment: EvidenceJudgment): string {
  return `evidence: ${judgment.likely ? "likely held" : "likely NOT held"} (confidence ${judgment.confidence.toFixed(2)}): ${esc(judgment.why)}`;
}

/** "frame: active (time …; people …)" or "frame: inactive; state rules applied: current value first (slot residence)", then the need. */
export function frameHead(frame: RecallFrame, hits: readonly Pick<RecallHit, "reasons">[]): string {
  const { state, cues } = rulesApplied(hits);
  const applied = [
    ...(state.length ? [`state rules applied: ${state.map(esc).join(", ")}`] : []),
    ...(cues.length ? [`cues applied: ${cues.join(", ")}`] : []),
  ];
  const conditions = activeConditions(frame);
  const head = frame.active
    ? `frame: active${conditions.length ? ` (${conditions.join("; ")})` : ""}`
    : applied.length
      ? "frame: inactive"
      : "frame: inactive (content ranking only)";
  return `${[head, ...applied].join("; ")} · need: "${frame.need}"`;
}

/** The conditions an active frame ranks by (the reliable ones), each in a few words. */
function activeConditions(frame: RecallFrame): string[] {
  const out: string[] = [];
  if (isReliable(frame.time)) out.push(`time ${frame.time.relation} ${describeInterval(frame.time.window)}`);
  if (isReliable(frame.participants)) out.push(`people ${frame.participants.names.map(esc).join(", ")}`);
  if (isReliable(frame.location)) out.push(`place ${frame.location.names.map(esc).join(", ")}`);
  if (isReliable(frame.entities)) out.push(`entities ${frame.entities.names.map(esc).join(", ")}`);
  if (isReliable(frame.role ?? null)) out.push(`the ${frame.role!.role}'s turns`);
  if (isReliable(frame.occurrence ?? null)) out.push(`occurrence ${frame.occurrence!.episodeId === null ? "none picked" : esc(frame.occurrence!.episodeId)}`);
  return out;
}

/**
 * What `ramem ask` prints on stdout: without an LLM the evidence pack alone
 * (so it can be piped into another model's prompt), else the answer and the
 * memories the model cited.
 */
export function renderAnswer(result: Pick<AskResult, "llmConfigured" | "answer" | "cited" | "hits" | "evidence" | "abstained" | "holdsEvidence">): string {
  // The why quotes the closest stored memory: escaped like every stored string the CLI prints.
  if (result.abstained) return `${result.answer}\n${esc(result.holdsEvidence.why)}\n`;
  if (!result.llmConfigured) return `${result.evidence.text}\n`;
  const byRank = new Map(result.hits.map((h) => [h.rank, h]));
  const cited = result.cited.map((c) => byRank.get(c.rank)).filter((h) => h !== undefined);
  const lines = [esc(result.answer ?? ""), ""];
  if (cited.length) lines.push("cited memories:", ...cited.map(renderHit));
  else if (result.hits.length) lines.push("(the model cited no memories)");
  return `${lines.join("\n").trimEnd()}\n`;
}
