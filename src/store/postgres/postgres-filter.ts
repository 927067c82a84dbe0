import type { FilterNode } from "../../model/memory-filter.js";
import { SQL_OPERATOR, filterSql, type FilterSqlDialect } from "../filter-sql.js";

/**
 * The filter as PostgreSQL SQL over `units u JOIN sessions s`, its
 * parameters appended to `params` (placeholders go on from params.length).
 * Metadata is read from the jsonb column with #> (a text[] path); a range
 * reads a number only from a JSON number and a date only from an ISO 8601
 * string (ramem_iso_ms), inside CASE so no other value is ever cast. An
 * in/nin list is bound as one typed array (= ANY), so its length never grows
 * the expression.
 */
export function postgresFilter(node: FilterNode, params: unknown[]): string {
  const p = (v: unknown): string => {
    params.push(v);
    return `$${params.length}`;
  };
  const d: FilterSqlDialect = {
    param: p,
    textEquals(field, value) {
      if (field === "sessionId") return `(u.session_id = ${p(value)})`;
      if (field === "participant") return `(u.participants @> ARRAY[${p(value.toLowerCase())}]::text[])`;
      return `coalesce((u.body -> 'context' ->> 'role') = ${p(value)}, false)`;
    },
    textIn(field, values) {
      if (field === "sessionId") return `(u.session_id = ANY(${p([...values])}::text[]))`;
      if (field === "participant") return `(u.participants && ${p(values.map((v) => v.toLowerCase()))}::text[])`;
      return `coalesce((u.body -> 'context' ->> 'role') = ANY(${p([...values])}::text[]), false)`;
    },
    timeCompare(field, op, ms) {
      const at = `${p(new Date(ms).toISOString())}::timestamptz`;
      if (field !== "time") return `coalesce(${field === "createdAt" ? "u.created_ts" : "u.updated_ts"} ${op === "eq" ? "=" : SQL_OPERATOR[op]} ${at}, false)`;
      if (op === "eq") return `(s.start_at <= ${at} AND s.end_at >= ${at})`;
      return op === "gt" || op === "gte" ? `(s.end_at ${SQL_OPERATOR[op]} ${at})` : `(s.start_at ${SQL_OPERATOR[op]} ${at})`;
    },
    metadataEquals(path, value) {
      return `coalesce(u.metadata #> ${p([...path])}::text[] = ${p(JSON.stringify(value))}::jsonb, false)`;
    },
    metadataIn(path, values) {
      // jsonb equality, as in metadataEquals: type and value ("1" is not 1; 1 is 1.0).
      return `coalesce(u.metadata #> ${p([...path])}::text[] = ANY(${p(values.map((v) => JSON.stringify(v)))}::jsonb[]), false)`;
    },
    metadataCompare(path, op, value, compare) {
      const at = `${p([...path])}::text[]`;
      if (compare === "number") {
        return `coalesce(CASE WHEN jsonb_typeof(u.metadata #> ${at}) = 'number' THEN (u.metadata #>> ${at})::numeric ${SQL_OPERATOR[op]} ${p(value)}::numeric END, false)`;
      }
      return `coalesce(CASE WHEN jsonb_typeof(u.metadata #> ${at}) = 'string' THEN ramem_iso_ms(u.metadata #>> ${at}) ${SQL_OPERATOR[op]} ${p(value)}::float8 END, false)`;
    },
  };
  return filterSql(node, d);
}
