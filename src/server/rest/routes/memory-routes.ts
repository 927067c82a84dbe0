import { createRoute } from "@hono/zod-openapi";
import { RamemError } from "../../../model/errors.js";
import { MemoryUnit } from "../../../model/memory-unit.js";
import { authorize } from "../../auth/middleware.js";
import { requireKnownNamespace, type RestApp, type RestDeps } from "../rest-deps.js";
import { AUTHED, problems } from "../responses.js";
import { AddInput, AddResult, Deleted, HistoryResult, ListQuery, MemoryList, NamespaceParam, SupersessionInput, UnitParams, UpdateInput, ValidityResult } from "../schemas.js";
import { actorOf } from "../../auth/principal.js";
import { parseFilter } from "../../../model/memory-filter.js";
import { parseJson } from "../../../formats/shared.js";
import { echoValue } from "../../../model/echo-value.js";
import { namespaceValidity } from "../../../anchoring/namespace-validity.js";
import { decodeCursor, nextCursorAfter } from "../../../model/page-cursor.js";

const listMemories = createRoute({
  method: "get",
  path: "/v1/namespaces/{ns}/memories",
  tags: ["memories"],
  summary: "List memory units, filtered by session, participant and session time range, in conversation order; page with cursor and nextCursor (offset still works). Needs read.",
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

const updateMemory = createRoute({
  method: "patch",
  path: "/v1/namespaces/{ns}/memories/{unitId}",
  tags: ["memories"],
  summary: "Correct one unit's text: it is anchored and embedded again (same id, same place); the old text goes to its history. Needs write.",
  request: { params: UnitParams, body: { content: { "application/json": { schema: UpdateInput } }, required: true } },
  responses: { 200: { description: "The updated unit", content: { "application/json": { schema: MemoryUnit } } }, ...problems(...AUTHED, 404, 409, 413) },
});

const memoryHistory = createRoute({
  method: "get",
  path: "/v1/namespaces/{ns}/memories/{unitId}/history",
  tags: ["memories"],
  summary: "What happened to a unit (created, updated, superseded, forgotten), when and by which key; oldest first. Needs read.",
  request: { params: UnitParams },
  responses: { 200: { description: "Events", content: { "application/json": { schema: HistoryResult } } }, ...problems(...AUTHED, 404) },
});

const memoryValidity = createRoute({
  method: "get",
  path: "/v1/namespaces/{ns}/memories/{unitId}/validity",
  tags: ["memories"],
  summary: "When the state a unit states held and what superseded it (derived from later statements, or a user's correction). Needs read.",
  request: { params: UnitParams },
  responses: { 200: { description: "Validity", content: { "application/json": { schema: ValidityResult } } }, ...problems(...AUTHED, 404) },
});

const setSupersessionRoute = createRoute({
  method: "put",
  path: "/v1/namespaces/{ns}/memories/{unitId}/supersession",
  tags: ["memories"],
  summary: "Correct what supersedes a unit: another unit of the namespace, or null (not superseded). Cycles are refused (409). Needs write.",
  request: { params: UnitParams, body: { content: { "application/json": { schema: SupersessionInput } }, required: true } },
  responses: { 200: { description: "The corrected unit", content: { "application/json": { schema: MemoryUnit } } }, ...problems(...AUTHED, 404, 409) },
});

const addMessages = createRoute({
  method: "post",
  path: "/v1/namespaces/{ns}/messages",
  tags: ["memories"],
  summary: "Store chat messages ({role, content}) as they happen; without sessionId the latest session is continued unless idle, else a new one starts. Needs write.",
  request: { params: NamespaceParam, body: { content: { "application/json": { schema: AddInput } }, required: true } },
  responses: { 200: { description: "Where they went", content: { "application/json": { schema: AddResult } } }, ...problems(...AUTHED, 409, 413) },
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
    const where = q.filter === undefined ? undefined : parseFilter(parseJson(q.filter, "query.filter"), "query.filter");
    // offset has a default, so only the raw query says whether the caller also sent one.
    if (q.cursor !== undefined && c.req.query("offset") !== undefined) {
      throw new RamemError("VALIDATION_FAILED", "query.cursor: give cursor or offset, not both", { hint: "page with the nextCursor of the previous page alone" });
    }
    const offset = q.cursor === undefined ? q.offset : decodeCursor(q.cursor, "query.cursor");
    await requireKnownNamespace(memory, ns);
    // The namespace comes from the path only: no filter can widen it.
    const filter = {
      ...(q.session ? { sessionId: q.session } : {}),
      ...(q.participant ? { participant: q.participant } : {}),
      ...(q.from ? { from: q.from } : {}),
      ...(q.to ? { to: q.to } : {}),
      ...(where ? { where } : {}),
    };
    const [listed, total] = await Promise.all([memory.store.listUnits(ns, { ...filter, limit: q.limit, offset }), memory.store.countUnits(ns, filter)]);
    // Derived once per namespace and cached while its sessions are unchanged (namespaceValidity), as recall does.
    const validity = q.validity === "true" ? (await namespaceValidity(memory.store, ns, await memory.store.listSessions(ns))).validity : null;
    const memories = validity ? listed.map((u) => (validity.has(u.id) ? { ...u, validity: validity.get(u.id)! } : u)) : listed;
    return c.json({ namespace: ns, memories, total, limit: q.limit, offset, nextCursor: nextCursorAfter(offset, listed.length, total) }, 200);
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
    const ok = await memory.forgetUnit(unitId, { namespace: ns, actor: actorOf(c.get("principal")) });
    if (!ok) throw unitNotFound(ns, unitId);
    return c.json({ deleted: 1 }, 200);
  });

  app.openapi(updateMemory, async (c) => {
    const { ns, unitId } = c.req.valid("param");
    authorize(c.get("principal"), ns, "write");
    const { text } = c.req.valid("json");
    return c.json(await memory.update(unitId, { text }, { namespace: ns, actor: actorOf(c.get("principal")) }), 200);
  });

  app.openapi(memoryHistory, async (c) => {
    const { ns, unitId } = c.req.valid("param");
    authorize(c.get("principal"), ns, "read");
    const events = await memory.history(unitId, { namespace: ns });
    if (events.length === 0 && !(await memory.get(unitId, { namespace: ns }))) throw unitNotFound(ns, unitId);
    return c.json({ namespace: ns, unitId, events }, 200);
  });

  app.openapi(memoryValidity, async (c) => {
    const { ns, unitId } = c.req.valid("param");
    authorize(c.get("principal"), ns, "read");
    if (!(await memory.get(unitId, { namespace: ns }))) throw unitNotFound(ns, unitId);
    return c.json({ namespace: ns, unitId, validity: await memory.validity(unitId, { namespace: ns }) }, 200);
  });

  app.openapi(setSupersessionRoute, async (c) => {
    const { ns, unitId } = c.req.valid("param");
    authorize(c.get("principal"), ns, "write");
    const { supersededBy } = c.req.valid("json");
    const actor = { namespace: ns, actor: actorOf(c.get("principal")) };
    return c.json(supersededBy === null ? await memory.unsupersede(unitId, actor) : await memory.supersede(unitId, supersededBy, actor), 200);
  });

  app.openapi(addMessages, async (c) => {
    const { ns } = c.req.valid("param");
    authorize(c.get("principal"), ns, "write");
    const body = c.req.valid("json");
    const report = await memory.add(body.messages as never, {
      namespace: ns,
      actor: actorOf(c.get("principal")),
      ...(body.sessionId ? { sessionId: body.sessionId } : {}),
      ...(body.metadata ? { metadata: body.metadata } : {}),
    });
    const { sessionId, sessionChoice, created, turnIds, unitIds } = report;
    return c.json({ namespace: ns, sessionId, sessionChoice, created, turnIds, unitIds }, 200);
  });
}

function unitNotFound(ns: string, unitId: string): RamemError {
  return new RamemError("UNIT_NOT_FOUND", `namespace ${echoValue(ns)} has no memory unit ${echoValue(unitId)}`, {
    hint: `list units with GET /v1/namespaces/${ns}/memories`,
  });
}
