import type { BuiltinField, FieldCondition, FilterNode, FilterScalar } from "../model/memory-filter.js";

/**
 * How a dialect writes the atoms of a filter (model/memory-filter.ts); the
 * combinators and the meaning of ne/in/nin are written once, here, so both
 * dialects select exactly the same units. Queries that take a filter alias
 * the units table `u` and join the unit's session as `s`.
 *
 * Every atom is two-valued (true or false, never NULL: a missing metadata key
 * is false), so NOT, ne and nin select the units an atom does not.
 */
export interface FilterSqlDialect {
  /** Adds a bound parameter; returns its placeholder. */
  param(value: unknown): string;
  /** sessionId, participant or role equal to a string. */
  textEquals(field: "sessionId" | "participant" | "role", value: string): string;
  /** A time column (createdAt, updatedAt: a point; time: the session span) compared with epoch ms. */
  timeCompare(field: "time" | "createdAt" | "updatedAt", op: "eq" | "gt" | "gte" | "lt" | "lte", ms: number): string;
  /** The metadata value at `path` equals a JSON scalar (type and value). */
  metadataEquals(path: readonly string[], value: FilterScalar): string;
  /** The metadata value at `path` is a number (or an ISO date-time string) and compares so with `value`. */
  metadataCompare(path: readonly string[], op: "gt" | "gte" | "lt" | "lte", value: number, compare: "number" | "date"): string;
}

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
      return `(${(c.value as FilterScalar[]).map(eq).join(" OR ")})`;
    case "nin":
      return `(NOT (${(c.value as FilterScalar[]).map(eq).join(" OR ")}))`;
    default:
      return atom(c.field, c.op, c.value as FilterScalar, c.compare, d);
  }
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
