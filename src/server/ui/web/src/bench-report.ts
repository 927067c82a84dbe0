// A ramem bench results.json (bench-out/<name>/results.json, or longmemeval-results.json) as the viewer reads it.

export interface AtK {
  n: number;
  recall: number;
  hit: number;
  mrr: number;
}

export interface BenchVariant {
  name: string;
  description: string;
  overall: Record<string, AtK>;
  perCategory: Record<string, Record<string, AtK>>;
  tokensAtK: Record<string, number>;
}

export interface BenchReport {
  command: string;
  data: string;
  ks: number[];
  questions: number | null;
  variants: BenchVariant[];
}

/**
 * Bounds of what the viewer draws. A real report has a handful of Ks,
 * variants and categories; a file past these is no report of ours, and one
 * that passed would be drawn as a table of a million columns.
 */
export const BENCH_REPORT_LIMITS = { chars: 20_000_000, ks: 100, maxK: 100_000, variants: 50, categories: 200, name: 200, text: 2_000 } as const;

const OPEN_HINT = "Open the results.json a ramem bench run wrote (npx ramem bench locomo … --out bench-out/locomo)";

/**
 * Checks everything the viewer reads, so a malformed file is refused here,
 * saying what it lacks, and never fails later while drawing (an "internal
 * error"): every number it shows is finite (JSON's 1e400 parses as Infinity)
 * and in its range, every list within BENCH_REPORT_LIMITS.
 */
export function parseBenchReport(text: string, fileName: string): BenchReport {
  const fail = (what: string): never => {
    throw new Error(`${fileName} is not a ramem bench report: ${what}. ${OPEN_HINT}`);
  };
  if (typeof text !== "string") return fail("it is not text");
  if (text.length > BENCH_REPORT_LIMITS.chars) fail(`it is ${text.length.toLocaleString("en-US")} characters long; a report is at most ${BENCH_REPORT_LIMITS.chars.toLocaleString("en-US")}`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    fail(`it is not JSON (${(err as Error).message})`);
  }
  if (!isObject(json)) return fail("it is not a JSON object");
  const o = json;
  if (typeof o.command !== "string" || !o.command.startsWith("ramem bench")) fail('it has no "command" starting with "ramem bench"');
  if (!Array.isArray(o.ks) || o.ks.length === 0 || o.ks.length > BENCH_REPORT_LIMITS.ks) fail(`"ks" is not a list of 1 to ${BENCH_REPORT_LIMITS.ks} cut-offs`);
  const ks = o.ks as unknown[];
  if (!ks.every((k) => Number.isInteger(k) && (k as number) > 0 && (k as number) <= BENCH_REPORT_LIMITS.maxK)) fail(`"ks" holds something other than whole numbers from 1 to ${BENCH_REPORT_LIMITS.maxK}`);
  if (new Set(ks).size !== ks.length) fail('"ks" names a cut-off twice');
  if (!Array.isArray(o.variants) || o.variants.length === 0 || o.variants.length > BENCH_REPORT_LIMITS.variants) fail(`"variants" is not a list of 1 to ${BENCH_REPORT_LIMITS.variants} variants`);
  if (o.questions !== undefined && o.questions !== null && !(Number.isInteger(o.questions) && (o.questions as number) >= 0)) fail('"questions" is not a whole number');
  const names = new Set<string>();
  const variants = (o.variants as unknown[]).map((v, i): BenchVariant => {
    const at = `variant ${i + 1}`;
    if (!isObject(v)) return fail(`${at} is not an object`);
    if (typeof v.name !== "string" || v.name.length === 0 || v.name.length > BENCH_REPORT_LIMITS.name) fail(`${at} has no name (a string of 1 to ${BENCH_REPORT_LIMITS.name} characters)`);
    const name = v.name as string;
    if (names.has(name)) fail(`two variants are named ${JSON.stringify(name)}`);
    names.add(name);
    if (v.description !== undefined && (typeof v.description !== "string" || v.description.length > BENCH_REPORT_LIMITS.text)) fail(`variant ${JSON.stringify(name)}: "description" is not a string of at most ${BENCH_REPORT_LIMITS.text} characters`);
    const retrieval = isObject(v.retrieval) ? v.retrieval : fail(`variant ${JSON.stringify(name)} has no "retrieval" object`);
    const overall = atKs(retrieval.overall, ks as number[], true, `variant ${JSON.stringify(name)}: retrieval.overall`, fail);
    let perCategory: Record<string, Record<string, AtK>> = {};
    if (retrieval.perCategory !== undefined) {
      if (!isObject(retrieval.perCategory)) fail(`variant ${JSON.stringify(name)}: retrieval.perCategory is not an object`);
      const entries = Object.entries(retrieval.perCategory as Record<string, unknown>);
      if (entries.length > BENCH_REPORT_LIMITS.categories) fail(`variant ${JSON.stringify(name)} has more than ${BENCH_REPORT_LIMITS.categories} categories`);
      perCategory = Object.fromEntries(entries.map(([c, byK]) => [c, atKs(byK, ks as number[], false, `variant ${JSON.stringify(name)}: category ${JSON.stringify(c.slice(0, 50))}`, fail)]));
    }
    let tokensAtK: Record<string, number> = {};
    if (v.tokensAtK !== undefined) {
      if (!isObject(v.tokensAtK) || !Object.values(v.tokensAtK).every((t) => finite(t) && (t as number) >= 0)) fail(`variant ${JSON.stringify(name)}: "tokensAtK" is not an object of finite token counts`);
      tokensAtK = v.tokensAtK as Record<string, number>;
    }
    return { name, description: typeof v.description === "string" ? v.description : "", overall, perCategory, tokensAtK };
  });
  if (o.data !== undefined && (typeof o.data !== "string" || o.data.length > BENCH_REPORT_LIMITS.text)) fail(`"data" is not a string of at most ${BENCH_REPORT_LIMITS.text} characters`);
  if ((o.command as string).length > BENCH_REPORT_LIMITS.text) fail(`"command" is longer than ${BENCH_REPORT_LIMITS.text} characters`);
  return { command: o.command as string, data: typeof o.data === "string" ? o.data : "", ks: ks as number[], questions: typeof o.questions === "number" ? o.questions : null, variants };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function finite(v: unknown): boolean {
  return typeof v === "number" && Number.isFinite(v);
}

/**
 * The metrics at each K: at every K of the report when `every` (the overall
 * row, drawn at each K), else at those Ks the object has (a category may lack
 * one: shown "–"). Each metric finite; recall, hit and MRR in [0, 1].
 */
function atKs(value: unknown, ks: readonly number[], every: boolean, at: string, fail: (what: string) => never): Record<string, AtK> {
  if (!isObject(value)) return fail(`${at} is not an object of metrics per K`);
  const out: Record<string, AtK> = {};
  for (const k of ks) {
    const m = value[String(k)];
    if (m === undefined && !every) continue;
    if (!isObject(m)) return fail(`${at} has no metrics at K=${k}`);
    for (const field of ["recall", "hit", "mrr"] as const) {
      if (!finite(m[field]) || (m[field] as number) < 0 || (m[field] as number) > 1) fail(`${at} at K=${k}: "${field}" is not a number from 0 to 1 (got ${describe(m[field])})`);
    }
    if (!(Number.isInteger(m.n) && (m.n as number) >= 0)) fail(`${at} at K=${k}: "n" is not a whole number (got ${describe(m.n)})`);
    out[String(k)] = { n: m.n as number, recall: m.recall as number, hit: m.hit as number, mrr: m.mrr as number };
  }
  return out;
}

function describe(v: unknown): string {
  if (typeof v === "number") return String(v);
  if (v === undefined) return "nothing";
  return v === null ? "null" : Array.isArray(v) ? "a list" : typeof v;
}
