import { RamemError } from "../../model/errors.js";
import { echoValue, describeValue } from "../../model/echo-value.js";
import { checkNamespace } from "../../model/check-namespace.js";
import { SessionId } from "../../model/conversation.js";
import type { FilterInput } from "../../model/memory-filter.js";
import type { Metadata } from "../../model/metadata.js";

/**
 * Where Mem0's entity ids land in ramem (README › Migration table). The same
 * mapping as `ramem serve`'s Mem0 routes (src/server/mem0-compat/entities.ts),
 * restated because a face does not import another face; kept identical so a
 * store written through either reads the same through the other:
 *   - namespace = user_id, else agent_id, else the Memory's default namespace;
 *   - run_id = the session id (a run is one conversation);
 *   - agent_id, run_id (and app_id, which Mem0's OSS has not) are kept in the
 *     units' metadata under those keys, null when absent.
 */
export interface EntityIds {
  user_id?: string;
  agent_id?: string;
  run_id?: string;
}

/** Metadata keys holding entity ids: written on every add, shown as their own fields rather than in `metadata`. */
export const ENTITY_METADATA_KEYS = ["agent_id", "run_id", "app_id"] as const;

/** Keys Mem0 strips from a caller's metadata (its IDENTITY_KEYS): ids are given as ids, not smuggled in metadata. */
const IDENTITY_KEYS = new Set(["user_id", "agent_id", "run_id", "userId", "agentId", "runId", "actor_id"]);

const CAMEL: Record<keyof EntityIds, string> = { user_id: "userId", agent_id: "agentId", run_id: "runId" };

export function bad(code: string, where: string, message: string, hint: string): RamemError {
  return new RamemError(code, message, { where, hint: `${hint}; nothing was changed` });
}

/** Mem0's validateAndTrimEntityId: a non-empty string without whitespace, trimmed; absent stays absent. */
export function entityId(value: unknown, where: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw bad("BAD_ARGUMENT", where, `${where} must be a string, got ${describeValue(value)}`, 'e.g. userId: "alice"');
  const trimmed = value.trim();
  if (trimmed === "" || /\s/.test(trimmed)) {
    throw bad("BAD_ARGUMENT", where, `${where} ${echoValue(value)} is ${trimmed === "" ? "empty" : "not one word"}`, "an id is a non-empty string without spaces, as Mem0 requires");
  }
  return trimmed;
}

/** The ids of an add or deleteAll: top-level userId/agentId/runId win over `filters.user_id` etc., as in Mem0. */
export function idsOf(options: Record<string, unknown>, filters: Record<string, unknown> | undefined): EntityIds {
  const ids: EntityIds = {};
  for (const key of ["user_id", "agent_id", "run_id"] as const) {
    const v = entityId(options[CAMEL[key]], CAMEL[key]) ?? entityId(filters?.[key], `filters.${key}`);
    if (v !== undefined) ids[key] = v;
  }
  return ids;
}

export function hasAnyId(ids: EntityIds): boolean {
  return ids.user_id !== undefined || ids.agent_id !== undefined || ids.run_id !== undefined;
}

/** The namespace of a call's ids; BAD_NAMESPACE naming the id when it cannot be a namespace name. */
export function namespaceOf(ids: EntityIds, defaultNamespace: string): string {
  const field = ids.user_id !== undefined ? "user_id" : ids.agent_id !== undefined ? "agent_id" : null;
  if (field === null) return defaultNamespace;
  try {
    return checkNamespace(ids[field]);
  } catch (err) {
    if (!(err instanceof RamemError)) throw err;
    throw new RamemError("BAD_NAMESPACE", `${CAMEL[field]} ${echoValue(ids[field]!)} cannot be a ramem namespace`, {
      where: CAMEL[field],
      hint: "ramem keeps each user's memories in a namespace named by the id: 1 to 128 letters, digits and . _ : - starting with a letter or digit (e.g. alice_example.com for alice@example.com); nothing was changed",
    });
  }
}

/** A run id as a session id, else BAD_SESSION_ID naming runId (checked here so the error names Mem0's field). */
export function checkRunId(runId: string): string {
  const r = SessionId.safeParse(runId);
  if (!r.success) throw bad("BAD_SESSION_ID", "runId", `runId ${echoValue(runId)} cannot be a session id: ${r.error.issues[0]?.message ?? "invalid"}`, "a runId is 1 to 200 characters, not only dots");
  return runId;
}

/** The caller's metadata without Mem0's identity keys, then every entity key (null when absent: a unit inherits its session's metadata, so an absent key would read as another run's). */
export function metadataWithEntities(metadata: Metadata | undefined, ids: EntityIds): Metadata {
  const out: Metadata = {};
  for (const [k, v] of Object.entries(metadata ?? {})) if (!IDENTITY_KEYS.has(k)) out[k] = v;
  out.agent_id = ids.agent_id ?? null;
  out.run_id = ids.run_id ?? null;
  out.app_id = null;
  return out;
}

export interface TranslatedFilters {
  /** The ids read from top-level equalities (user_id, else agent_id, picks the namespace). */
  ids: EntityIds;
  /** Everything else in ramem's filter language (model/memory-filter.ts), which checks it again. */
  filter: FilterInput | undefined;
}

const FILTER_HINT =
  "Mem0 filters ramem reads: user_id, agent_id, run_id, created_at, updated_at and metadata keys; values, lists (in) or operators eq, ne, gt, gte, lt, lte, in, nin; AND, OR, NOT";

function badFilter(where: string, message: string): RamemError {
  return new RamemError("BAD_FILTER", message, { where, hint: FILTER_HINT });
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Date);
}

const ID_KEYS: Record<string, keyof EntityIds> = { user_id: "user_id", agent_id: "agent_id", run_id: "run_id", userId: "user_id", agentId: "agent_id", runId: "run_id" };

/**
 * Mem0 OSS `filters` in ramem's filter language. In Mem0's OSS a memory's
 * metadata is flattened into its payload, so any key that is not an id or a
 * date is a metadata key: `{category: "movies"}` is `metadata.category`. Ids
 * that choose the namespace may only be equalities at the top level (or in a
 * top-level AND): one call reads one namespace. `given` holds top-level
 * userId/agentId/runId of the options (Mem0 2.x), read as equalities too.
 */
export function translateFilters(filters: unknown, given: EntityIds): TranslatedFilters {
  const ids: EntityIds = { ...given };
  const conditions: FilterInput[] = [];
  if (filters !== undefined && filters !== null) {
    if (!isObject(filters)) throw badFilter("filters", `filters must be an object, got ${describeValue(filters)}`);
    const topLevel: Array<[string, unknown, string]> = [];
    for (const [key, value] of Object.entries(filters)) {
      if (key === "AND" && Array.isArray(value)) {
        value.forEach((member, i) => {
          if (!isObject(member)) throw badFilter(`filters.AND[${i}]`, `a filter is an object, got ${describeValue(member)}`);
          for (const [k, v] of Object.entries(member)) topLevel.push([k, v, `filters.AND[${i}].${k}`]);
        });
      } else {
        topLevel.push([key, value, `filters.${key}`]);
      }
    }
    for (const [key, value, at] of topLevel) {
      const id = ID_KEYS[key];
      if (id && !isObject(value) && !Array.isArray(value)) {
        const v = entityId(value, at);
        if (v === undefined) continue;
        const before = ids[id];
        if (before !== undefined && before !== v) throw badFilter(at, `${id} is given twice, as ${echoValue(before)} and ${echoValue(v)}`);
        ids[id] = v;
      } else {
        conditions.push(translateNode({ [key]: value }, at.slice(0, at.length - key.length - 1), 0));
      }
    }
  }
  // Ids that do not choose the namespace are conditions on what the units carry.
  if (ids.run_id !== undefined) conditions.push({ sessionId: ids.run_id });
  if (ids.agent_id !== undefined && ids.user_id !== undefined) conditions.push({ "metadata.agent_id": ids.agent_id });
  const filter = conditions.length === 0 ? undefined : conditions.length === 1 ? conditions[0] : { AND: conditions };
  return { ids, filter };
}

const MAX_DEPTH = 8;
const OPS = new Set(["eq", "ne", "gt", "gte", "lt", "lte", "in", "nin"]);

/** One Mem0 filter object as ramem's, key by key. */
function translateNode(node: unknown, where: string, depth: number): FilterInput {
  if (depth > MAX_DEPTH) throw badFilter(where, `the filter nests deeper than ${MAX_DEPTH} levels`);
  if (!isObject(node)) throw badFilter(where, `a filter is an object, got ${describeValue(node)}`);
  const out: FilterInput[] = [];
  for (const [key, value] of Object.entries(node)) {
    const at = `${where}.${key}`;
    if (key === "AND" || key === "OR") {
      if (!Array.isArray(value) || value.length === 0) throw badFilter(at, `${key} takes a non-empty list of filters, got ${describeValue(value)}`);
      out.push({ [key]: value.map((v, i) => translateNode(v, `${at}[${i}]`, depth + 1)) });
    } else if (key === "NOT") {
      // Mem0's vector stores read NOT [a, b] as "none of them" (NOT (a OR b)).
      const list = Array.isArray(value) ? value : [value];
      if (list.length === 0) throw badFilter(at, "NOT takes a non-empty list of filters");
      out.push({ NOT: list.length === 1 ? translateNode(list[0], `${at}[0]`, depth + 1) : { OR: list.map((v, i) => translateNode(v, `${at}[${i}]`, depth + 1)) } });
    } else if (ID_KEYS[key] === "user_id") {
      throw badFilter(at, "user_id names the ramem namespace: give it once, as a plain value at the top level of filters (not inside OR or NOT, not with an operator)");
    } else if (ID_KEYS[key] === "agent_id") {
      out.push({ "metadata.agent_id": operand(value, at) });
    } else if (ID_KEYS[key] === "run_id") {
      out.push({ sessionId: operand(value, at) });
    } else if (key === "created_at" || key === "createdAt" || key === "updated_at" || key === "updatedAt") {
      out.push({ [key.startsWith("created") ? "createdAt" : "updatedAt"]: operand(value, at) });
    } else if (key === "metadata" && isObject(value)) {
      // The platform's spelling {metadata: {k: v}}, accepted too.
      for (const [k, v] of Object.entries(value)) out.push({ [`metadata.${k}`]: operand(v, `${at}.${k}`) });
    } else if (/^\$?(and|or|not)$/i.test(key)) {
      throw badFilter(at, `unknown combinator ${echoValue(key)}`);
    } else {
      out.push({ [`metadata.${key}`]: operand(value, at) });
    }
  }
  if (out.length === 0) throw badFilter(where, "the filter is empty");
  return out.length === 1 ? out[0]! : { AND: out };
}

/** A value, a list (Mem0 reads it as `in`) or an operator object; Mem0's contains, icontains and "*" have no ramem equivalent. */
function operand(value: unknown, at: string): unknown {
  if (value === "*") throw badFilter(at, `"*" (any value) has no ramem equivalent: leave the condition out`);
  if (Array.isArray(value)) return { in: value };
  if (!isObject(value)) return value;
  for (const [op, v] of Object.entries(value)) {
    if (!OPS.has(op)) throw badFilter(`${at}.${op}`, `ramem has no filter operator ${echoValue(op)}${op === "contains" || op === "icontains" ? " (it filters on whole values; search for the words instead)" : ""}`);
    if (v === "*") throw badFilter(`${at}.${op}`, `"*" (any value) has no ramem equivalent: leave the condition out`);
  }
  return value;
}
