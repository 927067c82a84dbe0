import type { RecallHit } from "../model/recall.js";
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
    `     ${hit.reasons.join("; ")} · score ${hit.score.toFixed(4)}`,
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
