import { useState } from "preact/hooks";
import { api } from "../api.js";
import { useAsync } from "../use-async.js";
import { ErrorMessage } from "../error-message.js";
import { BENCH_REPORT_LIMITS, parseBenchReport, type BenchReport } from "../bench-report.js";

const COLOURS = ["#1f5fa8", "#b3261e", "#2e7d32", "#7b3fa0", "#a15c00", "#00697a"];

/**
 * Opens a bench-out/NAME/results.json — one picked from disk (read in the
 * page; nothing is uploaded) or one the server was given (ramem serve
 * --bench-results) — and shows its tables and the recall-at-K plot.
 */
export function BenchView() {
  const [report, setReport] = useState<{ name: string; value: BenchReport } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [given] = useAsync(() => api<{ files: Array<{ id: number; path: string }> }>("/v1/bench-results"), []);
  const openGiven = async (id: number, path: string) => {
    setError(null);
    setReport(null);
    try {
      // As text: the server sends the file as it is on disk, and the parser says what is wrong with it (not JSON, no report).
      const body = await api<string>(`/v1/bench-results/${id}`, { text: true });
      setReport({ name: path, value: parseBenchReport(body, path) });
    } catch (err) {
      setError(err);
    }
  };
  const open = async (e: Event) => {
    const file = (e.target as HTMLInputElement).files?.[0];
    if (!file) return;
    setError(null);
    setReport(null);
    try {
      // Refused before reading: a huge file would hang the page while it is read and parsed.
      if (file.size > 2 * BENCH_REPORT_LIMITS.chars) throw new Error(`${file.name} is not a ramem bench report: it is ${file.size.toLocaleString("en-US")} bytes, far larger than any report`);
      setReport({ name: file.name, value: parseBenchReport(await file.text(), file.name) });
    } catch (err) {
      setError(err);
    }
  };
  return (
    <>
      <h1>Benchmark viewer</h1>
      <p>
        <label for="bench-file">Open a results.json from bench-out/</label>{" "}
        <input id="bench-file" type="file" accept=".json,application/json" onChange={open} />
      </p>
      {given.state === "ok" && given.value.files.length > 0 ? (
        <ul class="given" aria-label="Reports the server was given">
          {given.value.files.map((f) => (
            <li key={f.id}>
              <button type="button" onClick={() => void openGiven(f.id, f.path)}>
                Open {f.path}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {given.state === "error" ? <ErrorMessage error={given.error} title="The server's reports could not be listed" /> : null}
      {error ? <ErrorMessage error={error} title={error instanceof Error && /not a ramem bench report/.test(error.message) ? "Not a ramem bench report" : undefined} /> : null}
      {report ? <Report name={report.name} r={report.value} /> : null}
    </>
  );
}

function Report({ name, r }: { name: string; r: BenchReport }) {
  const categories = [...new Set(r.variants.flatMap((v) => Object.keys(v.perCategory)))].sort();
  const kMid = r.ks.includes(10) ? 10 : r.ks[0]!;
  return (
    <>
      <p class="sub">
        {name}: <code>{r.command}</code>
        {r.questions !== null ? ` · ${r.questions} questions` : ""}
      </p>
      <table class="grid" data-testid="bench-overall">
        <caption>Recall, hit rate and MRR at each K, per variant</caption>
        <thead>
          <tr>
            <th scope="col">Variant</th>
            {r.ks.map((k) => (
              <th scope="col" key={k}>
                Recall@{k}
              </th>
            ))}
            <th scope="col">Hit@{kMid}</th>
            <th scope="col">MRR</th>
            <th scope="col">Evaluated</th>
          </tr>
        </thead>
        <tbody>
          {r.variants.map((v) => (
            <tr key={v.name}>
              <th scope="row" title={v.description}>
                {v.name}
              </th>
              {r.ks.map((k) => (
                <td key={k}>{v.overall[String(k)]!.recall.toFixed(3)}</td>
              ))}
              <td>{v.overall[String(kMid)]!.hit.toFixed(3)}</td>
              <td>{v.overall[String(kMid)]!.mrr.toFixed(3)}</td>
              <td>{v.overall[String(kMid)]!.n}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {categories.length ? (
        <table class="grid">
          <caption>Recall@{kMid} per question category</caption>
          <thead>
            <tr>
              <th scope="col">Variant</th>
              {categories.map((c) => (
                <th scope="col" key={c}>
                  category {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {r.variants.map((v) => (
              <tr key={v.name}>
                <th scope="row">{v.name}</th>
                {categories.map((c) => (
                  <td key={c}>{v.perCategory[c]?.[String(kMid)]?.recall.toFixed(3) ?? "–"}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <RecallAtKPlot r={r} />
    </>
  );
}

function RecallAtKPlot({ r }: { r: BenchReport }) {
  const W = 560;
  const H = 300;
  const pad = { l: 48, r: 150, t: 16, b: 36 };
  const maxK = Math.max(...r.ks);
  const x = (k: number) => pad.l + (k / maxK) * (W - pad.l - pad.r);
  const y = (v: number) => H - pad.b - v * (H - pad.t - pad.b);
  return (
    <figure>
      <svg viewBox={`0 0 ${W} ${H}`} width={W} height={H} role="img" aria-label="Recall at K per variant" data-testid="recall-plot">
        <line x1={pad.l} y1={y(0)} x2={W - pad.r} y2={y(0)} stroke="#333" />
        <line x1={pad.l} y1={y(0)} x2={pad.l} y2={y(1)} stroke="#333" />
        {[0, 0.25, 0.5, 0.75, 1].map((v) => (
          <text key={v} x={pad.l - 6} y={y(v) + 4} text-anchor="end" font-size="11" fill="#222">
            {v.toFixed(2)}
          </text>
        ))}
        {r.ks.map((k) => (
          <text key={k} x={x(k)} y={H - pad.b + 16} text-anchor="middle" font-size="11" fill="#222">
            {k}
          </text>
        ))}
        <text x={(pad.l + W - pad.r) / 2} y={H - 4} text-anchor="middle" font-size="12" fill="#222">
          K
        </text>
        {r.variants.map((v, i) => (
          <g key={v.name}>
            <polyline fill="none" stroke={COLOURS[i % COLOURS.length]} stroke-width="2" points={r.ks.map((k) => `${x(k)},${y(v.overall[String(k)]!.recall)}`).join(" ")} />
            {r.ks.map((k) => (
              <circle key={k} cx={x(k)} cy={y(v.overall[String(k)]!.recall)} r="3" fill={COLOURS[i % COLOURS.length]} />
            ))}
            <text x={W - pad.r + 10} y={pad.t + 16 + i * 18} font-size="12" fill={COLOURS[i % COLOURS.length]}>
              ■ {v.name}
            </text>
          </g>
        ))}
      </svg>
      <figcaption>Recall at K, every variant of the run</figcaption>
    </figure>
  );
}
