/**
 * What the reliability workers write and the checker reads: one JSON line per
 * operation a worker ran, acknowledged or refused, with the wall-clock
 * interval it ran in. All workers run on one machine, so their clocks are one
 * clock: an operation that ended before another began happened before it.
 */

/** The writes, and one read: a recall of a state question, which derives (and caches, per process) the namespace's validity between the writes. */
export const OP_KINDS = ["append", "update", "forgetUnit", "forgetSession", "supersede", "recall"] as const;
export type OpKind = (typeof OP_KINDS)[number];

export interface OpRecord {
  worker: number;
  /** The worker's own count, from 1: with `worker` it names the operation. */
  seq: number;
  op: OpKind;
  namespace: string;
  sessionId: string;
  /**
   * append: the units of this call's turns, in turn order (derived from the
   * turn ids as the rule anchorer derives them, one unit per turn);
   * update / forgetUnit: the one unit; supersede: [superseded, successor];
   * forgetSession: none; recall: the hits.
   */
  unitIds: string[];
  /** append: the turn ids the call was given, in order. */
  turnIds?: string[];
  /** append: each turn's text, in order; update: the new text. */
  texts?: string[];
  /** Epoch milliseconds (fractional) when the call was made and when it returned. */
  start: number;
  end: number;
  /** True when the call returned (acknowledged); false when it threw. */
  ok: boolean;
  /** forgetUnit: whether a unit was deleted (false: it was not there); forgetSession: units deleted. */
  result?: boolean | number;
  /** The error code (RamemError) or message of a refused call. */
  error?: string;
}

/** What a unit's validity says, as compared between processes (Validity of anchoring/derive-validity.ts, minus nothing that can differ by reader). */
export interface ValidityView {
  states: string[];
  validFrom: string;
  validTo: string | null;
  supersededBy: string | null;
  origin: "rule" | "user";
}

/** One process's view of the namespaces' validity after every worker stopped writing: namespace → unit id → validity. */
export type ValiditySnapshot = Record<string, Record<string, ValidityView>>;

/** A unit as the fresh process finds it at the end. */
export interface FoundUnit {
  id: string;
  namespace: string;
  sessionId: string;
  turnIds: string[];
  /** Its verbatim turn's text (what update corrects), else its content. */
  text: string;
}

export interface FinalState {
  units: FoundUnit[];
  validity: ValiditySnapshot;
}
