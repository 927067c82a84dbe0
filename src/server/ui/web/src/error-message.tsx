import { ApiError } from "./api.js";

/** Any failure, said in the page: what happened and what to do; never a stack. */
export function ErrorMessage({ error, title }: { error: unknown; title?: string }) {
  const e = error instanceof ApiError ? error : null;
  const message = e ? e.message : error instanceof Error ? error.message : String(error);
  return (
    <div class="error" role="alert">
      <strong>{title ?? (e ? describeStatus(e) : "Something went wrong")}</strong>
      <p>{message}</p>
      {e?.hint ? <p class="hint">{e.hint}</p> : null}
      {e ? <p class="code">code {e.code}{e.status ? `, HTTP ${e.status}` : ""}</p> : null}
    </div>
  );
}

function describeStatus(e: ApiError): string {
  if (e.code === "TIMEOUT") return "The query timed out";
  if (e.code === "NETWORK") return "The server is unreachable";
  if (e.status === 401) return "Your key was refused";
  if (e.status === 403) return "This key may not do that";
  if (e.status === 404) return "Not found";
  if (e.status === 409) return "Conflict with what is stored";
  if (e.status >= 500) return "The server failed";
  return "The request was refused";
}
