import type { MemoryUnit } from "../model/memory-unit.js";
import type { SessionWithTurns } from "../model/conversation.js";

/**
 * Anchorer contract, version 1: stage 1 of RaMem. Turns one session into memory
 * units, each content plus episodic context plus provenance.
 */
export interface Anchorer {
  readonly specificationVersion: "v1";
  /** Name and version; part of unit ids and of the re-ingest hash. */
  readonly id: string;
  anchorSession(input: SessionWithTurns): Promise<AnchorResult>;
}

export interface AnchorResult {
  units: MemoryUnit[];
  /** Things the user may want to know (fallbacks taken, expressions not grounded). */
  warnings: string[];
  llm?: { calls: number; promptTokens: number; completionTokens: number };
}
