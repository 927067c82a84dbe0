import { createRoute } from "@hono/zod-openapi";
import { authorize } from "../../auth/middleware.js";
import { CONTENT_ONLY } from "../../../retrieval/recall-pipeline.js";
import { renderEvidence } from "../../../synthesis/render-evidence.js";
import { explainFrame } from "../../operations/explain-frame.js";
import type { RestApp, RestDeps } from "../rest-deps.js";
import { AUTHED, problems } from "../responses.js";
import { ExplainInput, ExplainResult, NamespaceParam, WhoAmI } from "../schemas.js";

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

/** The routes the inspector (/ui) needs beyond the rest of the API; any client may use them. */
export function registerInspectorRoutes(app: RestApp, deps: RestDeps): void {
  const { memory } = deps;

  app.openapi(whoAmI, (c) => {
    const p = c.get("principal");
    return c.json({ role: p.role, namespaces: p.namespaces === "all" ? ("all" as const) : [...p.namespaces], keyName: p.keyName ?? null, open: p.keyId === null }, 200);
  });

  app.openapi(explainRecall, async (c) => {
    const { ns } = c.req.valid("param");
    authorize(c.get("principal"), ns, "read");
    const body = c.req.valid("json");
    const started = performance.now();
    const questionDate = body.questionDate ? new Date(body.questionDate).toISOString() : undefined;
    const options = { namespace: ns, k: body.k, ...(questionDate ? { questionDate } : {}) };
    // The same library call as POST …/recall, twice: full RaMem and the content-only baseline it is compared with.
    const full = await memory.recall(body.query, options);
    const contentOnly = await memory.recall(body.query, { ...options, switches: CONTENT_ONLY });
    // As askMemory renders it for the generator: rank order, the same token budget rule.
    const pack = renderEvidence(
      [...full.hits].sort((a, b) => a.rank - b.rank).map((h) => h.unit),
      { mode: "context", maxTokens: body.maxTokens },
    );
    const { conditions, cues } = explainFrame(full.frame);
    return c.json(
      {
        namespace: ns,
        query: body.query,
        questionDate: questionDate ?? null,
        frame: full.frame,
        conditions,
        cues,
        contextValidIds: full.contextValidIds ?? [],
        hits: full.hits,
        contentOnly: contentOnly.hits,
        evidence: { text: pack.text, tokens: pack.tokens, unitIds: pack.included.map((u) => u.id), dropped: pack.dropped },
        tookMs: Math.round(performance.now() - started),
      },
      200,
    );
  });
}
