import type { z } from "zod";
import { Session } from "../model/conversation.js";
import { MemoryUnit } from "../model/memory-unit.js";
import { RamemError } from "../model/errors.js";
import { echoValue } from "../model/echo-value.js";
import type { SessionRecords, UnitRecord } from "./contract.js";
import type { EmbedderBinding } from "./embedder-binding.js";

export interface CheckedSession {
  session: Session;
  /** "session NS/ID": where every refusal of this call points. */
  where: string;
  records: UnitRecord[];
}

/**
 * The refusals of MemoryStore.replaceSession that need no database (see
 * contract.ts): every dialect validates the whole call before its first
 * write, because a failure is cheaper and clearer here than as a rollback.
 */
export function parseSessionRecords(session: Session, units: readonly UnitRecord[]): CheckedSession {
  const s = parseOrThrow(Session, session, `session ${typeof session?.id === "string" ? echoValue(session.id) : "?"}`, "INVALID_SESSION");
  const where = `session ${s.namespace}/${s.id}`;
  const seen = new Set<string>();
  const records = units.map((rec, i) => {
    const u = parseOrThrow(MemoryUnit, rec.unit, `${where}, unit ${i}`, "INVALID_UNIT");
    if (u.namespace !== s.namespace) {
      throw new RamemError("NAMESPACE_MISMATCH", `unit ${echoValue(u.id)} is in namespace ${u.namespace}, its session in ${s.namespace}`, {
        where,
        hint: "build units with the namespace of the session they come from",
      });
    }
    if (u.provenance.sessionId !== s.id || u.context.session.sessionId !== s.id) {
      throw new RamemError("SESSION_MISMATCH", `unit ${echoValue(u.id)} names session ${echoValue(u.provenance.sessionId)}, not ${echoValue(s.id)}`, { where });
    }
    if (seen.has(u.id)) throw new RamemError("DUPLICATE_UNIT", `unit id ${echoValue(u.id)} appears twice`, { where });
    seen.add(u.id);
    if (!(rec.embedding instanceof Float32Array)) {
      throw new RamemError("INVALID_EMBEDDING", `unit ${echoValue(u.id)} has no Float32Array embedding`, { where });
    }
    return { unit: u, embedding: rec.embedding };
  });
  return { session: s, where, records };
}

/**
 * restoreNamespace's refusals that need no database: every session checked
 * as replaceSession checks one, and in the namespace being restored.
 */
export function parseNamespaceRecords(namespace: string, sessions: readonly SessionRecords[]): Array<CheckedSession & { contentHash: string }> {
  return sessions.map((s) => {
    if (s.session?.namespace !== namespace) {
      throw new RamemError("NAMESPACE_MISMATCH", `session ${echoValue(String(s.session?.id ?? "?"))} is in namespace ${echoValue(String(s.session?.namespace ?? "?"))}, not ${namespace}`, {
        where: `namespace ${namespace}`,
        hint: "restore one namespace's sessions at a time",
      });
    }
    return { ...parseSessionRecords(s.session, s.units), contentHash: s.contentHash };
  });
}

/** The in-transaction refusal of restoreNamespace: a restore never merges into data. */
export function checkNamespaceEmpty(namespace: string, found: { sessions: number; units: number }): void {
  if (found.sessions === 0 && found.units === 0) return;
  throw new RamemError("NAMESPACE_NOT_EMPTY", `namespace ${namespace} already holds ${found.sessions} sessions`, {
    hint: "import into an empty namespace, or delete this one first; nothing was imported",
  });
}

/** Vectors only go into a store bound to an embedder, at its size, finite. */
export function checkRecordEmbeddings(checked: CheckedSession, bound: EmbedderBinding | null, location: string): void {
  const { records, where } = checked;
  if (records.length && !bound) {
    throw new RamemError("EMBEDDER_NOT_BOUND", "units cannot be stored before an embedder is bound", {
      where: location,
      hint: "call bindEmbedder(id, dimensions) first",
    });
  }
  for (const p of records) {
    if (p.embedding.length !== bound!.dimensions) {
      throw new RamemError(
        "EMBEDDING_DIMENSION_MISMATCH",
        `unit ${echoValue(p.unit.id)} has a ${p.embedding.length}-dim embedding; the store holds ${bound!.dimensions}-dim vectors`,
        { where },
      );
    }
    if (!p.embedding.every(Number.isFinite)) {
      throw new RamemError("INVALID_EMBEDDING", `unit ${echoValue(p.unit.id)} has a non-finite embedding value`, { where });
    }
  }
}

export function parseOrThrow<T>(schema: z.ZodType<T>, value: unknown, where: string, code: string): T {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const path = issue?.path.map(String).join(".") || "(root)";
  throw new RamemError(code, `${path}: ${issue?.message ?? "invalid"}`, { where });
}

/**
 * The compare-and-swap refusal of replaceSession (see contract.ts), the same
 * for every dialect: `found` is the stored hash, null when the session is gone.
 */
export function checkExpectedHash(where: string, expected: string | null | undefined, found: string | null): void {
  if (expected === undefined || expected === found) return;
  throw new RamemError(
    "SESSION_CHANGED",
    expected === null ? "the session was created by another writer meanwhile" : found === null ? "the session was deleted meanwhile" : "the session was changed by another writer meanwhile",
    { where, hint: "read the session again and redo the change; nothing of this call was written" },
  );
}

/** The UNIQUE(namespace, unit id) violation of a write, as both dialects report it. */
export function unitIdConflict(where: string, cause: unknown): RamemError {
  return new RamemError("UNIT_ID_CONFLICT", "a unit id of this session already belongs to another session of the namespace", {
    where,
    hint: "unit ids must be unique per namespace; derive them from namespace, session and turns",
    cause,
  });
}

/**
 * appendUnits' compare-and-swap: the session must exist with the expected
 * hash (an append never creates a session: replaceSession does).
 */
export function checkAppendable(where: string, expected: string, found: string | null): void {
  if (found === null) {
    throw new RamemError("SESSION_CHANGED", "the session was deleted meanwhile", { where, hint: "read the session again and redo the change; nothing of this call was written" });
  }
  checkExpectedHash(where, expected, found);
}

/** updateUnits' refusal of an id that is not a stored unit of the session. */
export function unitNotInSession(where: string, unitId: string): RamemError {
  return new RamemError("UNIT_NOT_FOUND", `the session holds no unit ${echoValue(unitId)}`, {
    where,
    hint: "update only units the session holds (a forgotten unit cannot be updated); nothing of this call was written",
  });
}
