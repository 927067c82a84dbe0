/**
 * Recall@K against K, one line per variant, as a standalone SVG. Small enough
 * to write by hand; a charting library would pull in a DOM for one picture.
 */
export function recallPlotSvg(ks: readonly number[], series: ReadonlyArray<{ name: string; values: readonly number[] }>, title = "Recall@K (LoCoMo, categories 1–4)"): string {
  const W = 640, H = 400, L = 60, R = 170, T = 40, B = 50;
  const colors = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2"];
  const kMin = Math.min(...ks), kMax = Math.max(...ks);
  const all = series.flatMap((s) => s.values).filter((v) => Number.isFinite(v));
  const yMin = Math.max(0, Math.floor((Math.min(...all) - 0.05) * 10) / 10);
  const yMax = Math.min(1, Math.ceil((Math.max(...all) + 0.02) * 10) / 10);
  const x = (k: number) => L + ((k - kMin) / Math.max(1, kMax - kMin)) * (W - L - R);
  const y = (v: number) => T + (1 - (v - yMin) / Math.max(1e-9, yMax - yMin)) * (H - T - B);
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    `<text x="${W / 2 - R / 2}" y="22" text-anchor="middle" font-size="14">${escape(title)}</text>`,
    `<line x1="${L}" y1="${H - B}" x2="${W - R}" y2="${H - B}" stroke="black"/>`,
    `<line x1="${L}" y1="${T}" x2="${L}" y2="${H - B}" stroke="black"/>`,
    `<text x="${(L + W - R) / 2}" y="${H - 12}" text-anchor="middle">K (units returned)</text>`,
    `<text x="16" y="${(T + H - B) / 2}" text-anchor="middle" transform="rotate(-90 16 ${(T + H - B) / 2})">Recall@K</text>`,
  ];
  for (const k of ks) parts.push(`<text x="${x(k)}" y="${H - B + 16}" text-anchor="middle">${k}</text>`);
  for (let v = yMin; v <= yMax + 1e-9; v += 0.1) {
    parts.push(`<line x1="${L}" y1="${y(v)}" x2="${W - R}" y2="${y(v)}" stroke="#ddd"/>`, `<text x="${L - 6}" y="${y(v) + 4}" text-anchor="end">${v.toFixed(1)}</text>`);
  }
  series.forEach((s, i) => {
    const color = colors[i % colors.length];
    const points = ks.map((k, j) => [x(k), y(s.values[j] ?? Number.NaN)] as const).filter(([, py]) => Number.isFinite(py));
    parts.push(`<polyline fill="none" stroke="${color}" stroke-width="2" points="${points.map(([px, py]) => `${px.toFixed(1)},${py.toFixed(1)}`).join(" ")}"/>`);
    for (const [px, py] of points) parts.push(`<circle cx="${px.toFixed(1)}" cy="${py.toFixed(1)}" r="3" fill="${color}"/>`);
    parts.push(`<rect x="${W - R + 15}" y="${T + i * 20}" width="12" height="12" fill="${color}"/>`, `<text x="${W - R + 32}" y="${T + i * 20 + 10}">${escape(s.name)}</text>`);
  });
  parts.push("</svg>");
  return parts.join("\n");
}

function escape(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
