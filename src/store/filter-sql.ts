import type { BuiltinField, FieldCondition, FilterNode, FilterScalar } from "../model/memory-filter.js";

/**
 * How a dialect writes the atoms of a filter (model/memory-filter.ts); the
 * combinators and the meaning of ne/in/nin are written once, here, so both
 * dialects select exactly the same units. Queries that take a filter alias
 * the units table `u` and join the unit's session as `s`.
 *
 * Every atom is two-valued (true or false, never NULL: a missing metadata key
 * is false), so NOT, ne and nin select the units an atom does not.
 *
 * An in/nin list is one atom with the whole list bound as one parameter, never
 * a chain of ORs: a list may hold MAX_FILTER_LIST values, and SQLite refuses
 * an expression tree deeper than 1,000 (a chain of 1,000 ORs is that deep).
 * A list atom selects exactly the units that the OR of its eq atoms would.
 */
export interface FilterSqlDialect {
  /** Adds a bound parameter; returns its placeholder. */
  param(value: unknown): string;
  /** sessionId, participant or role equal to a string. */
  textEquals(field: TextField, value: string): string;
  /** sessionId, participant or role equal to one of the strings (a non-empty list). */
  textIn(field: TextField, values: readonly string[]): string;
  /** A time column (createdAt, updatedAt: a point; time: the session span) compared with epoch ms. */
  timeCompare(field: "time" | "createdAt" | "updatedAt", op: "eq" | "gt" | "gte" | "lt" | "lte", ms: number): string;
  /** The metadata value at `path` equals a JSON scalar (type and value). */
  metadataEquals(path: readonly string[], value: FilterScalar): string;
  /** The metadata value at `path` equals (type and value) one of the scalars (a non-empty list). */
  metadataIn(path: readonly string[], values: readonly FilterScalar[]): string;
  /** The metadata value at `path` is a number (or an ISO date-time string) and compares so with `value`. */
  metadataCompare(path: readonly string[], op: "gt" | "gte" | "lt" | "lte", value: number, compare: "number" | "date"): string;
}

export type TextField = "sessionId" | "participant" | "role";

export const SQL_OPERATOR = { gt: ">", gte: ">=", lt: "<", lte: "<=" } as const;

export function filterSql(node: FilterNode, d: FilterSqlDialect): string {
  if ("and" in node) return `(${node.and.map((n) => filterSql(n, d)).join(" AND ")})`;
  if ("or" in node) return `(${node.or.map((n) => filterSql(n, d)).join(" OR ")})`;
  if ("not" in node) return `(NOT ${filterSql(node.not, d)})`;
  return conditionSql(node, d);
}

function conditionSql(c: FieldCondition, d: FilterSqlDialect): string {
  const eq = (v: FilterScalar): string => atom(c.field, "eq", v, c.compare, d);
  switch (c.op) {
    case "eq":
      return eq(c.value as FilterScalar);
    case "ne":
      return `(NOT ${eq(c.value as FilterScalar)})`;
    case "in":
      return listAtom(c.field, c.value as FilterScalar[], d);
    case "nin":
      return `(NOT ${listAtom(c.field, c.value as FilterScalar[], d)})`;
    default:
      return atom(c.field, c.op, c.value as FilterScalar, c.compare, d);
  }
}

function listAtom(field: FieldCondition["field"], values: readonly FilterScalar[], d: FilterSqlDialect): string {
  if (typeof field === "object") return d.metadataIn(field.metadata, values);
  // The parser refuses in/nin on time fields: only the text fields are left.
  return d.textIn(field as TextField, values as string[]);
}

function atom(field: FieldCondition["field"], op: "eq" | "gt" | "gte" | "lt" | "lte", value: FilterScalar, compare: FieldCondition["compare"], d: FilterSqlDialect): string {
  if (typeof field === "object") {
    if (op === "eq") return d.metadataEquals(field.metadata, value);
    return d.metadataCompare(field.metadata, op, value as number, compare ?? "number");
  }
  const builtin: BuiltinField = field;
  if (builtin === "time" || builtin === "createdAt" || builtin === "updatedAt") return d.timeCompare(builtin, op, value as number);
  return d.textEquals(builtin, value as string);
}

/** A list's values split by JSON type, for a dialect that compares each type on its own. */
export function splitScalars(values: readonly FilterScalar[]): { strings: string[]; numbers: number[]; booleans: boolean[]; hasNull: boolean } {
  const strings: string[] = [];
  const numbers: number[] = [];
  const booleans = new Set<boolean>();
  let hasNull = false;
  for (const v of values) {
    if (v === null) hasNull = true;
    else if (typeof v === "string") strings.push(v);
    else if (typeof v === "number") numbers.push(v);
    else booleans.add(v);
  }
  return { strings, numbers, booleans: [...booleans], hasNull };
}
