import { z } from "zod";
import { RamemError } from "../../model/errors.js";
import { echoValue } from "../../model/echo-value.js";

/**
 * RFC 9457 problem details. Every 4xx/5xx the server sends has this shape,
 * plus ramem's stable `code` and, where there is one, a `hint` saying what
 * to do. Validation problems list each failing field in `errors`.
 */
export const Problem = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    code: z.string(),
    hint: z.string().optional(),
    instance: z.string().optional(),
    /** The server's id of the request (its X-Request-Id header), to find it in the server's log. */
    requestId: z.string().optional(),
    errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  })
  .meta({ id: "Problem" });
export type Problem = z.infer<typeof Problem>;

export const PROBLEM_CONTENT_TYPE = "application/problem+json";

/** HTTP status of each RamemError code the server raises; any other user error is a 400. */
const STATUS_BY_CODE: Record<string, number> = {
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  HOST_NOT_ALLOWED: 403,
  ORIGIN_NOT_ALLOWED: 403,
  NAMESPACE_NOT_FOUND: 404,
  SESSION_NOT_FOUND: 404,
  UNIT_NOT_FOUND: 404,
  UNIT_FORGOTTEN: 409,
  CYCLIC_SUPERSESSION: 409,
  ROUTE_NOT_FOUND: 404,
  BENCH_RESULTS_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  NAMESPACE_NOT_EMPTY: 409,
  DUPLICATE_TURN: 409,
  UNIT_ID_CONFLICT: 409,
  EMBEDDER_MISMATCH: 409,
  SESSION_CHANGED: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  INTERNAL: 500,
  SERVER_DRAINING: 503,
};

const TITLES: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  409: "Conflict",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

export function statusOf(err: RamemError): number {
  return STATUS_BY_CODE[err.code] ?? 400;
}

/** The problem `type` of a RamemError code: a stable URN per code, shared by REST and /mcp. */
export function problemType(code: string): string {
  return `urn:ramem:problem:${code.toLowerCase().replaceAll("_", "-")}`;
}

export function problemOf(err: RamemError, instance?: string, errors?: Problem["errors"]): Problem {
  const status = statusOf(err);
  return {
    type: problemType(err.code),
    title: TITLES[status] ?? "Error",
    status,
    detail: err.where ? `${err.where}: ${err.message}` : err.message,
    code: err.code,
    ...(err.hint ? { hint: err.hint } : {}),
    ...(instance ? { instance } : {}),
    ...(errors?.length ? { errors } : {}),
  };
}

export function problemResponse(problem: Problem, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(problem), { status: problem.status, headers: { "content-type": PROBLEM_CONTENT_TYPE, ...headers } });
}

/** zod issues → one problem naming every failing field by its path (`turns.0.text`). */
export function validationProblem(issues: readonly z.core.$ZodIssue[], where: string, instance?: string): Problem {
  const errors = issues.map((i) => ({ path: formatPath(i.path, where), message: describeIssue(i) }));
  const first = errors[0];
  const err = new RamemError("VALIDATION_FAILED", first ? `${first.path}: ${first.message}` : "the request is invalid", {
    hint: errors.length > 1 ? `fix these ${errors.length} fields (see errors); nothing was stored` : "fix this field; nothing was stored",
  });
  return problemOf(err, instance, errors);
}

function formatPath(path: readonly PropertyKey[], where: string): string {
  const rest = path.map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`)).join("");
  return `${where}${rest}`;
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === "invalid_format" && issue.format === "datetime") return "expected an ISO 8601 date-time with a zone, e.g. 2023-05-08T13:56:00Z";
  if (issue.code === "unrecognized_keys") return `unknown field${issue.keys.length > 1 ? "s" : ""} ${issue.keys.slice(0, 10).map((k) => echoValue(k)).join(", ")}${issue.keys.length > 10 ? `, … (${issue.keys.length} in all)` : ""}`;
  return issue.message;
}
