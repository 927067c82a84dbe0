import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { authorize } from "../../auth/middleware.js";
import { actorOf } from "../../auth/principal.js";
import { requireKnownNamespace, type RestApp, type RestDeps } from "../rest-deps.js";
import { AUTHED, problems } from "../responses.js";
import { ImportResult, NamespaceParam } from "../schemas.js";

export const NDJSON = "application/x-ndjson";

const exportRoute = createRoute({
  method: "get",
  path: "/v1/namespaces/{ns}/export",
  tags: ["portability"],
  summary: "Export the namespace as JSONL: a header line, then each session followed by its units with their embeddings. Needs read.",
  request: { params: NamespaceParam },
  responses: { 200: { description: "JSONL export", content: { [NDJSON]: { schema: z.string() } } }, ...problems(...AUTHED, 404) },
});

const importRoute = createRoute({
  method: "post",
  path: "/v1/namespaces/{ns}/import",
  tags: ["portability"],
  summary:
    "Import an export into this (empty) namespace, vectors as given: nothing is re-embedded. The whole file is checked before anything is written; another embedder is refused. Needs write.",
  request: { params: NamespaceParam, body: { content: { [NDJSON]: { schema: z.string() } }, required: true } },
  responses: { 200: { description: "Imported", content: { "application/json": { schema: ImportResult } } }, ...problems(...AUTHED, 409, 413) },
});

export function registerPortabilityRoutes(app: RestApp, deps: RestDeps): void {
  const { memory } = deps;

  app.openapi(exportRoute, async (c) => {
    const { ns } = c.req.valid("param");
    authorize(c.get("principal"), ns, "read");
    await requireKnownNamespace(memory, ns);
    // Memory takes the namespace's write lock: one consistent snapshot, not half of a concurrent append.
    const lines = await memory.exportNamespace(ns);
    // zod-openapi types only JSON bodies; a JSONL body is a plain Response.
    return new Response(`${lines.join("\n")}\n`, {
      status: 200,
      headers: { "content-type": NDJSON, "content-disposition": `attachment; filename="${ns}.ramem.jsonl"` },
    }) as never;
  });

  app.openapi(importRoute, async (c) => {
    const { ns } = c.req.valid("param");
    authorize(c.get("principal"), ns, "write");
    const text = await c.req.text();
    const report = await memory.importNamespace(text, { namespace: ns, source: "body", actor: actorOf(c.get("principal")) });
    return c.json(report, 200);
  });
}
