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

/** Checks the shape the viewer needs; anything else is an error that says what the file lacks. */
export function parseBenchReport(text: string, fileName: string): BenchReport {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new Error(`${fileName} is not JSON (${(err as Error).message}): open the results.json a ramem bench run wrote into bench-out/<name>/`);
  }
  const fail = (what: string): never => {
    throw new Error(`${fileName} is not a ramem bench report: ${what}. Open the results.json a ramem bench run wrote (npx ramem bench locomo … --out bench-out/locomo)`);
  };
  if (typeof json !== "object" || json === null || Array.isArray(json)) return fail("it is not a JSON object");
  const o = json as Record<string, unknown>;
  if (typeof o.command !== "string" || !o.command.startsWith("ramem bench")) fail('it has no "command" starting with "ramem bench"');
  if (!Array.isArray(o.ks) || o.ks.length === 0 || !o.ks.every((k) => Number.isInteger(k) && k > 0)) fail('"ks" is not a list of cut-offs');
  if (!Array.isArray(o.variants) || o.variants.length === 0) fail('it has no "variants"');
  const ks = o.ks as number[];
  const variants = (o.variants as unknown[]).map((v, i): BenchVariant => {
    const r = v as { name?: unknown; description?: unknown; retrieval?: { overall?: unknown; perCategory?: unknown }; tokensAtK?: unknown };
    if (typeof r?.name !== "string") fail(`variant ${i + 1} has no name`);
    const overall = r.retrieval?.overall as Record<string, AtK> | undefined;
    if (!overall || typeof overall !== "object" || !ks.every((k) => typeof overall[String(k)]?.recall === "number")) fail(`variant ${String(r.name)} has no retrieval.overall recall at every K`);
    return {
      name: r.name as string,
      description: typeof r.description === "string" ? r.description : "",
      overall: overall!,
      perCategory: (r.retrieval?.perCategory as Record<string, Record<string, AtK>> | undefined) ?? {},
      tokensAtK: (r.tokensAtK as Record<string, number> | undefined) ?? {},
    };
  });
  return { command: o.command as string, data: typeof o.data === "string" ? o.data : "", ks, questions: typeof o.questions === "number" ? o.questions : null, variants };
}
