import { createRoute } from "@hono/zod-openapi";
import { authorize } from "../../auth/middleware.js";
import { CONTENT_ONLY } from "../../../retrieval/recall-pipeline.js";
import { escapeStoredText } from "../../../language/escape-stored-text.js";
import type { RestApp, RestDeps } from "../rest-deps.js";
import { escapedJudgment } from "../../../retrieval/judge-evidence.js";
import { AUTHED, problems } from "../responses.js";
import { AskInput, AskResult, NamespaceParam, RecallInput, RecallResult } from "../schemas.js";

export const NO_LLM_NOTE =
  "no LLM is configured on this server (RAMEM_LLM_MODEL): answer is null; evidence.text is the context-preserved evidence pack to give your own model";

const recall = createRoute({
  method: "post",
  path: "/v1/namespaces/{ns}/recall",
  tags: ["recall"],
  summary: "Recall units for a query: the induced recall frame, and per unit why it is there. Needs read.",
  request: { params: NamespaceParam, body: { content: { "application/json": { schema: RecallInput } }, required: true } },
  responses: { 200: { description: "Frame and hits", content: { "application/json": { schema: RecallResult } } }, ...problems(...AUTHED, 413) },
});

const ask = createRoute({
  method: "post",
  path: "/v1/namespaces/{ns}/ask",
  tags: ["recall"],
  summary: "Recall, then answer from the evidence pack with the server's LLM (answer null without one). Needs read.",
  request: { params: NamespaceParam, body: { content: { "application/json": { schema: AskInput } }, required: true } },
  responses: { 200: { description: "Answer and evidence", content: { "application/json": { schema: AskResult } } }, ...problems(...AUTHED, 404, 413) },
});

export function registerRecallRoutes(app: RestApp, deps: RestDeps): void {
  const { memory } = deps;

  app.openapi(recall, async (c) => {
    const { ns } = c.req.valid("param");
    authorize(c.get("principal"), ns, "read");
    const body = c.req.valid("json");
    // An empty namespace answers as the library does: no hits (a 404 would tell a caller nothing it can act on).
    const { frame, hits, frameRefinement, holdsEvidence } = await memory.recall(body.query, {
      namespace: ns,
      k: body.k,
      ...(body.filter ? { filter: body.filter } : {}),
      ...(body.minScore !== undefined ? { minScore: body.minScore } : {}),
      ...(body.questionDate ? { questionDate: new Date(body.questionDate).toISOString() } : {}),
      ...(body.validAt ? { validAt: new Date(body.validAt).toISOString() } : {}),
      ...(body.contentOnly ? { switches: CONTENT_ONLY } : {}),
      ...(body.llmFrame ? { llmFrame: true } : {}),
    });
    // Structured fields stay as stored, for programs; the notes and the warning are sentences for a reader (a model, often) and quote stored names and the model's own words, so they are escaped like the evidence pack.
    const shownFrame = frame ? { ...frame, notes: frame.notes.map(escapeStoredText) } : frame;
    const refinement = frameRefinement ? { ...frameRefinement, ...(frameRefinement.warning !== undefined ? { warning: escapeStoredText(frameRefinement.warning) } : {}) } : undefined;
    return c.json({ namespace: ns, query: body.query, frame: shownFrame, ...(refinement ? { frameRefinement: refinement } : {}), holdsEvidence: escapedJudgment(holdsEvidence), hits }, 200);
  });

  app.openapi(ask, async (c) => {
    const { ns } = c.req.valid("param");
    authorize(c.get("principal"), ns, "read");
    const body = c.req.valid("json");
    const result = await memory.ask(body.question, {
      namespace: ns,
      k: body.k,
      maxTokens: body.maxTokens,
      ...(body.questionDate ? { questionDate: new Date(body.questionDate).toISOString() } : {}),
      ...(body.llmFrame ? { llmFrame: true } : {}),
      abstain: body.abstain,
    });
    return c.json(
      {
        namespace: ns,
        question: result.question,
        // The model read stored text and may repeat it: what it says is escaped like MCP's answer, for whoever reads it next.
        answer: result.answer === null ? null : escapeStoredText(result.answer),
        abstained: result.abstained,
        holdsEvidence: escapedJudgment(result.holdsEvidence),
        llmConfigured: result.llmConfigured,
        ...(result.llmConfigured || result.abstained ? {} : { note: NO_LLM_NOTE }),
        cited: result.cited,
        evidence: {
          text: result.evidence.text,
          tokens: result.evidence.tokens,
          unitIds: result.evidence.included.map((u) => u.id),
          dropped: result.evidence.dropped,
        },
        hits: result.hits,
      },
      200,
    );
  });
}
