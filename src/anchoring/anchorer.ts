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
  /**
   * Optional: how many sessions may be in anchorSession at once (a pool of
   * threads, or a remote model that takes parallel requests); ingestSessions
   * anchors that many ahead, and still writes them in input order. Default 1.
   */
  readonly concurrency?: number;
  /** Optional: releases what the anchorer holds (threads); a Memory that created it calls it on close(). */
  close?(): Promise<void>;
}

export interface AnchorResult {
  units: MemoryUnit[];
  /** Things the user may want to know (fallbacks taken, expressions not grounded). */
  warnings: string[];
  llm?: { calls: number; promptTokens: number; completionTokens: number };
}
