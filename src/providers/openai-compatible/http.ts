import { RamemError } from "../../model/errors.js";

/**
 * One JSON POST with retries, shared by the chat and embeddings clients.
 * Retried: HTTP 429, HTTP 5xx, and network failures (connection refused or
 * reset, DNS). Not retried: other 4xx (the request itself is wrong, repeating
 * it cannot help) and timeouts (`timeoutMs` bounds each attempt; a server that
 * stalled once usually stalls again, and retrying would multiply the wait the
 * caller asked to bound).
 */

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface PostJsonOptions {
  baseURL: string;
  /** Relative to baseURL, e.g. "chat/completions". */
  path: string;
  body: unknown;
  apiKey: string | undefined;
  headers: Record<string, string> | undefined;
  timeoutMs: number;
  maxRetries: number;
  retryDelayMs: number;
  fetch: FetchLike | undefined;
  /** "LLM" or "EMBEDDINGS": prefixes the error codes. */
  kind: "LLM" | "EMBEDDINGS";
  /** Which settings the hints should point at, e.g. "RAMEM_LLM_*". */
  envPrefix: string;
}

// A server asking for a long Retry-After is better surfaced than waited on.
const MAX_RETRY_AFTER_MS = 20_000;
const MAX_BACKOFF_MS = 8_000;

/** The URL as it may be shown to a user: no credentials, no query string. */
export function displayURL(url: string): string {
  try {
    const u = new URL(url);
    u.username = "";
    u.password = "";
    u.search = "";
    u.hash = "";
    return u.toString();
  } catch {
    return url.replace(/\?.*$/, "");
  }
}

/** Joins base URL and path without doubling or dropping the slash. */
export function joinURL(baseURL: string, path: string): string {
  return `${baseURL.replace(/\/+$/, "")}/${path.replace(/^\/+/, "")}`;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function backoffMs(attempt: number, base: number, retryAfter: string | null): number {
  if (retryAfter) {
    const seconds = Number(retryAfter);
    if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, MAX_RETRY_AFTER_MS);
    const date = Date.parse(retryAfter);
    if (Number.isFinite(date)) return Math.min(Math.max(0, date - Date.now()), MAX_RETRY_AFTER_MS);
  }
  // Full jitter keeps many clients that failed together from retrying together.
  const ceiling = Math.min(base * 2 ** attempt, MAX_BACKOFF_MS);
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

function hintForStatus(status: number, opts: PostJsonOptions): string {
  const base = `${opts.envPrefix}BASE_URL`;
  if (status === 401 || status === 403) {
    return `the server rejected the credentials: check ${opts.envPrefix}API_KEY${opts.kind === "LLM" ? " (or OPENAI_API_KEY)" : ""} / the apiKey option`;
  }
  if (status === 404) {
    return `check ${base} (OpenAI-compatible servers usually want it to end in /v1) and that the model name exists on that server`;
  }
  if (status === 400 || status === 422) {
    return `the server refused the request body: check the model name${opts.kind === "LLM" ? " and whether this server supports response_format json_object" : ""}`;
  }
  if (status === 429) return "the server is rate limiting: wait, lower concurrency, or raise maxRetries";
  if (status >= 500) return "the server failed: check its logs, that the model is loaded, and that it has enough memory";
  return `check ${base} and the server's documentation`;
}

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 300 ? `${flat.slice(0, 300)}…` : flat;
}

/** POSTs `body` as JSON and returns the parsed JSON reply, or throws RamemError. */
export async function postJson(opts: PostJsonOptions): Promise<unknown> {
  const doFetch: FetchLike = opts.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const url = joinURL(opts.baseURL, opts.path);
  const shown = displayURL(url);
  const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json", ...opts.headers };
  if (opts.apiKey) headers.authorization = `Bearer ${opts.apiKey}`;
  const payload = JSON.stringify(opts.body);
  const attempts = Math.max(0, opts.maxRetries) + 1;

  let lastError: RamemError | undefined;
  let retryAfter: string | null = null;
  for (let attempt = 0; attempt < attempts; attempt++) {
    if (attempt > 0) await sleep(backoffMs(attempt - 1, opts.retryDelayMs, retryAfter));
    retryAfter = null;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), opts.timeoutMs);
    let response: Response;
    let text: string;
    try {
      response = await doFetch(url, { method: "POST", headers, body: payload, signal: controller.signal });
      // The body read is inside the timer too: a server can send headers and then stall.
      text = await response.text();
    } catch (cause) {
      clearTimeout(timer);
      if (controller.signal.aborted) {
        throw new RamemError(`${opts.kind}_TIMEOUT`, `POST ${shown} did not answer within ${opts.timeoutMs} ms`, {
          hint: `check that the server at ${opts.envPrefix}BASE_URL is up and not overloaded, or raise timeoutMs (large local models can take minutes per answer)`,
          cause,
        });
      }
      const reason = describeNetworkError(cause);
      lastError = new RamemError(`${opts.kind}_HTTP`, `POST ${shown} failed after ${attempt + 1} attempt${attempt ? "s" : ""}: ${reason}`, {
        hint: `is the server running and reachable at ${displayURL(opts.baseURL)}? check ${opts.envPrefix}BASE_URL`,
        cause,
      });
      continue;
    }
    clearTimeout(timer);

    if (response.ok) {
      try {
        return JSON.parse(text);
      } catch (cause) {
        throw new RamemError(`${opts.kind}_BAD_RESPONSE`, `POST ${shown} returned HTTP ${response.status} but the body is not JSON: ${snippet(text)}`, {
          hint: `check that ${opts.envPrefix}BASE_URL points at an OpenAI-compatible API (usually ending in /v1), not a web page or proxy`,
          cause,
        });
      }
    }

    const retryable = response.status === 429 || response.status >= 500;
    lastError = new RamemError(
      `${opts.kind}_HTTP`,
      `POST ${shown} returned HTTP ${response.status}${retryable ? ` after ${attempt + 1} attempt${attempt ? "s" : ""}` : ""}: ${snippet(text) || response.statusText}`,
      { hint: hintForStatus(response.status, opts) },
    );
    if (!retryable) throw lastError;
    retryAfter = response.headers.get("retry-after");
  }
  throw lastError!;
}

function describeNetworkError(cause: unknown): string {
  const err = cause as { message?: string; cause?: { code?: string; message?: string } };
  const inner = err?.cause;
  if (inner?.code) return `${inner.code}${inner.message ? ` (${inner.message})` : ""}`;
  return err?.message ?? String(cause);
}
