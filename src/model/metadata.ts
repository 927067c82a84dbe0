import { z } from "zod";
import { RamemError } from "./errors.js";
import { describeIllFormedText, findIllFormedText } from "./stored-text.js";
import { echoValue } from "./echo-value.js";

/**
 * Metadata a caller attaches to a session or a turn (units inherit it): a
 * JSON object of small values that `filter` can select on. Bounded, because
 * it is stored with every unit and indexed for filters: a caller's document
 * belongs in a turn, not in its metadata.
 */
export type MetadataValue = string | number | boolean | null | MetadataValue[] | { [key: string]: MetadataValue };
export type Metadata = { [key: string]: MetadataValue };

/** Serialised as JSON, in UTF-8 bytes. */
export const MAX_METADATA_BYTES = 4096;
/** Nesting levels of objects and arrays below the top-level object. */
export const MAX_METADATA_DEPTH = 4;
/** A key a filter can name in a `metadata.a.b` path: no dots, no spaces. */
export const METADATA_KEY = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;
/**
 * Keys that name JavaScript's object machinery: an assignment or a copy
 * (Object.assign, zod's record) turns `__proto__` into a prototype change or
 * drops it, and `constructor`/`prototype` shadow what code reading the
 * object expects. Refused, so no key is silently lost or changes meaning.
 */
export const RESERVED_METADATA_KEYS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

export interface MetadataProblem {
  /** Path inside the metadata, e.g. "project.tags[2]"; "" for the object itself. */
  path: string;
  message: string;
}

/** Why `value` is not valid metadata, or null. */
export function metadataProblem(value: unknown): MetadataProblem | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { path: "", message: `metadata must be a JSON object, got ${value === null ? "null" : Array.isArray(value) ? "an array" : typeof value}` };
  }
  const inner = walk(value, "", 0);
  if (inner) return inner;
  const bytes = Buffer.byteLength(JSON.stringify(value), "utf8");
  if (bytes > MAX_METADATA_BYTES) return { path: "", message: `metadata is ${bytes} bytes as JSON; at most ${MAX_METADATA_BYTES} are allowed` };
  return null;
}

function walk(value: unknown, path: string, depth: number): MetadataProblem | null {
  if (value === null || typeof value === "boolean") return null;
  if (typeof value === "string") {
    const bad = findIllFormedText(value);
    return bad ? { path, message: describeIllFormedText(bad) } : null;
  }
  if (typeof value === "number") return Number.isFinite(value) ? null : { path, message: `${value} is not a JSON number` };
  if (depth > MAX_METADATA_DEPTH) return { path, message: `metadata nests deeper than ${MAX_METADATA_DEPTH} levels` };
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const p = walk(value[i], `${path}[${i}]`, depth + 1);
      if (p) return p;
    }
    return null;
  }
  const proto = typeof value === "object" ? Object.getPrototypeOf(value) : undefined;
  if (proto !== undefined && proto !== Object.prototype && proto !== null) {
    return { path, message: "metadata holds a non-JSON object (a Date, Map or class instance); convert it to a string or number" };
  }
  if (typeof value === "object") {
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      const p = path ? `${path}.${k}` : k;
      if (RESERVED_METADATA_KEYS.has(k)) return { path: p, message: `metadata key ${echoValue(k)} is reserved (${[...RESERVED_METADATA_KEYS].join(", ")} name JavaScript object internals); rename it` };
      if (!METADATA_KEY.test(k)) return { path: p, message: `metadata key ${echoValue(k)} is not allowed: use letters, digits, _ and - (starting with a letter or _), at most 64 characters` };
      const inner = walk(v, p, depth + 1);
      if (inner) return inner;
    }
    return null;
  }
  return { path, message: `${typeof value} is not a JSON value` };
}

/** The check as a RamemError for library callers: BAD_METADATA naming the field. */
export function checkMetadata(value: unknown, where: string): Metadata {
  const problem = metadataProblem(value);
  if (problem) {
    throw new RamemError("BAD_METADATA", problem.message, {
      where: problem.path ? `${where} › ${problem.path}` : where,
      hint: `metadata is a JSON object of strings, numbers, booleans, null, arrays and objects, at most ${MAX_METADATA_BYTES} bytes; nothing of this call was stored`,
    });
  }
  return value as Metadata;
}

/**
 * The same rule for the zod schemas of the model and the faces. The check
 * runs on the value as given, before z.record copies it: the copy leaves out
 * a `__proto__` key (JSON.parse makes it an own property), so a check after
 * it would pass the call with that key silently dropped.
 */
export const MetadataSchema = z
  .preprocess((value, ctx) => {
    const problem = metadataProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem.path ? `${problem.path}: ${problem.message}` : problem.message });
    return value;
  }, z.record(z.string(), z.unknown()) as unknown as z.ZodType<Metadata>)
  .meta({ description: `JSON object, at most ${MAX_METADATA_BYTES} bytes; keys are letters, digits, _ and -` });

/** Later objects win key by key (one level): a turn's metadata over its session's. */
export function mergeMetadata(...layers: Array<Metadata | undefined>): Metadata | undefined {
  const present = layers.filter((m): m is Metadata => m !== undefined && Object.keys(m).length > 0);
  if (present.length === 0) return undefined;
  return Object.assign({}, ...present) as Metadata;
}
