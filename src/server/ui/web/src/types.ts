// The REST API's shapes the inspector reads (the OpenAPI document at /openapi.json is the full truth).

export interface WhoAmI {
  role: "read" | "write" | "admin";
  namespaces: "all" | string[];
  keyName: string | null;
  open: boolean;
}

export interface Turn {
  id?: string;
  speaker: string;
  text: string;
  time?: string;
  role?: string;
}

export interface TimeInterval {
  start: string;
  end: string;
  granularity: string;
}

export interface Validity {
  states: string[];
  validFrom: string;
  validTo: string | null;
  supersededBy: string | null;
  origin: "rule" | "user";
}

export interface MemoryUnit {
  id: string;
  namespace: string;
  content: string;
  context: {
    eventTime: TimeInterval | null;
    session: { sessionId: string; start: string; end: string };
    participants: string[];
    role?: string | null;
    location: string | null;
    entities: string[];
    topic: string | null;
  };
  provenance: { sessionId: string; turnIds: string[] };
  source?: Turn[];
  supersession?: { supersededBy: string | null; at: string };
  validity?: Validity;
  metadata?: Record<string, unknown>;
  createdAt?: string;
  updatedAt?: string;
}

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

export interface RecallHit {
  unit: MemoryUnit;
  rank: number;
  score: number;
  contentScore: number;
  channels: { lexical?: { rank: number; score: number }; dense?: { rank: number; score: number } };
  reasons: string[];
}

export interface ExplainedCondition {
  name: string;
  value: string;
  evidence: string;
  confidence: number;
  note: string;
  active: boolean;
  why: string;
}

export interface Explained {
  query: string;
  questionDate: string | null;
  frame: { need: string; active: boolean } | null;
  conditions: ExplainedCondition[];
  cues: string[];
  contextValidIds: string[];
  hits: RecallHit[];
  contentOnly: RecallHit[];
  evidence: { text: string; tokens: number; unitIds: string[]; dropped: number };
  tookMs: number;
}

export interface HistoryEvent {
  event: string;
  at: string;
  actor: string;
  text?: string | null;
  previousText?: string | null;
}
