import { api, nsPath } from "../api.js";
import { useAsync } from "../use-async.js";
import { ErrorMessage } from "../error-message.js";
import { recallHref, timelineHref } from "../route.js";
import { formatSpan } from "../format.js";
import type { Stats } from "../types.js";

/** Stats of the first this-many namespaces are fetched; the rest are listed by name (a key may see thousands). */
const STATS_FOR = 50;

export function NamespacesView() {
  const [result] = useAsync(async () => {
    const { namespaces } = await api<{ namespaces: string[] }>("/v1/namespaces");
    const stats = await Promise.all(namespaces.slice(0, STATS_FOR).map((ns) => api<Stats>(`${nsPath(ns)}/stats`).catch(() => null)));
    return { namespaces, stats };
  }, []);
  return (
    <>
      <h1>Namespaces</h1>
      {result.state === "loading" ? <p aria-live="polite">Loading namespaces…</p> : null}
      {result.state === "error" ? <ErrorMessage error={result.error} /> : null}
      {result.state === "ok" && result.value.namespaces.length === 0 ? <p>No namespace this key may read holds any data yet.</p> : null}
      {result.state === "ok" && result.value.namespaces.length > 0 ? (
        <table class="grid">
          <caption>Namespaces this key may read, with what they hold</caption>
          <thead>
            <tr>
              <th scope="col">Namespace</th>
              <th scope="col">Sessions</th>
              <th scope="col">Units</th>
              <th scope="col">Time range</th>
              <th scope="col">Embedder</th>
              <th scope="col">Recall</th>
            </tr>
          </thead>
          <tbody>
            {result.value.namespaces.map((ns, i) => {
              const s = result.value.stats[i];
              return (
                <tr key={ns}>
                  <td>
                    <a href={timelineHref(ns)}>{ns}</a>
                  </td>
                  <td>{s?.sessions ?? "–"}</td>
                  <td>{s?.units ?? "–"}</td>
                  <td>{s?.range ? formatSpan(s.range.start, s.range.end) : "–"}</td>
                  <td>{s?.embedder ?? "–"}</td>
                  <td>
                    <a href={recallHref(ns)} aria-label={`Recall debugger for ${ns}`}>
                      debug recall
                    </a>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      ) : null}
    </>
  );
}
