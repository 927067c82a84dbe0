import { createRoute } from "@hono/zod-openapi";
import { authorize } from "../../auth/middleware.js";
import { CONTENT_ONLY } from "../../../retrieval/recall-pipeline.js";
import { escapedJudgment } from "../../../retrieval/judge-evidence.js";
import { renderEvidence } from "../../../synthesis/render-evidence.js";
import { explainFrame } from "../../operations/explain-frame.js";
import type { RestApp, RestDeps } from "../rest-deps.js";
import { AUTHED, problems } from "../responses.js";
import { BenchResultsList, BenchResultsParam, ExplainInput, ExplainResult, NamespaceParam, WhoAmI } from "../schemas.js";
import { readFile } from "node:fs/promises";
import { z } from "zod";
import { RamemError } from "../../../model/errors.js";

const whoAmI = createRoute({
  method: "get",
  path: "/v1/me",
  tags: ["meta"],
  summary: "The caller's role and namespaces (what the inspector shows and hides); open says the server answered without a key.",
  responses: { 200: { description: "The caller", content: { "application/json": { schema: WhoAmI } } }, ...problems(401) },
});

const explainRecall = createRoute({
  method: "post",
  path: "/v1/namespaces/{ns}/recall/explain",
  tags: ["recall"],
  summary: "Recall with everything the recall debugger shows: each frame condition and why it is (not) used, C_ctx, the hits, the content-only ranking beside them, the evidence pack as ask gives it to the generator. Needs read.",
  request: { params: NamespaceParam, body: { content: { "application/json": { schema: ExplainInput } }, required: true } },
  responses: { 200: { description: "The explained recall", content: { "application/json": { schema: ExplainResult } } }, ...problems(...AUTHED, 413) },
});

const listBenchResults = createRoute({
  method: "get",
  path: "/v1/bench-results",
  tags: ["meta"],
  summary: "The bench report files the server was given (ramem serve --bench-results), for the inspector's benchmark viewer. Any key.",
  responses: { 200: { description: "Files", content: { "application/json": { schema: BenchResultsList } } }, ...problems(401) },
});

const getBenchResults = createRoute({
  method: "get",
  path: "/v1/bench-results/{id}",
  tags: ["meta"],
  summary: "One of those files as it is on disk now (read per request, so a re-run shows). Any key.",
  request: { params: BenchResultsParam },
  responses: { 200: { description: "The file's JSON", content: { "application/json": { schema: z.record(z.string(), z.unknown()) } } }, ...problems(400, 401, 404) },
});

/** The routes the inspector (/ui) needs beyond the rest of the API; any client may use them. */
/** What the debugger says under its two rankings: the scores look alike but are read from different lists. */
export const SCORE_SCALES =
  "Each list scores its hits with an estimate, in [0, 1], that the hit is evidence for the query, read from its rank, how strongly the lexical and dense channels found it, the share of the query's key words it holds and (RaMem's) whether it met the frame's context. Each ranking has its own fit, so both are calibrated (a score of 0.3 is evidence about 30% of the time), but one memory can score differently in the two: its rank differs, and a content-only hit is read without a context. Compare ranks across the lists and scores within one. Whether anything stored answers the query at all is the evidence judgment above, not a score.";

export function registerInspectorRoutes(app: RestApp, deps: RestDeps): void {
  const { memory } = deps;

  app.openapi(whoAmI, (c) => {
    const p = c.get("principal");
    return c.json({ role: p.role, namespaces: p.namespaces === "all" ? ("all" as const) : [...p.namespaces], keyName: p.keyName ?? null, open: p.keyId === null }, 200);
  });

  const benchFiles = deps.benchResults ?? [];
  app.openapi(listBenchResults, (c) => c.json({ files: benchFiles.map((path, id) => ({ id, path })) }, 200));

  app.openapi(getBenchResults, async (c) => {
    const { id } = c.req.valid("param");
    const path = benchFiles[id];
    if (path === undefined) {
      throw new RamemError("BENCH_RESULTS_NOT_FOUND", `the server was given ${benchFiles.length} bench report file(s); there is no number ${id}`, { hint: "list them with GET /v1/bench-results; start the server with --bench-results FILE to add one" });
    }
    let text: string;
    try {
      text = await readFile(path, "utf8");
    } catch (err) {
      throw new RamemError("BENCH_RESULTS_NOT_FOUND", `cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, { hint: "run the benchmark first (npx ramem bench … --out bench-out/NAME), or restart the server with the right --bench-results path" });
    }
    // The file is sent as it is: the viewer checks whether it is a ramem bench report and says so if not.
    return new Response(text, { status: 200, headers: { "content-type": "application/json; charset=utf-8" } }) as never;
  });

  app.openapi(explainRecall, async (c) => {
    const { ns } = c.req.valid("param");
    authorize(c.get("principal"), ns, "read");
    const body = c.req.valid("json");
    const started = performance.now();
    const questionDate = body.questionDate ? new Date(body.questionDate).toISOString() : undefined;
    const validAt = body.validAt ? new Date(body.validAt).toISOString() : undefined;
    const options = { namespace: ns, k: body.k, ...(questionDate ? { questionDate } : {}), ...(validAt ? { validAt } : {}) };
    // The same library call as POST …/recall, twice: full RaMem and the content-only baseline it is compared with.
    const full = await memory.recall(body.query, options);
    const contentOnly = await memory.recall(body.query, { ...options, switches: CONTENT_ONLY });
    // As askMemory renders it for the generator: rank order, the same token budget rule.
    const pack = renderEvidence(
      [...full.hits].sort((a, b) => a.rank - b.rank).map((h) => h.unit),
      { mode: "context", maxTokens: body.maxTokens, holdsEvidence: full.holdsEvidence },
    );
    const { conditions, cues } = explainFrame(full.frame);
    return c.json(
      {
        namespace: ns,
        query: body.query,
        questionDate: questionDate ?? null,
        validAt: validAt ?? null,
        frame: full.frame,
        conditions,
        cues,
        contextValidIds: full.contextValidIds ?? [],
        holdsEvidence: escapedJudgment(full.holdsEvidence),
        scoreScales: SCORE_SCALES,
        hits: full.hits,
        contentOnly: contentOnly.hits,
        evidence: { text: pack.text, tokens: pack.tokens, unitIds: pack.included.map((u) => u.id), dropped: pack.dropped },
        tookMs: Math.round(performance.now() - started),
      },
      200,
    );
  });
}
