import type { StoredSession } from "./contract.js";
import type { Metadata } from "../model/metadata.js";

/** The sessions columns both dialects share; only how `participants` is stored differs (JSON text, text[]). */
export interface SessionRow<Participants> {
  namespace: string;
  id: string;
  start_time: string;
  end_time: string;
  participants: Participants;
  content_hash: string;
  unit_count: number;
  /** JSON text (SQLite) or an object (PostgreSQL jsonb); null for none. */
  metadata?: string | Record<string, unknown> | null;
}

export function storedSessionFromRow<P>(r: SessionRow<P>, participants: (stored: P) => string[]): StoredSession {
  return {
    id: r.id,
    namespace: r.namespace,
    startTime: r.start_time,
    endTime: r.end_time,
    participants: participants(r.participants),
    contentHash: r.content_hash,
    unitCount: r.unit_count,
    ...(r.metadata ? { metadata: (typeof r.metadata === "string" ? JSON.parse(r.metadata) : r.metadata) as Metadata } : {}),
  };
}
