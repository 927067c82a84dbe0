import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { authorize } from "../../auth/middleware.js";
import { actorOf } from "../../auth/principal.js";
import { requireKnownNamespace, type RestApp, type RestDeps } from "../rest-deps.js";
import { AUTHED, problems } from "../responses.js";
import { Deleted, NamespaceParam, Stats } from "../schemas.js";

const listNamespaces = createRoute({
  method: "get",
  path: "/v1/namespaces",
  tags: ["namespaces"],
  summary: "The namespaces this key may read that hold data.",
  responses: {
    200: { description: "Namespaces", content: { "application/json": { schema: z.object({ namespaces: z.array(z.string()) }) } } },
    ...problems(401),
  },
});

const stats = createRoute({
  method: "get",
  path: "/v1/namespaces/{ns}/stats",
  tags: ["namespaces"],
  summary: "Sessions, units, embedder and time range of a namespace. Needs read.",
  request: { params: NamespaceParam },
  responses: { 200: { description: "Stats", content: { "application/json": { schema: Stats } } }, ...problems(...AUTHED, 404) },
});

const deleteNamespace = createRoute({
  method: "delete",
  path: "/v1/namespaces/{ns}",
  tags: ["namespaces"],
  summary: "Delete a whole namespace: every session and unit, from every index. Needs admin.",
  request: { params: NamespaceParam },
  responses: { 200: { description: "Deleted", content: { "application/json": { schema: Deleted } } }, ...problems(...AUTHED, 404) },
});

export function registerNamespaceRoutes(app: RestApp, deps: RestDeps): void {
  const { memory } = deps;

  app.openapi(listNamespaces, async (c) => {
    const principal = c.get("principal");
    const all = await memory.store.listNamespaces();
    // Filtered by the grant before it leaves: a key never sees another tenant's names.
    const namespaces = principal.namespaces === "all" ? all : all.filter((ns) => principal.namespaces.includes(ns));
    return c.json({ namespaces }, 200);
  });

  app.openapi(stats, async (c) => {
    const { ns } = c.req.valid("param");
    authorize(c.get("principal"), ns, "read");
    await requireKnownNamespace(memory, ns);
    const s = await memory.store.stats(ns);
    const range = await memory.store.historyRange(ns);
    return c.json({ namespace: ns, sessions: s.sessions, units: s.units, embedder: s.embedder, dimensions: s.dimensions, range }, 200);
  });

  app.openapi(deleteNamespace, async (c) => {
    const { ns } = c.req.valid("param");
    authorize(c.get("principal"), ns, "admin");
    await requireKnownNamespace(memory, ns);
    const deleted = await memory.forgetNamespace(ns, { actor: actorOf(c.get("principal")) });
    return c.json({ deleted }, 200);
  });
}
