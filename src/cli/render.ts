import type { RecallHit } from "../model/recall.js";
import type { RecallFrame } from "../model/recall-frame.js";
import { describeInterval } from "../model/time.js";

/** Human output for one recalled unit: content, then its episodic coordinates. */
export function renderHit(hit: RecallHit): string {
  const { unit } = hit;
  const c = unit.context;
  const coords = [
    `session ${c.session.sessionId} · ${c.session.start.slice(0, 16).replace("T", " ")}`,
    c.eventTime ? `event ${describeInterval(c.eventTime)} (${c.eventTime.granularity})` : null,
    c.participants.length ? `with ${c.participants.join(", ")}` : null,
    c.location ? `at ${c.location}` : null,
    c.topic ? `topic: ${c.topic}` : null,
  ].filter(Boolean);
  return [
    `#${hit.rank}  [${unit.provenance.turnIds.join(", ")}] ${unit.content}`,
    `     ${coords.join(" | ")}`,
    `     ${hit.reasons.join("; ")} · content score ${hit.score.toFixed(4)}`,
  ].join("\n");
}

export function hitToJson(hit: RecallHit) {
  return {
    rank: hit.rank,
    score: hit.score,
    id: hit.unit.id,
    content: hit.unit.content,
    context: hit.unit.context,
    provenance: hit.unit.provenance,
    channels: hit.channels,
    reasons: hit.reasons,
  };
}

/** One block saying what the query was read as: the need, each condition with its grounding, and whether the frame is used. */
export function renderFrame(frame: RecallFrame): string {
  const lines = [`frame: ${frame.active ? "active" : "inactive (content ranking only)"} · need: "${frame.need}"`];
  if (frame.time) lines.push(`  time: ${frame.time.relation} ${describeInterval(frame.time.window)} ← "${frame.time.evidence}" (${frame.time.note}; confidence ${frame.time.confidence.toFixed(2)})`);
  for (const [label, c] of [["participants", frame.participants], ["location", frame.location], ["entities", frame.entities]] as const) {
    if (c) lines.push(`  ${label}: ${c.names.join(", ")} ← "${c.evidence}" (confidence ${c.confidence.toFixed(2)})`);
  }
  if (frame.role) lines.push(`  role: the ${frame.role.role}'s turns ← "${frame.role.evidence}" (${frame.role.note}; confidence ${frame.role.confidence.toFixed(2)})`);
  if (frame.asksFor === "time") lines.push("  asks for: a time (units that carry one rank a little higher)");
  if (frame.aggregates) lines.push(`  aggregates: "${frame.aggregates.evidence}" gathers evidence from several episodes`);
  for (const n of frame.notes) lines.push(`  note: ${n}`);
  return lines.join("\n");
}
