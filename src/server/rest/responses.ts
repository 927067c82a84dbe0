import { Problem } from "./problem.js";

/** The error responses a route documents; every one is a problem+json body. */
export function problems(...statuses: number[]) {
  const out: Record<number, { description: string; content: { "application/problem+json": { schema: typeof Problem } } }> = {};
  const text: Record<number, string> = {
    400: "Invalid input: the problem names each field",
    401: "Missing, unknown or revoked API key",
    403: "The key is not granted this namespace or role",
    404: "Not found",
    409: "Conflict with what is stored",
    413: "Request body over the limit",
  };
  for (const s of statuses) out[s] = { description: text[s] ?? "Error", content: { "application/problem+json": { schema: Problem } } };
  return out;
}

export const AUTHED = [400, 401, 403] as const;
