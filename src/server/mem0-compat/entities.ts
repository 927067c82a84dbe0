import { RamemError } from "../../model/errors.js";
import { echoValue } from "../../model/echo-value.js";
import type { FilterInput } from "../../model/memory-filter.js";
import type { Metadata } from "../../model/metadata.js";
import { checkNamespace } from "../../memory.js";

/**
 * How Mem0's entity ids land in ramem (README › Mapping), the one place that
 * decides it for every Mem0-compatible route:
 *   - namespace = user_id, else agent_id, else the server's default namespace;
 *   - run_id = the session id (a run is one conversation);
 *   - agent_id, run_id and app_id are also kept in the units' metadata under
 *     those keys, so a filter can select on them and answers can give them back.
 */
export interface EntityIds {
  user_id?: string | null | undefined;
  agent_id?: string | null | undefined;
  run_id?: string | null | undefined;
  app_id?: string | null | undefined;
}

/** The metadata keys that hold entity ids (stripped from the metadata Mem0's answers show: they have their own fields). */
export const ENTITY_METADATA_KEYS = ["agent_id", "run_id", "app_id"] as const;

const NAMESPACE_HINT =
  "a ramem namespace is 1 to 128 letters, digits and . _ : - starting with a letter or digit; use such a user_id (e.g. alice or alice_example.com)";

/** The namespace of a call's entity ids; BAD_NAMESPACE (400) naming the field when the id cannot be one. */
export function namespaceOf(ids: EntityIds, defaultNamespace: string, where: string): string {
  const [field, value]: [string | null, string] = ids.user_id ? ["user_id", ids.user_id] : ids.agent_id ? ["agent_id", ids.agent_id] : [null, defaultNamespace];
  try {
    return checkNamespace(value);
  } catch (err) {
    if (!(err instanceof RamemError) || field === null) throw err;
    throw new RamemError("BAD_NAMESPACE", `${where}.${field}: ${echoValue(value)} cannot be a namespace: ${err.message.replace(/^.* is not a namespace name: /, "")}`, { hint: NAMESPACE_HINT });
  }
}

/**
 * The metadata a write gives its turns: the caller's, then every entity key
 * (an id wins over a metadata key of its name). An absent id is written as
 * null, not left out: a unit inherits its session's metadata where its turn
 * has no key, so an add without agent_id to a session an agent wrote to
 * would otherwise read as that agent's.
 */
export function metadataWithEntities(metadata: Metadata | undefined, ids: EntityIds): Metadata {
  const out: Metadata = { ...(metadata ?? {}) };
  for (const key of ENTITY_METADATA_KEYS) {
    const v = ids[key];
    out[key] = typeof v === "string" && v !== "" ? v : null;
  }
  return out;
}

export interface TranslatedFilters {
  /** The entity ids that choose the namespace (user_id, else agent_id), read from top-level equalities. */
  ids: EntityIds;
  /** Everything else, in ramem's filter language (model/memory-filter.ts), checked there. */
  filter: FilterInput | undefined;
}

const FIELD_HINT =
  "Mem0 filters this server reads: user_id, agent_id, run_id, app_id, created_at, updated_at, metadata (and AND, OR, NOT); operators eq, ne, in, nin, gt, gte, lt, lte";

function bad(where: string, message: string): RamemError {
  return new RamemError("BAD_FILTER", `${where}: ${message}`, { hint: FIELD_HINT });
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * Mem0's `filters` (v2/v3 search and get-all) in ramem's filter language.
 * user_id names the namespace, so it may only be an equality at the top
 * level (or in a top-level AND): one request reads one namespace. agent_id
 * also names the namespace when user_id is absent; wherever it appears it is
 * a condition on `metadata.agent_id` too (units added with it carry it).
 * Legacy top-level ids in the body (`given`) count as top-level equalities.
 */
export function translateFilters(filters: unknown, given: EntityIds, where: string): TranslatedFilters {
  const ids: EntityIds = {};
  const conditions: FilterInput[] = [];
  const take = (key: keyof EntityIds, value: unknown, at: string) => {
    if (typeof value !== "string" || value === "" || value === "*") {
      throw bad(at, `${key} here takes one id (a non-empty string other than "*"), got ${describe(value)}: one request reads one ramem namespace`);
    }
    const before = ids[key];
    if (typeof before === "string" && before !== value) throw bad(at, `${key} is given twice, as ${echoValue(before)} and ${echoValue(value)}`);
    ids[key] = value;
  };
  for (const key of ["user_id", "agent_id", "run_id", "app_id"] as const) {
    const v = given[key];
    if (v !== undefined && v !== null) take(key, v, `body.${key}`);
  }
  if (filters !== undefined && filters !== null) {
    if (!isObject(filters)) throw bad(`${where}`, `filters is a JSON object, got ${describe(filters)}`);
    // Top-level keys and the members of a top-level AND are conjunctions: entity equalities there pick the namespace.
    const topLevel: Array<[string, unknown, string]> = [];
    for (const [key, value] of Object.entries(filters)) {
      if (key === "AND" && Array.isArray(value)) {
        value.forEach((member, i) => {
          if (!isObject(member)) throw bad(`${where}.AND[${i}]`, `a filter is a JSON object, got ${describe(member)}`);
          for (const [k, v] of Object.entries(member)) topLevel.push([k, v, `${where}.AND[${i}].${k}`]);
        });
      } else {
        topLevel.push([key, value, `${where}.${key}`]);
      }
    }
    for (const [key, value, at] of topLevel) {
      if ((key === "user_id" || key === "agent_id" || key === "run_id" || key === "app_id") && !isObject(value)) {
        take(key, value, at);
      } else {
        conditions.push(translateNode({ [key]: value }, at.slice(0, at.length - key.length - 1), 0));
      }
    }
  }
  // Equalities of ids that do not name the namespace are conditions on what the units carry.
  if (ids.run_id) conditions.push({ sessionId: ids.run_id });
  if (ids.app_id) conditions.push({ "metadata.app_id": ids.app_id });
  if (ids.agent_id && ids.user_id) conditions.push({ "metadata.agent_id": ids.agent_id });
  const filter = conditions.length === 0 ? undefined : conditions.length === 1 ? conditions[0] : { AND: conditions };
  return { ids, filter };
}

const MAX_DEPTH = 8;

/** One Mem0 filter object → ramem's, key by key; nothing here reads a namespace (user_id is refused). */
function translateNode(node: unknown, where: string, depth: number): FilterInput {
  if (depth > MAX_DEPTH) throw bad(where, `the filter nests deeper than ${MAX_DEPTH} levels`);
  if (!isObject(node)) throw bad(where, `a filter is a JSON object, got ${describe(node)}`);
  const out: FilterInput[] = [];
  for (const [key, value] of Object.entries(node)) {
    const at = `${where}.${key}`;
    if (key === "AND" || key === "OR") {
      if (!Array.isArray(value)) throw bad(at, `${key} takes a list of filters, got ${describe(value)}`);
      out.push({ [key]: value.map((v, i) => translateNode(v, `${at}[${i}]`, depth + 1)) });
    } else if (key === "NOT") {
      out.push({ NOT: Array.isArray(value) ? { AND: value.map((v, i) => translateNode(v, `${at}[${i}]`, depth + 1)) } : translateNode(value, at, depth + 1) });
    } else if (key === "user_id") {
      throw bad(at, "user_id names the ramem namespace: give it once, as an equality at the top level of filters (not inside OR or NOT, not with an operator)");
    } else if (key === "agent_id" || key === "app_id") {
      out.push({ [`metadata.${key}`]: operand(value, at) });
    } else if (key === "run_id") {
      out.push({ sessionId: operand(value, at) });
    } else if (key === "created_at" || key === "updated_at") {
      out.push({ [key === "created_at" ? "createdAt" : "updatedAt"]: operand(value, at) });
    } else if (key === "metadata") {
      if (!isObject(value)) throw bad(at, `metadata takes an object of key: value, got ${describe(value)}`);
      for (const [k, v] of Object.entries(value)) out.push({ [`metadata.${k}`]: operand(v, `${at}.${k}`) });
    } else {
      throw bad(at, `this server does not filter on ${echoValue(key)}`);
    }
  }
  if (out.length === 0) throw bad(where, "the filter is empty");
  return out.length === 1 ? out[0]! : { AND: out };
}

/** A value or an operator object; "*" (Mem0's "any value") has no ramem equivalent that would not silently match the literal. */
function operand(value: unknown, at: string): unknown {
  const values = isObject(value) ? Object.values(value) : [value];
  if (values.some((v) => v === "*")) throw bad(at, `"*" (any value) is not supported here: leave the condition out`);
  return value;
}

function describe(v: unknown): string {
  if (v === null) return "null";
  if (v === undefined) return "nothing";
  if (Array.isArray(v)) return `a list of ${v.length}`;
  if (typeof v === "object") return "an object";
  if (typeof v === "string") return `the string ${echoValue(v)}`;
  return `${typeof v} ${String(v)}`;
}
