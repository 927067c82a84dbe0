import type { Session } from "../../model/conversation.js";
import type { MemoryUnit } from "../../model/memory-unit.js";
import type { UnitRecord } from "../contract.js";
import { seededRandom } from "../../util/seeded-random.js";

/** Small on purpose: contract tests check behaviour, not model quality. */
export const TEST_DIMS = 8;
export const TEST_EMBEDDER = "test-embedder@1";

/** FNV-1a: a stable seed from any string, so fixtures are identical across runs and dialects. */
function hash32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}


export function normalize(v: Float32Array): Float32Array {
  let n = 0;
  for (const x of v) n += x * x;
  n = Math.sqrt(n) || 1;
  return v.map((x) => x / n);
}

/** A deterministic unit-length vector for `key`. */
export function seededVector(key: string, dims = TEST_DIMS): Float32Array {
  const rnd = seededRandom(hash32(key));
  const v = new Float32Array(dims);
  for (let i = 0; i < dims; i++) v[i] = rnd() * 2 - 1;
  return normalize(v);
}

/** Unit vector along axis `i`. */
export function axisVector(i: number, dims = TEST_DIMS): Float32Array {
  const v = new Float32Array(dims);
  v[i % dims] = 1;
  return v;
}

// The one cosine of the package (a zero vector scores 0, as it did here).
export { cosine } from "../../providers/vector-math.js";

export interface SessionOptions {
  namespace?: string;
  id?: string;
  startTime?: string;
  endTime?: string;
  participants?: string[];
}

export function makeSession(o: SessionOptions = {}): Session {
  const startTime = o.startTime ?? "2023-05-08T13:00:00Z";
  return {
    id: o.id ?? "s1",
    namespace: o.namespace ?? "ns-a",
    startTime,
    endTime: o.endTime ?? startTime,
    participants: o.participants ?? ["Caroline", "Melanie"],
  };
}

export interface UnitOptions {
  id?: string;
  content?: string;
  cue?: string;
  participants?: string[];
  turnIds?: string[];
  entities?: string[];
}

/** A valid MemoryUnit of `session`; ids default to `<session>-u<index>`. */
export function makeUnit(session: Session, index: number, o: UnitOptions = {}): MemoryUnit {
  const id = o.id ?? `${session.namespace}:${session.id}-u${index}`;
  return {
    id,
    namespace: session.namespace,
    content: o.content ?? `Caroline said something ordinary number ${index}.`,
    cue: o.cue ?? "",
    context: {
      eventTime: null,
      mentionedTimes: [],
      session: { sessionId: session.id, start: session.startTime, end: session.endTime },
      participants: o.participants ?? session.participants,
      location: null,
      entities: o.entities ?? [],
      topic: null,
    },
    provenance: { sessionId: session.id, turnIds: o.turnIds ?? [`${session.id}-t${index}`] },
    anchoredBy: "test-anchorer@1",
  };
}

/** A unit with its vector; the vector defaults to one seeded by the unit id. */
export function makeRecord(session: Session, index: number, o: UnitOptions & { embedding?: Float32Array; dims?: number } = {}): UnitRecord {
  const unit = makeUnit(session, index, o);
  return { unit, embedding: o.embedding ?? seededVector(unit.id, o.dims ?? TEST_DIMS) };
}

/** `count` records of `session` with default content. */
export function makeRecords(session: Session, count: number, dims = TEST_DIMS): UnitRecord[] {
  return Array.from({ length: count }, (_, i) => makeRecord(session, i, { dims }));
}
