// The hash is the page's address: deep links (#/namespaces/<ns>, …/recall?q=…) and permalinks are plain URLs.

export type Route =
  | { view: "namespaces" }
  | { view: "timeline"; ns: string }
  | { view: "recall"; ns: string; q: string; date: string; validAt: string; timeoutMs: number | null }
  | { view: "unit"; ns: string; unitId: string }
  | { view: "bench" }
  | { view: "not-found"; hash: string };

export function parseRoute(hash: string): Route {
  const raw = hash.replace(/^#/, "") || "/";
  const [path = "/", query = ""] = raw.split("?", 2);
  const params = new URLSearchParams(query);
  const parts = path.split("/").filter(Boolean).map(safeDecode);
  if (parts.length === 0) return { view: "namespaces" };
  if (parts[0] === "bench" && parts.length === 1) return { view: "bench" };
  if (parts[0] === "namespaces" && parts.length === 1) return { view: "namespaces" };
  if (parts[0] === "namespaces" && parts[1]) {
    const ns = parts[1];
    if (parts.length === 2) return { view: "timeline", ns };
    if (parts[2] === "recall" && parts.length === 3) {
      const t = Number(params.get("timeoutMs"));
      return { view: "recall", ns, q: params.get("q") ?? "", date: params.get("date") ?? "", validAt: params.get("validAt") ?? "", timeoutMs: Number.isFinite(t) && t > 0 ? t : null };
    }
    if (parts[2] === "units" && parts[3] && parts.length === 4) return { view: "unit", ns, unitId: parts[3] };
  }
  return { view: "not-found", hash: raw };
}

export function timelineHref(ns: string): string {
  return `#/namespaces/${encodeURIComponent(ns)}`;
}

export function unitHref(ns: string, unitId: string): string {
  return `#/namespaces/${encodeURIComponent(ns)}/units/${encodeURIComponent(unitId)}`;
}

export function recallHref(ns: string, q = "", date = "", validAt = ""): string {
  const params = new URLSearchParams();
  if (q) params.set("q", q);
  if (date) params.set("date", date);
  if (validAt) params.set("validAt", validAt);
  const query = params.toString();
  return `#/namespaces/${encodeURIComponent(ns)}/recall${query ? `?${query}` : ""}`;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
