// Every view reads and writes through the REST API with the key the user entered:
// the server checks it exactly as it checks any other client.

const KEY_STORAGE = "ramem.inspector.key";

export function storedKey(): string | null {
  return sessionStorage.getItem(KEY_STORAGE);
}

export function storeKey(key: string | null): void {
  if (key === null) sessionStorage.removeItem(KEY_STORAGE);
  else sessionStorage.setItem(KEY_STORAGE, key);
}

/** A failed call as the page shows it: the server's problem details, or what went wrong on the way. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}

export const DEFAULT_TIMEOUT_MS = 30_000;

export interface CallOptions {
  method?: string;
  json?: unknown;
  /** Abort and report TIMEOUT after this long. */
  timeoutMs?: number;
  /** A key to try instead of the stored one (login). */
  key?: string | null;
  /** Resolve to the body as text, unparsed (a file the server sends as it is, checked by the caller). */
  text?: boolean;
}

/** One REST call. Resolves to the parsed JSON body; rejects with ApiError, never with a raw TypeError or a stack. */
export async function api<T>(path: string, options: CallOptions = {}): Promise<T> {
  const key = options.key === undefined ? storedKey() : options.key;
  const headers: Record<string, string> = {};
  if (key) headers.authorization = `Bearer ${key}`;
  if (options.json !== undefined) headers["content-type"] = "application/json";
  const controller = new AbortController();
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  let res: Response;
  try {
    res = await fetch(path, {
      method: options.method ?? "GET",
      headers,
      signal: controller.signal,
      ...(options.json !== undefined ? { body: JSON.stringify(options.json) } : {}),
    });
  } catch (err) {
    if (controller.signal.aborted) {
      throw new ApiError(0, "TIMEOUT", `the server did not answer within ${(timeoutMs / 1000).toFixed(timeoutMs < 1000 ? 3 : 0)} s`, "try again, ask for fewer hits, or check the server's load; nothing was changed by this page");
    }
    throw new ApiError(0, "NETWORK", "the server could not be reached", "is `ramem serve` still running? Reload the page once it is");
  } finally {
    clearTimeout(timer);
  }
  const text = await res.text();
  let body: unknown = undefined;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  if (!res.ok) {
    // The kept key stopped working mid-session (revoked): the app shows the login again (app.tsx).
    if (res.status === 401 && options.key === undefined && key) dispatchEvent(new Event("ramem:unauthorized"));
    const p = (body ?? {}) as { code?: string; detail?: string; title?: string; hint?: string; errors?: Array<{ path: string; message: string }> };
    const detail = p.errors?.length ? p.errors.map((e) => `${e.path}: ${e.message}`).join("; ") : (p.detail ?? p.title ?? `HTTP ${res.status}`);
    throw new ApiError(res.status, p.code ?? `HTTP_${res.status}`, detail, p.hint);
  }
  if (options.text) return text as T;
  if (body === undefined) throw new ApiError(res.status, "BAD_RESPONSE", "the server's answer was not JSON");
  return body as T;
}

export const nsPath = (ns: string) => `/v1/namespaces/${encodeURIComponent(ns)}`;
