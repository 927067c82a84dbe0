import { availableParallelism } from "node:os";
import type { Anchorer } from "./anchorer.js";
import { RULE_ANCHORER_ID, type RuleAnchorerOptions } from "./rule-anchorer.js";
import { createThreadPool } from "../util/thread-pool.js";
import type { SessionWithTurns } from "../model/conversation.js";
import type { AnchorResult } from "./anchorer.js";

export interface RuleAnchorerPoolOptions extends RuleAnchorerOptions {
  /** Threads, each with its own rule anchorer; default: the machine's available cores. */
  threads?: number;
}

export interface RuleAnchorerPool extends Anchorer {
  readonly concurrency: number;
  /** Lets the running sessions finish, then stops the threads; queued sessions and anchorSession() after close() are refused. */
  close(): Promise<void>;
}

/**
 * The rule anchorer on every core. It is CPU-bound (compromise's tagger is
 * most of it) and anchors one session at a time on one thread, so ingest with
 * a cheap embedder runs at one core's speed; the pool anchors a session per
 * worker thread, and ingestSessions keeps `concurrency` sessions in it at
 * once. Same id as the in-process anchorer: the threads run the same code on
 * the same session, so the units are the same (rule-anchorer-pool.test.ts),
 * and a store anchored through the pool is re-ingested as unchanged by
 * either. Threads start on the first session and do not keep the process
 * alive while idle.
 */
export function createRuleAnchorerPool(options: RuleAnchorerPoolOptions = {}): RuleAnchorerPool {
  const { threads: size, ...anchorerOptions } = options;
  const threads = createThreadPool<SessionWithTurns, AnchorResult>({
    size: size ?? availableParallelism(),
    worker: new URL("./rule-anchorer-pool-worker", import.meta.url),
    workerData: anchorerOptions,
    name: "the rule-anchorer pool",
    code: "ANCHORER_POOL",
    hint: "run with one thread (--threads 1) to anchor in this process",
    closedHint: "open a new pool (or a new Memory) to anchor again",
  });
  return {
    specificationVersion: "v1",
    id: RULE_ANCHORER_ID,
    concurrency: threads.size,
    anchorSession: (input) => threads.run(input),
    close: () => threads.close(),
  };
}
