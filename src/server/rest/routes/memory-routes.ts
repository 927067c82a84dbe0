import { createRoute } from "@hono/zod-openapi";
import { RamemError } from "../../../model/errors.js";
import { MemoryUnit } from "../../../model/memory-unit.js";
import { authorize } from "../../auth/middleware.js";
import { requireKnownNamespace, type RestApp, type RestDeps } from "../rest-deps.js";
import { AUTHED, problems } from "../responses.js";
import { Deleted, ListQuery, MemoryList, NamespaceParam, UnitParams } from "../schemas.js";
import { echoValue } from "../../../model/echo-value.js";

const listMemories = createRoute({
  method: "get",
  path: "/v1/namespaces/{ns}/memories",
  tags: ["memories"],
  summary: "List memory units, filtered by session, participant and session time range, in conversation order. Needs read.",
  request: { params: NamespaceParam, query: ListQuery },
  responses: { 200: { description: "Units", content: { "application/json": { schema: MemoryList } } }, ...problems(...AUTHED, 404) },
});

const getMemory = createRoute({
  method: "get",
  path: "/v1/namespaces/{ns}/memories/{unitId}",
  tags: ["memories"],
  summary: "One memory unit of this namespace. Needs read.",
  request: { params: UnitParams },
  responses: { 200: { description: "The unit", content: { "application/json": { schema: MemoryUnit } } }, ...problems(...AUTHED, 404) },
});

const deleteMemory = createRoute({
  method: "delete",
  path: "/v1/namespaces/{ns}/memories/{unitId}",
  tags: ["memories"],
  summary: "Delete one unit from every index (vector, full-text, table); its words are also cleared from its neighbours' search cues. Needs write.",
  request: { params: UnitParams },
  responses: { 200: { description: "Deleted", content: { "application/json": { schema: Deleted } } }, ...problems(...AUTHED, 404) },
});

export function registerMemoryRoutes(app: RestApp, deps: RestDeps): void {
  const { memory } = deps;

  app.openapi(listMemories, async (c) => {
    const { ns } = c.req.valid("param");
    authorize(c.get("principal"), ns, "read");
    const q = c.req.valid("query");
    if (q.from && q.to && Date.parse(q.from) >= Date.parse(q.to)) {
      throw new RamemError("VALIDATION_FAILED", `query.to: ${q.to} is not after from ${q.from}`, { hint: "the range is [from, to): give a to later than from" });
    }
    await requireKnownNamespace(memory, ns);
    // The namespace comes from the path only: no filter can widen it.
    const memories = await memory.store.listUnits(ns, {
      ...(q.session ? { sessionId: q.session } : {}),
      ...(q.participant ? { participant: q.participant } : {}),
      ...(q.from ? { from: q.from } : {}),
      ...(q.to ? { to: q.to } : {}),
      limit: q.limit,
      offset: q.offset,
    });
    return c.json({ namespace: ns, memories, limit: q.limit, offset: q.offset }, 200);
  });

  app.openapi(getMemory, async (c) => {
    const { ns, unitId } = c.req.valid("param");
    authorize(c.get("principal"), ns, "read");
    // getUnits is namespace-scoped: an id from another namespace is simply not found.
    const [unit] = await memory.store.getUnits(ns, [unitId]);
    if (!unit) throw unitNotFound(ns, unitId);
    return c.json(unit, 200);
  });

  app.openapi(deleteMemory, async (c) => {
    const { ns, unitId } = c.req.valid("param");
    authorize(c.get("principal"), ns, "write");
    const ok = await memory.forgetUnit(unitId, { namespace: ns });
    if (!ok) throw unitNotFound(ns, unitId);
    return c.json({ deleted: 1 }, 200);
  });
}

function unitNotFound(ns: string, unitId: string): RamemError {
  return new RamemError("UNIT_NOT_FOUND", `namespace ${echoValue(ns)} has no memory unit ${echoValue(unitId)}`, {
    hint: `list units with GET /v1/namespaces/${ns}/memories`,
  });
}
