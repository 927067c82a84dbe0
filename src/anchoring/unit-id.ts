import { createHash } from "node:crypto";

/**
 * Unit ids are derived, not random: the same turns anchored by the same
 * anchorer in the same namespace always get the same id, which is what makes
 * re-ingest idempotent and lets a benchmark cache survive restarts.
 */
export function unitId(namespace: string, sessionId: string, turnIds: readonly string[], anchorerId: string): string {
  const h = createHash("sha256").update([namespace, sessionId, turnIds.join(","), anchorerId].join("\u0000")).digest("hex");
  return `u_${h.slice(0, 20)}`;
}
