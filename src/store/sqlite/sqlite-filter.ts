import type { FilterNode, FilterScalar } from "../../model/memory-filter.js";
import { SQL_OPERATOR, filterSql, splitScalars, type FilterSqlDialect } from "../filter-sql.js";

/** `$."a"."b"`: keys are quoted, so a "-" in a key is not read as path syntax. */
function jsonPath(path: readonly string[]): string {
  return `$${path.map((k) => `."${k}"`).join("")}`;
}

/**
 * The filter as SQLite SQL over `units u JOIN sessions s`, its parameters
 * appended to `params` in placeholder order. Metadata is read with
 * json_type/json_extract from the units.metadata column; dates in metadata
 * with unixepoch (ISO 8601 strings; anything else is no date). An in/nin
 * list is bound as one JSON array and read back with json_each, so its
 * length never grows the expression tree.
 */
export function sqliteFilter(node: FilterNode, params: unknown[]): string {
  const p = (v: unknown): string => {
    params.push(v);
    return "?";
  };
  const d: FilterSqlDialect = {
    param: p,
    textEquals(field, value) {
      if (field === "sessionId") return `(u.session_id = ${p(value)})`;
      if (field === "participant") return `EXISTS (SELECT 1 FROM json_each(u.participants) WHERE value = ${p(value.toLowerCase())})`;
      return `COALESCE(json_extract(u.body, '$.context.role') = ${p(value)}, 0)`;
    },
    textIn(field, values) {
      const list = (vs: readonly string[]): string => `(SELECT value FROM json_each(${p(JSON.stringify(vs))}))`;
      if (field === "sessionId") return `(u.session_id IN ${list(values)})`;
      if (field === "participant") return `EXISTS (SELECT 1 FROM json_each(u.participants) WHERE value IN ${list(values.map((v) => v.toLowerCase()))})`;
      return `COALESCE(json_extract(u.body, '$.context.role') IN ${list(values)}, 0)`;
    },
    timeCompare(field, op, ms) {
      if (field !== "time") {
        const col = field === "createdAt" ? "u.created_ms" : "u.updated_ms";
        return `COALESCE(${col} ${op === "eq" ? "=" : SQL_OPERATOR[op]} ${p(ms)}, 0)`;
      }
      // The session span [start, end] against the time: overlap for ranges, containment for eq.
      if (op === "eq") return `(s.start_ms <= ${p(ms)} AND s.end_ms >= ${p(ms)})`;
      return op === "gt" || op === "gte" ? `(s.end_ms ${SQL_OPERATOR[op]} ${p(ms)})` : `(s.start_ms ${SQL_OPERATOR[op]} ${p(ms)})`;
    },
    metadataEquals(path, value: FilterScalar) {
      const at = p(jsonPath(path));
      if (value === null) return `COALESCE(json_type(u.metadata, ${at}) = 'null', 0)`;
      if (typeof value === "boolean") return `COALESCE(json_type(u.metadata, ${at}) = '${value ? "true" : "false"}', 0)`;
      if (typeof value === "number") return `COALESCE(json_type(u.metadata, ${at}) IN ('integer', 'real') AND json_extract(u.metadata, ${p(jsonPath(path))}) = ${p(value)}, 0)`;
      return `COALESCE(json_type(u.metadata, ${at}) = 'text' AND json_extract(u.metadata, ${p(jsonPath(path))}) = ${p(value)}, 0)`;
    },
    metadataIn(path, values) {
      // Each JSON type is compared on its own, as metadataEquals does: the string "1" is not the number 1,
      // and json_extract of an object (JSON text) is never a string value.
      const { strings, numbers, booleans, hasNull } = splitScalars(values);
      const type = (): string => `json_type(u.metadata, ${p(jsonPath(path))})`;
      const value = (): string => `json_extract(u.metadata, ${p(jsonPath(path))})`;
      const parts: string[] = [];
      if (strings.length > 0) parts.push(`(${type()} = 'text' AND ${value()} IN (SELECT value FROM json_each(${p(JSON.stringify(strings))})))`);
      if (numbers.length > 0) parts.push(`(${type()} IN ('integer', 'real') AND ${value()} IN (SELECT value FROM json_each(${p(JSON.stringify(numbers))})))`);
      if (booleans.length > 0) parts.push(`(${type()} IN (${booleans.map((b) => `'${b ? "true" : "false"}'`).join(", ")}))`);
      if (hasNull) parts.push(`(${type()} = 'null')`);
      return `COALESCE(${parts.join(" OR ")}, 0)`;
    },
    metadataCompare(path, op, value, compare) {
      const at = p(jsonPath(path));
      const again = p(jsonPath(path));
      if (compare === "number") return `COALESCE(json_type(u.metadata, ${at}) IN ('integer', 'real') AND json_extract(u.metadata, ${again}) ${SQL_OPERATOR[op]} ${p(value)}, 0)`;
      return `COALESCE(json_type(u.metadata, ${at}) = 'text' AND round(unixepoch(json_extract(u.metadata, ${again}), 'subsec') * 1000) ${SQL_OPERATOR[op]} ${p(value)}, 0)`;
    },
  };
  return filterSql(node, d);
}
