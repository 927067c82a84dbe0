// The REST API's shapes the inspector reads (the OpenAPI document at /openapi.json is the full truth).

export interface WhoAmI {
  role: "read" | "write" | "admin";
  namespaces: "all" | string[];
  keyName: string | null;
  open: boolean;
}

// The library's own types, imported for their types only (erased from the bundle): the page reads exactly what the schemas say.
export type { MemoryUnit } from "../../../../model/memory-unit.js";
export type { RecallHit } from "../../../../model/recall.js";
export type { TimeInterval } from "../../../../model/time.js";
export type { Validity } from "../../../../anchoring/derive-validity.js";
export type { UnitHistoryEvent as HistoryEvent } from "../../../../model/unit-history.js";
export type { ExplainedCondition } from "../../../operations/explain-frame.js";
import type { RecallHit } from "../../../../model/recall.js";
import type { ExplainedCondition } from "../../../operations/explain-frame.js";

export interface StoredSession {
  id: string;
  startTime: string;
  endTime: string;
  participants: string[];
  unitCount: number;
}

export interface Stats {
  namespace: string;
  sessions: number;
  units: number;
  embedder: string | null;
  range: { start: string; end: string } | null;
}

export interface Explained {
  query: string;
  questionDate: string | null;
  validAt: string | null;
  frame: { need: string; active: boolean } | null;
  conditions: ExplainedCondition[];
  cues: string[];
  contextValidIds: string[];
  holdsEvidence: { likely: boolean; confidence: number; why: string };
  scoreScales: string;
  hits: RecallHit[];
  contentOnly: RecallHit[];
  evidence: { text: string; tokens: number; unitIds: string[]; dropped: number };
  tookMs: number;
}

