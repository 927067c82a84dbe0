import type { RecallStageTimes } from "./retrieval/recall-pipeline.js";

/**
 * What a Memory tells its observers (an operator's metrics, a log) after a
 * call succeeds. Told after the fact and never awaited: an observer cannot
 * slow a call down or change its answer, and one that throws is ignored.
 */
export interface MemoryEvents {
  /** A recall finished (also each recall `ask` makes). */
  recalled?(event: { namespace: string; stageMs: RecallStageTimes }): void;
  /** Turns were written: by add, appendTurns, ingest or an import. `namespace` is absent for an ingest over several. */
  ingested?(event: { namespace?: string; sessions: number; turns: number; units: number }): void;
}

/** The observers of one Memory. */
export class MemoryEventHub {
  readonly #observers = new Set<MemoryEvents>();

  add(observer: MemoryEvents): () => void {
    this.#observers.add(observer);
    return () => void this.#observers.delete(observer);
  }

  get listening(): boolean {
    return this.#observers.size > 0;
  }

  emit<E extends keyof MemoryEvents>(name: E, event: Parameters<NonNullable<MemoryEvents[E]>>[0]): void {
    for (const observer of this.#observers) {
      try {
        (observer[name] as ((e: typeof event) => void) | undefined)?.call(observer, event);
      } catch {
        // An observer's failure is its own: the call it watched succeeded.
      }
    }
  }
}
