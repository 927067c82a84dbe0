import { OP_KINDS, type FinalState, type OpKind, type OpRecord, type ValiditySnapshot } from "./op-log.js";

/**
 * What the workers' acknowledged operations promise about the final store,
 * and how far the store a fresh process reads keeps those promises. A unit's
 * fate is decided only where the acknowledgements decide it: a session
 * forget that overlapped the unit's append may or may not have caught it
 * ("ambiguous", never counted as a failure); everything else is definite.
 */
export interface ReliabilityCheck {
  acked: Record<OpKind, number>;
  /** Calls that threw (not acknowledged): nothing is promised about them. */
  refused: Record<OpKind, number>;
  /** Why they threw: error code → count. */
  errors: Record<string, number>;
  /** Units of acked appends that no later acked forget removed: they must be there. */
  expected: number;
  /** Of those, the ones the fresh process found. */
  found: number;
  /** Expected but missing. */
  lost: number;
  /** Found, but with a text other than the one last acked for it (its append's, or its last update's). */
  staleText: number;
  /** Units of acked appends removed by a later acked forget (of the unit, or of its session after the append); each incarnation of a reused id counts. */
  forgotten: number;
  /** Of those, the ones found again — at the end, or by a later acked call that needs the unit there (a second forget that deleted it, an update, a supersession): a forget some other write undid. */
  undoneForgets: number;
  /** Units whose fate overlapping operations leave open (a session forget running while the unit was appended). */
  ambiguous: number;
  /** Unit ids acked as created by two different appends (a forgotten unit's id given to a new turn), or found holding another turn than the one acked. */
  idReuses: number;
  /** Extra copies found: one acked turn (its tagged text) in more than one unit. */
  duplicates: number;
  /** Units found that no acked append created (a refused call that wrote anyway, or a write nobody acknowledged). */
  unacked: number;
  /** Acked supersessions (both units still there) that the fresh process does not see. */
  supersessionsLost: number;
  /** Units whose validity a worker saw at the end differently from the fresh process, over all workers. */
  validityDifferences: number;
  /** The sum of the counts above that are failures (lost … validityDifferences, not ambiguous or unacked). */
  failures: number;
  /** A few cases of each failure, to start debugging from. */
  examples: Record<string, string[]>;
}

const EXAMPLES_PER_KIND = 5;
/** The tag each workload text carries ("(w0-12)", "w0-12:"), one per text a worker wrote, so one turn's copies can be told apart from equal words. */
const TAG = /\bw\d+-\d+\b/;

const opName = (o: OpRecord) => `${o.op} w${o.worker}#${o.seq}`;

export function checkOps(ops: readonly OpRecord[], final: FinalState, views: ReadonlyArray<{ worker: number; validity: ValiditySnapshot }>): ReliabilityCheck {
  const zero = () => Object.fromEntries(OP_KINDS.map((k) => [k, 0])) as Record<OpKind, number>;
  const check: ReliabilityCheck = {
    acked: zero(),
    refused: zero(),
    errors: {},
    expected: 0,
    found: 0,
    lost: 0,
    staleText: 0,
    forgotten: 0,
    undoneForgets: 0,
    ambiguous: 0,
    idReuses: 0,
    duplicates: 0,
    unacked: 0,
    supersessionsLost: 0,
    validityDifferences: 0,
    failures: 0,
    examples: {},
  };
  const note = (kind: string, text: string) => {
    const list = (check.examples[kind] ??= []);
    if (list.length < EXAMPLES_PER_KIND) list.push(text);
  };

  const acked = ops.filter((o) => o.ok);
  for (const o of ops) {
    if (o.ok) check.acked[o.op]++;
    else {
      check.refused[o.op]++;
      const code = o.error ?? "unknown";
      check.errors[code] = (check.errors[code] ?? 0) + 1;
    }
  }

  // Each unit's creations (acked appends naming it), oldest first.
  const creations = new Map<string, Array<{ op: OpRecord; text: string; turnId: string }>>();
  for (const o of acked.filter((x) => x.op === "append").sort((a, b) => a.end - b.end)) {
    o.unitIds.forEach((id, i) => {
      const list = creations.get(id) ?? [];
      list.push({ op: o, text: o.texts?.[i] ?? "", turnId: o.turnIds?.[i] ?? "" });
      creations.set(id, list);
    });
  }
  const unitForgets = group(acked.filter((o) => o.op === "forgetUnit" && o.result === true), (o) => o.unitIds[0]!);
  const sessionForgets = group(acked.filter((o) => o.op === "forgetSession"), (o) => `${o.namespace}\u0000${o.sessionId}`);
  const updates = group(acked.filter((o) => o.op === "update"), (o) => o.unitIds[0]!);
  const found = new Map(final.units.map((u) => [u.id, u]));
  // The acked calls that need a unit to be there: a forget that deleted it, an update of it, a supersession naming it.
  const touches = new Map<string, OpRecord[]>();
  for (const o of acked.filter((x) => (x.op === "forgetUnit" && x.result === true) || x.op === "update" || x.op === "supersede").sort((a, b) => a.start - b.start))
    for (const id of o.unitIds) touches.set(id, [...(touches.get(id) ?? []), o]);
  /**
   * The first acked forget that removed this incarnation (created by `created`,
   * before `until`): a forgetUnit that deleted it (it ran while the unit
   * existed, so it ended after the creation began), or a forget of its
   * session begun after the creation returned.
   */
  const firstForget = (id: string, created: OpRecord, until: number): OpRecord | undefined =>
    [
      ...(unitForgets.get(id) ?? []).filter((f) => f.end > created.start && f.start < until),
      ...(sessionForgets.get(`${created.namespace}\u0000${created.sessionId}`) ?? []).filter((f) => f.start >= created.end && f.start < until),
    ].sort((a, b) => a.end - b.end)[0];

  for (const [id, made] of creations) {
    if (new Set(made.map((m) => opName(m.op))).size > 1) {
      check.idReuses++;
      const shown = made.slice(0, 3).map((m) => `${opName(m.op)} (${m.turnId}, "${m.text}")`);
      note("idReuses", `${id} acked as created by ${shown.join(" and by ")}${made.length > 3 ? ` (${made.length} appends in all)` : ""}`);
    }
    const unit = found.get(id);
    // Each incarnation (one, unless the id was reused) until the next one began.
    made.forEach((m, i) => {
      const until = made[i + 1]?.op.start ?? Infinity;
      const forgetter = firstForget(id, m.op, until);
      if (!forgetter) return;
      check.forgotten++;
      // Acted on after its forget returned: an acked forget that deleted it, an update, a supersession naming it. Each needs the unit there, so it was back.
      const touch = (touches.get(id) ?? []).find((t) => t !== forgetter && t.start > forgetter.end && t.start < until);
      const last = i === made.length - 1;
      if (touch) {
        check.undoneForgets++;
        note("undoneForgets", `${id} (${m.op.namespace}/${m.op.sessionId}) forgotten by ${opName(forgetter)} at ${iso(forgetter.end)}, then there for ${opName(touch)} at ${iso(touch.start)}`);
      } else if (last && unit) {
        check.undoneForgets++;
        note("undoneForgets", `${id} (${m.op.namespace}/${m.op.sessionId}, "${unit.text}") found after ${opName(forgetter)} acked at ${iso(forgetter.end)}`);
      }
    });
    // What the final store must hold is about the latest incarnation; an earlier one is the id reuse above.
    const c = made.at(-1)!;
    const { namespace, sessionId } = c.op;
    const overlapping = (sessionForgets.get(`${namespace}\u0000${sessionId}`) ?? []).some((f) => f.start < c.op.end && f.end > c.op.start);
    if (unit && unit.turnIds.join(",") !== c.turnId) {
      check.idReuses++;
      note("idReuses", `${id} holds turn ${unit.turnIds.join(",")}, acked for turn ${c.turnId} by ${opName(c.op)}`);
    }
    if (firstForget(id, c.op, Infinity)) continue;
    if (overlapping) {
      check.ambiguous++;
      continue;
    }
    check.expected++;
    if (!unit) {
      check.lost++;
      note("lost", `${id} (${namespace}/${sessionId}, "${c.text}") of ${opName(c.op)} acked at ${iso(c.op.end)} is missing`);
      continue;
    }
    check.found++;
    const accepted = acceptedTexts(c, updates.get(id) ?? []);
    if (!accepted.has(unit.text)) {
      check.staleText++;
      note("staleText", `${id} says "${unit.text}", acked last: ${[...accepted].map((t) => `"${t}"`).join(" or ")}`);
    }
  }

  const copies = new Map<string, string[]>();
  for (const u of final.units) {
    if (!creations.has(u.id)) {
      check.unacked++;
      note("unacked", `${u.id} (${u.namespace}/${u.sessionId} turn ${u.turnIds.join(",")}, "${u.text}")`);
    }
    const tag = TAG.exec(u.text)?.[0];
    if (!tag) continue;
    const key = `${u.namespace}\u0000${tag}`;
    copies.set(key, [...(copies.get(key) ?? []), u.id]);
  }
  for (const [key, ids] of copies) {
    if (ids.length < 2) continue;
    check.duplicates += ids.length - 1;
    note("duplicates", `${key.split("\u0000")[1]} in ${ids.join(", ")}`);
  }

  check.supersessionsLost = lostSupersessions(acked, found, final.validity, (t) => note("supersessionsLost", t));
  for (const view of views) check.validityDifferences += validityDifferences(view.validity, final.validity, (t) => note("validityDifferences", `worker ${view.worker}: ${t}`));

  check.failures = check.lost + check.staleText + check.undoneForgets + check.idReuses + check.duplicates + check.supersessionsLost + check.validityDifferences;
  return check;
}

/**
 * The texts a unit may say: its last acked update's (by when it returned) or
 * any update that overlapped that one; the append's text when no update of
 * this incarnation was acked.
 */
function acceptedTexts(created: { op: OpRecord; text: string }, updates: readonly OpRecord[]): Set<string> {
  const mine = updates.filter((u) => u.end > created.op.start);
  if (mine.length === 0) return new Set([created.text]);
  const last = mine.reduce((a, b) => (b.end > a.end ? b : a));
  return new Set(mine.filter((u) => u === last || u.end > last.start).map((u) => u.texts?.[0] ?? ""));
}

/** Acked `supersede(old, new)` whose units both remain, while the fresh validity of old names another successor (or none). */
function lostSupersessions(acked: readonly OpRecord[], found: ReadonlyMap<string, { namespace: string }>, validity: ValiditySnapshot, note: (t: string) => void): number {
  let lost = 0;
  for (const [oldId, calls] of group(acked.filter((o) => o.op === "supersede"), (o) => o.unitIds[0]!)) {
    const last = calls.reduce((a, b) => (b.end > a.end ? b : a));
    const successors = new Set(calls.filter((c) => c === last || c.end > last.start).map((c) => c.unitIds[1]!));
    if (!found.has(oldId) || ![...successors].some((s) => found.has(s))) continue;
    const seen = validity[last.namespace]?.[oldId]?.supersededBy ?? null;
    if (seen !== null && successors.has(seen)) continue;
    lost++;
    note(`${oldId} superseded by ${[...successors].join(" or ")} (${opName(last)}), the fresh process sees ${seen ?? "no successor"}`);
  }
  return lost;
}

/** Units (per namespace) whose validity differs between two views, a unit in one view only included. */
export function validityDifferences(seen: ValiditySnapshot, truth: ValiditySnapshot, note: (t: string) => void = () => {}): number {
  let differences = 0;
  for (const namespace of new Set([...Object.keys(seen), ...Object.keys(truth)])) {
    const a = seen[namespace] ?? {};
    const b = truth[namespace] ?? {};
    for (const id of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const x = a[id] ? JSON.stringify(a[id]) : "absent";
      const y = b[id] ? JSON.stringify(b[id]) : "absent";
      if (x === y) continue;
      differences++;
      note(`${namespace} ${id}: saw ${x}, fresh ${y}`);
    }
  }
  return differences;
}

function group<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}

const iso = (ms: number) => new Date(ms).toISOString();
