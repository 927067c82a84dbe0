import { RamemError } from "./errors.js";
import { echoValue } from "./echo-value.js";
import { METADATA_KEY } from "./metadata.js";

/**
 * The filter language of `recall` and `getAll`, the same on every store
 * dialect (each renders the parsed tree as SQL: the filter runs inside the
 * search, never on its results).
 *
 *   { "sessionId": "s1" }                               equality
 *   { "metadata.project": { "in": ["apollo", "gemini"] } }
 *   { "metadata.priority": { "gte": 2, "lt": 5 } }     ranges on numbers
 *   { "time": { "gte": "2023-05-01T00:00:00Z" } }       ranges on dates
 *   { "AND": [f, f], "OR": [f, f], "NOT": f }           several keys in one object: AND
 *
 * Fields: the built-in ones below, or `metadata.<key>[.<key>...]`.
 * Operators: eq, ne, in, nin, gt, gte, lt, lte. `ne`/`nin`/`NOT` also match
 * units that lack the field.
 */
export type FilterInput = Record<string, unknown>;

export type BuiltinField = "sessionId" | "participant" | "role" | "time" | "createdAt" | "updatedAt";
export type FilterOp = "eq" | "ne" | "in" | "nin" | "gt" | "gte" | "lt" | "lte";
export type FilterScalar = string | number | boolean | null;

/** What a field holds, and so which operators and values it takes. */
type FieldKind = "text" | "date" | "any";

export const BUILTIN_FIELDS: Readonly<Record<BuiltinField, { kind: FieldKind; about: string }>> = {
  sessionId: { kind: "text", about: "the unit's session id" },
  participant: { kind: "text", about: "someone in the unit's context (speaker or a person it mentions), case-insensitive" },
  role: { kind: "text", about: "the speaker's role: user, assistant, system or tool" },
  time: { kind: "date", about: "the unit's session span: gte/gt/lt/lte select sessions overlapping the range, eq sessions containing the time" },
  createdAt: { kind: "date", about: "when the unit was stored" },
  updatedAt: { kind: "date", about: "when the unit's text last changed" },
};

export type FilterNode =
  | { and: FilterNode[] }
  | { or: FilterNode[] }
  | { not: FilterNode }
  | FieldCondition;

export interface FieldCondition {
  /** A built-in field, or the path inside metadata (`["project", "name"]`). */
  field: BuiltinField | { metadata: string[] };
  op: FilterOp;
  /**
   * Checked against the field: text fields take strings, date fields and
   * date ranges take epoch milliseconds (parsed here), metadata takes JSON
   * scalars. `in`/`nin` take a non-empty list.
   */
  value: FilterScalar | FilterScalar[];
  /** For ranges: whether the value compares as a number or as a date (ms since epoch). */
  compare?: "number" | "date";
}

const OPS: readonly FilterOp[] = ["eq", "ne", "in", "nin", "gt", "gte", "lt", "lte"];
const RANGE: ReadonlySet<FilterOp> = new Set(["gt", "gte", "lt", "lte"]);
export const MAX_FILTER_CONDITIONS = 100;
export const MAX_FILTER_DEPTH = 8;
export const MAX_FILTER_LIST = 1000;

const HINT =
  `fields: ${Object.keys(BUILTIN_FIELDS).join(", ")} or metadata.<key>; operators: ${OPS.join(", ")}; combine with AND, OR, NOT ` +
  `(e.g. {"AND": [{"metadata.project": "apollo"}, {"time": {"gte": "2023-05-01T00:00:00Z"}}]})`;

function bad(where: string, message: string, hint = HINT): RamemError {
  return new RamemError("BAD_FILTER", message, { where, hint });
}

/**
 * Checks a filter as a caller wrote it and returns its tree. Throws
 * BAD_FILTER naming the field (`where`) and what it takes, before any store
 * is read: an unknown field, an operator the field does not take, a value of
 * the wrong type, an unparsable date.
 */
export function parseFilter(input: unknown, where = "filter"): FilterNode {
  const counter = { n: 0 };
  return parseNode(input, where, 0, counter);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function parseNode(input: unknown, where: string, depth: number, counter: { n: number }): FilterNode {
  if (depth > MAX_FILTER_DEPTH) throw bad(where, `the filter nests deeper than ${MAX_FILTER_DEPTH} levels`);
  if (!isObject(input)) throw bad(where, `a filter is a JSON object, got ${describe(input)}`);
  const keys = Object.keys(input);
  if (keys.length === 0) throw bad(where, "the filter is empty", `give at least one condition; ${HINT}`);
  const parts: FilterNode[] = [];
  for (const key of keys) {
    const value = input[key];
    const at = `${where} › ${key}`;
    if (key === "AND" || key === "OR") {
      if (!Array.isArray(value) || value.length === 0) throw bad(at, `${key} takes a non-empty list of filters, got ${describe(value)}`);
      const children = value.map((v, i) => parseNode(v, `${at}[${i}]`, depth + 1, counter));
      parts.push(key === "AND" ? { and: children } : { or: children });
    } else if (key === "NOT") {
      parts.push({ not: parseNode(value, at, depth + 1, counter) });
    } else if (/^(and|or|not|\$and|\$or|\$not)$/i.test(key)) {
      throw bad(at, `unknown combinator ${echoValue(key)}`, "write AND, OR and NOT in capitals");
    } else {
      parts.push(...parseField(key, value, at, counter));
    }
  }
  return parts.length === 1 ? parts[0]! : { and: parts };
}

function fieldOf(key: string, at: string): { field: FieldCondition["field"]; kind: FieldKind } {
  if (key in BUILTIN_FIELDS) return { field: key as BuiltinField, kind: BUILTIN_FIELDS[key as BuiltinField].kind };
  if (key.startsWith("metadata.")) {
    const path = key.slice("metadata.".length).split(".");
    const wrong = path.find((p) => !METADATA_KEY.test(p));
    if (wrong !== undefined) throw bad(at, `${echoValue(wrong)} is not a metadata key`, "metadata keys are letters, digits, _ and - (starting with a letter or _), joined by dots for nested objects");
    return { field: { metadata: path }, kind: "any" };
  }
  const close = Object.keys(BUILTIN_FIELDS).find((f) => f.toLowerCase() === key.toLowerCase());
  throw bad(at, `unknown filter field ${echoValue(key)}`, close ? `did you mean ${close}? ${HINT}` : `metadata fields are written metadata.<key>; ${HINT}`);
}

function parseField(key: string, raw: unknown, at: string, counter: { n: number }): FieldCondition[] {
  const { field, kind } = fieldOf(key, at);
  const ops: Array<[FilterOp, unknown]> = isObject(raw) ? Object.entries(raw).map(([op, v]) => [op as FilterOp, v]) : [["eq", raw]];
  if (ops.length === 0) throw bad(at, "the condition is empty", `give an operator: ${OPS.join(", ")}`);
  return ops.map(([op, value]) => {
    if (!OPS.includes(op)) throw bad(`${at} › ${op}`, `unknown operator ${echoValue(String(op))}`, `operators: ${OPS.join(", ")}`);
    if (++counter.n > MAX_FILTER_CONDITIONS) throw bad(at, `the filter has more than ${MAX_FILTER_CONDITIONS} conditions`);
    return condition(field, kind, op, value, `${at} › ${op}`);
  });
}

function condition(field: FieldCondition["field"], kind: FieldKind, op: FilterOp, value: unknown, at: string): FieldCondition {
  const name = typeof field === "string" ? field : `metadata.${field.metadata.join(".")}`;
  if (op === "in" || op === "nin") {
    if (!Array.isArray(value) || value.length === 0 || value.length > MAX_FILTER_LIST) {
      throw bad(at, `${op} takes a list of 1 to ${MAX_FILTER_LIST} values, got ${describe(value)}`);
    }
    if (kind === "date") throw bad(at, `${name} is a time: compare it with eq, gt, gte, lt, lte`);
    return { field, op, value: value.map((v, i) => scalar(name, kind, v, `${at}[${i}]`)) };
  }
  if (RANGE.has(op)) {
    if (kind === "text") throw bad(at, `${name} is text: it takes eq, ne, in, nin, not ${op}`);
    if (typeof value === "number" && Number.isFinite(value) && kind === "any") return { field, op, value, compare: "number" };
    if (typeof value === "string") return { field, op, value: dateMs(name, value, at), compare: "date" };
    throw bad(at, `${op} on ${name} takes ${kind === "date" ? "an ISO 8601 date-time" : "a number or an ISO 8601 date-time"}, got ${describe(value)}`);
  }
  if (kind === "date") {
    if (op === "ne") throw bad(at, `${name} is a time: compare it with eq, gt, gte, lt, lte`);
    if (typeof value !== "string") throw bad(at, `${name} takes an ISO 8601 date-time, got ${describe(value)}`);
    return { field, op, value: dateMs(name, value, at), compare: "date" };
  }
  return { field, op, value: scalar(name, kind, value, at) };
}

function scalar(name: string, kind: FieldKind, value: unknown, at: string): FilterScalar {
  if (kind === "text") {
    if (typeof value !== "string") throw bad(at, `${name} is text, got ${describe(value)}`);
    return value;
  }
  if (value === null || typeof value === "string" || typeof value === "boolean" || (typeof value === "number" && Number.isFinite(value))) return value;
  throw bad(at, `${name} compares with a string, number, boolean or null, got ${describe(value)}`);
}

/** ISO 8601 with a zone, or a date alone (read as UTC midnight). */
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/;

function dateMs(name: string, value: string, at: string): number {
  const ms = ISO_DATE.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(ms)) throw bad(at, `${name}: ${echoValue(value)} is not an ISO 8601 date-time`, "write e.g. 2023-05-08 or 2023-05-08T13:56:00Z");
  return ms;
}

function describe(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return `a list of ${v.length}`;
  if (typeof v === "object") return "an object";
  if (typeof v === "string") return `the string ${echoValue(v)}`;
  return `${typeof v} ${String(v)}`;
}

/** Both filters must hold (either may be absent). */
export function andFilters(a: FilterNode | undefined, b: FilterNode | undefined): FilterNode | undefined {
  if (!a) return b;
  if (!b) return a;
  return { and: [a, b] };
}
