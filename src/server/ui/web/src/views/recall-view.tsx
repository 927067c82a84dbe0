import { useEffect, useState } from "preact/hooks";
import { api, DEFAULT_TIMEOUT_MS, nsPath } from "../api.js";
import { ErrorMessage } from "../error-message.js";
import { countOf, formatDate } from "../format.js";
import { recallHref, timelineHref, unitHref } from "../route.js";
import type { Explained, RecallHit } from "../types.js";

/**
 * Type a query (and a question date, and the day whose state you want:
 * validAt): the frame it induced, condition by
 * condition, each hit with its channel ranks and reasons beside the
 * content-only ranking, and the evidence pack the generator would get. The
 * address holds the query, so the page's URL is the permalink.
 */
export function RecallView({ ns, q, date, validAt, timeoutMs }: { ns: string; q: string; date: string; validAt: string; timeoutMs: number | null }) {
  const [query, setQuery] = useState(q);
  const [day, setDay] = useState(date);
  const [validDay, setValidDay] = useState(validAt);
  const [result, setResult] = useState<{ state: "idle" } | { state: "loading" } | { state: "ok"; value: Explained } | { state: "error"; error: unknown }>({ state: "idle" });
  useEffect(() => {
    setQuery(q);
    setDay(date);
    setValidDay(validAt);
    if (!q.trim()) return setResult({ state: "idle" });
    let live = true;
    setResult({ state: "loading" });
    api<Explained>(`${nsPath(ns)}/recall/explain`, {
      method: "POST",
      // A day, at noon UTC as for the question date: the state that held that day.
      json: { query: q, k: 10, ...(date ? { questionDate: `${date}T12:00:00Z` } : {}), ...(validAt ? { validAt: `${validAt}T12:00:00Z` } : {}) },
      timeoutMs: timeoutMs ?? DEFAULT_TIMEOUT_MS,
    }).then(
      (value) => live && setResult({ state: "ok", value }),
      (error: unknown) => live && setResult({ state: "error", error }),
    );
    return () => {
      live = false;
    };
  }, [ns, q, date, validAt, timeoutMs]);

  const submit = (e: Event) => {
    e.preventDefault();
    location.hash = recallHref(ns, query.trim(), day, validDay);
  };
  const permalink = `${location.origin}${location.pathname}${recallHref(ns, q, date, validAt)}`;
  return (
    <>
      <h1>
        Recall debugger · <a href={timelineHref(ns)}>{ns}</a>
      </h1>
      <form class="recall-form" onSubmit={submit} aria-label="Recall query">
        <div class="wide">
          <label for="r-query">Query</label>
          <input id="r-query" type="search" value={query} onInput={(e) => setQuery((e.target as HTMLInputElement).value)} placeholder="When did Caroline go to the support group?" required />
        </div>
        <div>
          <label for="r-date">Question date (optional)</label>
          <input id="r-date" type="date" value={day} onInput={(e) => setDay((e.target as HTMLInputElement).value)} />
        </div>
        <div>
          <label for="r-valid-at">Valid at (optional)</label>
          <input id="r-valid-at" type="date" value={validDay} onInput={(e) => setValidDay((e.target as HTMLInputElement).value)} />
        </div>
        <button type="submit">Recall</button>
      </form>
      {result.state === "loading" ? <p aria-live="polite">Recalling…</p> : null}
      {result.state === "error" ? <ErrorMessage error={result.error} /> : null}
      {result.state === "ok" ? <Explanation ns={ns} x={result.value} permalink={permalink} /> : null}
    </>
  );
}

function Explanation({ ns, x, permalink }: { ns: string; x: Explained; permalink: string }) {
  const inCtx = new Set(x.contextValidIds);
  const ramemRank = new Map(x.hits.map((h) => [h.unit.id, h.rank]));
  const contentRank = new Map(x.contentOnly.map((h) => [h.unit.id, h.rank]));
  return (
    <>
      <p class="sub">
        <a href={permalink} data-testid="permalink">
          Permalink to this recall
        </a>{" "}
        · {x.tookMs} ms{x.questionDate ? ` · asked on ${formatDate(x.questionDate, false)}` : ""}
        {x.validAt ? ` · state valid at ${formatDate(x.validAt, false)}` : ""}
      </p>
      <section aria-labelledby="frame-h">
        <h2 id="frame-h">
          Recall frame{" "}
          <span class={x.frame?.active ? "badge on" : "badge"} data-testid="frame-state">
            {x.frame?.active ? "active" : "inactive"}
          </span>
        </h2>
        {x.conditions.length === 0 ? <p>No condition was read from the query.</p> : null}
        {x.conditions.length > 0 ? (
          <table class="grid" data-testid="frame-conditions">
            <caption>Conditions induced from the query</caption>
            <thead>
              <tr>
                <th scope="col">Condition</th>
                <th scope="col">Asks for</th>
                <th scope="col">Evidence in the query</th>
                <th scope="col">Confidence</th>
                <th scope="col">Used</th>
                <th scope="col">Why</th>
              </tr>
            </thead>
            <tbody>
              {x.conditions.map((c) => (
                <tr key={c.name} data-condition={c.name}>
                  <th scope="row">{c.name}</th>
                  <td>{c.value}</td>
                  <td>
                    “{c.evidence}” <span class="hint">{c.note}</span>
                  </td>
                  <td>{c.confidence.toFixed(2)}</td>
                  <td>{c.active ? "active" : "not active"}</td>
                  <td>{c.why}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
        <ul class="cues">
          {x.cues.map((c, i) => (
            <li key={i}>{c}</li>
          ))}
        </ul>
        <p>
          C<sub>ctx</sub> (context-valid, ranked first): <b data-testid="c-ctx">{x.contextValidIds.length}</b> hits · C<sub>content</sub> (the rest):{" "}
          <b data-testid="c-content">{x.hits.length - x.contextValidIds.length}</b> hits
        </p>
      </section>
      <section aria-labelledby="evidence-h">
        <h2 id="evidence-h">
          Does the store hold evidence?{" "}
          <span class={x.holdsEvidence.likely ? "badge on" : "badge"} data-testid="holds-evidence">
            {x.holdsEvidence.likely ? "likely" : "likely not"}
          </span>
        </h2>
        <p data-testid="holds-evidence-why">
          {x.holdsEvidence.why} <span class="hint">(confidence {x.holdsEvidence.confidence.toFixed(2)})</span>
        </p>
        <p class="sub" data-testid="score-scales">
          {x.scoreScales}
        </p>
      </section>
      <div class="side-by-side">
        <section aria-labelledby="ramem-h">
          <h2 id="ramem-h">RaMem ranking</h2>
          <HitList ns={ns} hits={x.hits} testId="ramem-hits" note={(h) => `${inCtx.has(h.unit.id) ? "C_ctx" : "C_content"} · content-only rank ${contentRank.get(h.unit.id) ?? "–"}`} />
        </section>
        <section aria-labelledby="content-h">
          <h2 id="content-h">Content-only ranking</h2>
          <HitList ns={ns} hits={x.contentOnly} testId="content-hits" note={(h) => `RaMem rank ${ramemRank.get(h.unit.id) ?? "–"}`} />
        </section>
      </div>
      <section aria-labelledby="pack-h">
        <h2 id="pack-h">Evidence pack as the generator sees it</h2>
        <p class="sub">
          {countOf(x.evidence.tokens, "token")}, {countOf(x.evidence.unitIds.length, "unit")}{x.evidence.dropped ? `, ${x.evidence.dropped} dropped to fit the budget` : ""}
        </p>
        <pre class="pack" data-testid="evidence-pack" tabIndex={0} aria-label="Evidence pack">
          {x.evidence.text}
        </pre>
      </section>
    </>
  );
}

function HitList({ ns, hits, testId, note }: { ns: string; hits: RecallHit[]; testId: string; note: (h: RecallHit) => string }) {
  if (hits.length === 0) return <p>No hits.</p>;
  return (
    <ol class="hits" data-testid={testId}>
      {hits.map((h) => (
        <li key={h.unit.id} data-unit-id={h.unit.id}>
          <div class="hit-head">
            <b>#{h.rank}</b> score {h.score.toFixed(3)} · {note(h)} · lexical {h.channels.lexical ? `#${h.channels.lexical.rank}` : "–"} · dense {h.channels.dense ? `#${h.channels.dense.rank}` : "–"}
          </div>
          <p class={h.unit.validity?.supersededBy ? "superseded" : ""}>
            <a href={unitHref(ns, h.unit.id)}>{h.unit.validity?.supersededBy ? <s>{h.unit.content}</s> : h.unit.content}</a>
          </p>
          <p class="hint">
            {h.unit.context.session.sessionId} · {formatDate(h.unit.context.session.start, false)} · {h.reasons.join("; ")}
          </p>
        </li>
      ))}
    </ol>
  );
}
