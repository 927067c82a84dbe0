import type { SessionWithTurns } from "../model/conversation.js";

/**
 * The shapes every reader returns and takes: here, not in
 * conversation-file.ts, so that the readers and the file entry point both
 * import them and neither imports the other.
 */
export interface ConversationInput {
  namespace: string;
  sessions: SessionWithTurns[];
  /** benchmark questions, if the format has them */
  questions?: BenchmarkQuestion[];
}

export interface BenchmarkQuestion {
  id: string;
  namespace: string;
  question: string;
  answer: string | null;
  adversarialAnswer?: string | null;
  category: number | string;
  /** turn ids */
  evidence: string[];
  questionDate?: string;
  answerSessionIds?: string[];
  /**
   * For questions about states and sequences: whether the current state, a
   * past state or an occurrence in a sequence is asked for, and the turns that
   * state the same slot but are not valid for this question (superseded
   * states, the other occurrences).
   */
  validity?: { kind: "current" | "past" | "ordinal"; staleEvidence: string[]; slot?: string };
}

export interface EvidenceParseReport {
  dropped: Array<{ questionId: string; raw: string; reason: string }>;
  /** Evidence ids that were malformed but unambiguous, and what they were read as. */
  repaired?: Array<{ questionId: string; raw: string; ids: string[] }>;
  /** Data quirks a reader worked around without losing anything the benchmark scores. */
  warnings?: string[];
}

export type FormatName = "native" | "messages" | "locomo" | "longmemeval" | "export";

export interface ReadOptions {
  format?: FormatName | "auto";
  /** Overrides the namespace the file gives (or implies). */
  namespace?: string;
}

/** Options every format reader takes; `source` names the input in error locations. */
export interface ReaderOptions {
  namespace?: string;
  /** File name (or any label) used as the first part of every error's `where`. */
  source?: string;
}

export interface ReadResult {
  conversations: ConversationInput[];
  report: EvidenceParseReport;
}
