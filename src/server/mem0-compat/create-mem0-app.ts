import { OpenAPIHono } from "@hono/zod-openapi";
import { bodyLimit } from "hono/body-limit";
import type { MiddlewareHandler } from "hono";
import type { Memory } from "../../memory.js";
import type { MemoryUnit } from "../../model/memory-unit.js";
import type { Role } from "../../store/api-key-contract.js";
import { RamemError } from "../../model/errors.js";
import { echoValue } from "../../model/echo-value.js";
import { parseFilter, type FilterInput } from "../../model/memory-filter.js";
import type { Metadata } from "../../model/metadata.js";
import type { AddMessage } from "../../formats/messages-to-turns.js";
import { decodeUtf8 } from "../../util/decode-utf8.js";
import { newSessionId } from "../../anchoring/choose-session.js";
import type { Authenticate } from "../auth/authenticate.js";
import { authMiddleware, authorize, type AuthEnv } from "../auth/middleware.js";
import { actorOf, roleAllows, type Principal } from "../auth/principal.js";
import { problemOf, problemResponse, validationProblem } from "../rest/problem.js";
import { DEFAULT_MAX_BODY_BYTES } from "../rest/rest-deps.js";
import { metadataWithEntities, namespaceOf, translateFilters, type EntityIds } from "./entities.js";
import { toMem0History, toMem0Memory } from "./to-mem0.js";
import { addRoute, deleteAllRoute, deleteRoute, getAllRoute, getRoute, historyRoute, pingRoute, searchRoute, updateRoute, type AddBody } from "./mem0-schemas.js";
import type { z } from "zod";

export interface Mem0AppDeps {
  /** Every write goes through it (its per-namespace write lock), as on ramem's own routes. */
  memory: Memory;
  authenticate: Authenticate;
  /** Request body limit (default 512 KiB, the REST default). */
  maxBodyBytes?: number;
}

/** The path prefixes this app answers; its middleware is bound to them only, so mounted at "/" it never runs for ramem's own routes. */
export const MEM0_PATHS = ["/v1/ping/", "/v1/memories/*", "/v3/memories/*"] as const;

/**
 * Mem0's platform API over a ramem Memory, for Mem0's own MemoryClient
 * (`new MemoryClient({ apiKey: "rm_...", host: "http://127.0.0.1:8787" })`).
 * Mounted by createRestApp at "/" before its own /v1/* middleware: these
 * handlers answer first, with their own auth, body limit and UTF-8 check.
 * Checks: 401 (key) first; a role too low for the route is a 403 before
 * anything is read; the namespace comes from the body's or query's user_id
 * (else agent_id), so its 403 follows the request's validation, still before
 * any lookup. Unit ids in the path are looked up only in the key's namespaces:
 * another tenant's id is a 404, as on ramem's routes.
 */
export function createMem0App(deps: Mem0AppDeps): OpenAPIHono<AuthEnv> {
  const { memory } = deps;
  const app = new OpenAPIHono<AuthEnv>({
    defaultHook: (result, c) => {
      if (!result.success) return problemResponse(validationProblem(result.error.issues, result.target === "json" ? "body" : result.target, c.req.path));
      return undefined;
    },
  });
  app.openAPIRegistry.registerComponent("securitySchemes", "mem0Token", {
    type: "apiKey",
    in: "header",
    name: "Authorization",
    description: "Mem0's scheme: `Token rm_...` with a ramem API key (`Bearer rm_...` works too)",
  });
  const maxBody = deps.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  for (const path of MEM0_PATHS) {
    app.use(path, authMiddleware(deps.authenticate));
    app.use(path, limit(maxBody));
    app.use(path, utf8Body());
  }

  app.openapi(pingRoute, (c) => {
    const p = c.get("principal");
    return c.json(
      {
        status: "ok" as const,
        message: `ramem: this key (${p.keyName ?? p.keyId ?? "local"}) has role ${p.role}`,
        org_id: null,
        project_id: null,
        user_email: null,
        role: p.role,
        namespaces: p.namespaces === "all" ? ("all" as const) : [...p.namespaces],
      },
      200,
    );
  });

  app.openapi(addRoute, async (c) => {
    const body = c.req.valid("json");
    const ids = entityIds(body);
    const namespace = namespaceOf(ids, memory.defaultNamespace, "body");
    authorize(c.get("principal"), namespace, "write");
    refuseUnhonoured(body.expiration_date, "body.expiration_date", "ramem memories do not expire: forget them with DELETE /v1/memories/{memory_id}/");
    if (body.immutable === true) refuseUnhonoured(true, "body.immutable", "ramem memories can always be corrected by a write key; leave immutable out");
    const metadata = metadataWithEntities((body.metadata ?? undefined) as Metadata | undefined, ids);
    const report = await memory.add(toMessages(body), {
      namespace,
      actor: actorOf(c.get("principal")),
      sessionId: ids.run_id ?? (await sessionWithoutRun(memory, namespace, new Date())),
      metadata,
    });
    const units = await memory.store.getUnits(namespace, report.unitIds);
    return c.json(
      {
        results: units.map((u) => ({ ...toMem0Memory(u), event: "ADD" as const })),
        // Mem0's platform queues the write and answers PENDING; ramem has stored it before answering.
        status: "SUCCEEDED" as const,
        message: `stored ${units.length} memor${units.length === 1 ? "y" : "ies"} in namespace ${namespace}, session ${report.sessionId}`,
      },
      200,
    );
  });

  app.openapi(searchRoute, async (c) => {
    const body = c.req.valid("json");
    const filters = body.metadata ? (body.filters ? { AND: [body.filters, { metadata: body.metadata }] } : { metadata: body.metadata }) : body.filters;
    const { ids, filter } = translateFilters(filters, entityIds(body), "body.filters");
    const namespace = namespaceOf(ids, memory.defaultNamespace, "body.filters");
    authorize(c.get("principal"), namespace, "read");
    const outcome = await memory.recall(body.query, {
      namespace,
      k: body.top_k ?? 10,
      ...(filter ? { filter } : {}),
      ...(body.threshold ? { minScore: body.threshold } : {}),
    });
    return c.json({ results: outcome.hits.map((h) => ({ ...toMem0Memory(h.unit), score: h.score })) }, 200);
  });

  app.openapi(getAllRoute, async (c) => {
    const body = c.req.valid("json");
    const { page, page_size } = c.req.valid("query");
    const { ids, filter } = translateFilters(body.filters, entityIds(body), "body.filters");
    const namespace = namespaceOf(ids, memory.defaultNamespace, "body.filters");
    authorize(c.get("principal"), namespace, "read");
    const range = {
      ...(body.start_date ? { gte: body.start_date } : {}),
      ...(body.end_date ? { lte: body.end_date } : {}),
    };
    const parts = [filter, Object.keys(range).length > 0 ? { createdAt: range } : undefined].filter((f): f is FilterInput => f !== undefined);
    const where = parts.length === 0 ? undefined : parseFilter(parts.length === 1 ? parts[0] : { AND: parts }, "body.filters");
    const narrow = where ? { where } : {};
    const offset = (page - 1) * page_size;
    const [units, count] = await Promise.all([memory.store.listUnits(namespace, { ...narrow, limit: page_size, offset }), memory.store.countUnits(namespace, narrow)]);
    const pageUrl = (n: number) => {
      const url = new URL(c.req.url);
      url.searchParams.set("page", String(n));
      url.searchParams.set("page_size", String(page_size));
      return url.toString();
    };
    return c.json(
      {
        count,
        next: offset + units.length < count && units.length > 0 ? pageUrl(page + 1) : null,
        previous: page > 1 ? pageUrl(page - 1) : null,
        results: units.map(toMem0Memory),
      },
      200,
    );
  });

  app.openapi(getRoute, async (c) => {
    const { memory_id } = c.req.valid("param");
    const principal = c.get("principal");
    requireRole(principal, "read");
    const unit = await findUnit(memory, principal, memory_id);
    if (!unit) throw notFound(memory_id);
    return c.json(toMem0Memory(unit), 200);
  });

  app.openapi(updateRoute, async (c) => {
    const { memory_id } = c.req.valid("param");
    const principal = c.get("principal");
    requireRole(principal, "write");
    const body = c.req.valid("json");
    refuseUnhonoured(body.metadata, "body.metadata", "ramem keeps the metadata a memory was added with; send text only");
    refuseUnhonoured(body.timestamp, "body.timestamp", "a memory keeps the time it was said; send text only");
    refuseUnhonoured(body.expiration_date, "body.expiration_date", "ramem memories do not expire; send text only");
    if (body.text === undefined) {
      throw new RamemError("VALIDATION_FAILED", "body.text: the corrected text is required", { hint: 'send {"text": "..."}; nothing was changed' });
    }
    const unit = await findUnit(memory, principal, memory_id);
    if (!unit) throw notFound(memory_id);
    const updated = await memory.update(memory_id, { text: body.text }, { namespace: unit.namespace, actor: actorOf(principal) });
    return c.json({ ...toMem0Memory(updated), text: updated.content }, 200);
  });

  app.openapi(deleteRoute, async (c) => {
    const { memory_id } = c.req.valid("param");
    const principal = c.get("principal");
    requireRole(principal, "write");
    if (c.req.valid("query").delete_linked === "true") {
      refuseUnhonoured(true, "query.delete_linked", "ramem keeps what a memory superseded as separate memories: delete each by id");
    }
    const unit = await findUnit(memory, principal, memory_id);
    if (!unit || !(await memory.forgetUnit(memory_id, { namespace: unit.namespace, actor: actorOf(principal) }))) throw notFound(memory_id);
    return c.json({ message: "Memory deleted successfully!" }, 200);
  });

  app.openapi(deleteAllRoute, async (c) => {
    const ids: EntityIds = c.req.valid("query");
    const principal = c.get("principal");
    if (!ids.user_id && !ids.agent_id && !ids.run_id && !ids.app_id) {
      throw new RamemError("VALIDATION_FAILED", "query: give user_id, agent_id, run_id or app_id", { hint: "delete-all needs at least one of them, as on Mem0's platform; nothing was deleted" });
    }
    const namespace = namespaceOf(ids, memory.defaultNamespace, "query");
    const actor = actorOf(principal);
    // Conditions beyond the namespace: agent_id when user_id chose the namespace, app_id.
    const conditions: FilterInput[] = [];
    if (ids.agent_id && ids.user_id) conditions.push({ "metadata.agent_id": ids.agent_id });
    if (ids.app_id) conditions.push({ "metadata.app_id": ids.app_id });
    if (conditions.length === 0 && !ids.run_id) {
      // Only the namespace's id: the whole namespace goes, which ramem keeps for admin keys (DELETE /v1/namespaces/{ns}).
      authorize(principal, namespace, "admin");
      const deleted = await memory.forgetNamespace(namespace, { actor });
      return c.json({ message: `Memories deleted successfully! (${deleted} in namespace ${namespace})` }, 200);
    }
    authorize(principal, namespace, "write");
    if (conditions.length === 0 && ids.run_id) {
      const deleted = await memory.forgetSession(ids.run_id, { namespace, actor });
      return c.json({ message: `Memories deleted successfully! (${deleted} of run ${ids.run_id})` }, 200);
    }
    if (ids.run_id) conditions.push({ sessionId: ids.run_id });
    const where = parseFilter(conditions.length === 1 ? conditions[0] : { AND: conditions }, "query");
    let deleted = 0;
    // One forget per unit, each through Memory (its lock, history and scrub); pages are re-read from 0 because each pass removes what it read.
    for (;;) {
      const batch = await memory.store.listUnits(namespace, { where, limit: 500, offset: 0 });
      let pass = 0;
      for (const u of batch) if (await memory.forgetUnit(u.id, { namespace, actor })) pass++;
      deleted += pass;
      // A pass that removed nothing would read the same page again (a concurrent forget took them): stop.
      if (batch.length === 0 || pass === 0) break;
    }
    return c.json({ message: `Memories deleted successfully! (${deleted})` }, 200);
  });

  app.openapi(historyRoute, async (c) => {
    const { memory_id } = c.req.valid("param");
    const principal = c.get("principal");
    requireRole(principal, "read");
    const unit = await findUnit(memory, principal, memory_id);
    if (unit) return c.json(toMem0History(await memory.history(memory_id, { namespace: unit.namespace }), toMem0Memory(unit).user_id), 200);
    // A forgotten memory keeps its history (without its text): look for it in the key's namespaces.
    for (const namespace of await candidateNamespaces(memory, principal)) {
      const events = await memory.history(memory_id, { namespace });
      if (events.length > 0) return c.json(toMem0History(events, namespace), 200);
    }
    throw notFound(memory_id);
  });

  return app;
}

/**
 * The session of an add without run_id: Memory.add's own rule (the latest
 * session unless idle for `idleMinutes`, else a new one), among the sessions
 * no run_id made — left to Memory.add, the messages could continue a run's
 * session and then read as part of that run. Chosen outside the write lock:
 * two concurrent adds may start two sessions, which loses nothing.
 */
async function sessionWithoutRun(memory: Memory, namespace: string, now: Date): Promise<string> {
  let latest: { id: string; end: number } | null = null;
  for (const s of await memory.store.listSessions(namespace)) {
    if (typeof s.metadata?.run_id === "string") continue;
    const end = Date.parse(s.endTime);
    if (!latest || end > latest.end) latest = { id: s.id, end };
  }
  return latest && now.getTime() - latest.end <= memory.idleMinutes * 60_000 ? latest.id : newSessionId(now);
}

function entityIds(body: EntityIds): EntityIds {
  return { user_id: body.user_id, agent_id: body.agent_id, run_id: body.run_id, app_id: body.app_id };
}

/** Mem0's messages (a string, or messages whose content may be one part) as Memory.add takes them; `timestamp` dates those without a time. */
function toMessages(body: z.infer<typeof AddBody>): AddMessage[] {
  const list = typeof body.messages === "string" ? [{ role: "user", content: body.messages }] : body.messages;
  const createdAt = body.timestamp === undefined || body.timestamp === null ? undefined : timestampIso(body.timestamp);
  return list.map((m) => {
    const content = typeof m.content === "object" && !Array.isArray(m.content) ? [m.content] : m.content;
    return { ...m, content, ...(createdAt && m.createdAt === undefined ? { createdAt } : {}) } as unknown as AddMessage;
  });
}

function timestampIso(t: number | string): string {
  // Mem0 takes Unix seconds; an ISO string is accepted as well.
  const ms = typeof t === "number" ? t * 1000 : /^\d+(\.\d+)?$/.test(t) ? Number(t) * 1000 : Date.parse(t);
  if (!Number.isFinite(ms)) {
    throw new RamemError("VALIDATION_FAILED", `body.timestamp: ${echoValue(String(t))} is neither Unix seconds nor an ISO 8601 date-time`, { hint: "e.g. 1715000000 or 2024-05-06T12:53:20Z; nothing was stored" });
  }
  return new Date(ms).toISOString();
}

function refuseUnhonoured(value: unknown, where: string, hint: string): void {
  if (value === undefined || value === null) return;
  throw new RamemError("VALIDATION_FAILED", `${where}: not supported by ramem's Mem0-compatible API`, { hint: `${hint}; nothing was changed` });
}

/** The role check of a route whose namespace is only known after a lookup: refused before anything is read. */
function requireRole(principal: Principal, needs: Role): void {
  if (!roleAllows(principal.role, needs)) {
    throw new RamemError("FORBIDDEN", `this API key has role ${principal.role}; this call needs ${needs}`, { hint: `use a key with role ${needs} or higher` });
  }
}

/** The namespaces a path's unit id is looked for in: the key's grant (all namespaces that hold data for the local admin). */
async function candidateNamespaces(memory: Memory, principal: Principal): Promise<readonly string[]> {
  return principal.namespaces === "all" ? memory.store.listNamespaces() : principal.namespaces;
}

/** Mem0's paths carry no namespace: a unit id is found in the key's namespaces or not at all (ids are derived from the namespace, so at most one holds it). */
async function findUnit(memory: Memory, principal: Principal, unitId: string): Promise<MemoryUnit | null> {
  for (const namespace of await candidateNamespaces(memory, principal)) {
    const [unit] = await memory.store.getUnits(namespace, [unitId]);
    if (unit) return unit;
  }
  return null;
}

function notFound(unitId: string): RamemError {
  return new RamemError("UNIT_NOT_FOUND", `no memory ${echoValue(unitId)} in this key's namespaces`, { hint: "list memories with POST /v3/memories/ (filters: {user_id})" });
}

function limit(maxSize: number): MiddlewareHandler<AuthEnv> {
  return bodyLimit({
    maxSize,
    onError: (c) =>
      problemResponse(
        problemOf(new RamemError("PAYLOAD_TOO_LARGE", `the request body is over the limit of ${maxSize} bytes`, { hint: "send fewer messages per add, or start the server with a larger --max-body; nothing was stored" }), c.req.path),
        // The rest of the body is never read: tell the client not to reuse this connection.
        { connection: "close" },
      ),
  });
}

/** As on ramem's routes: a body that is not UTF-8 is refused naming its first bad byte, before a JSON parser would replace it. */
function utf8Body(): MiddlewareHandler<AuthEnv> {
  return async (c, next) => {
    if (c.req.method === "POST" || c.req.method === "PUT" || c.req.method === "PATCH") decodeUtf8(new Uint8Array(await c.req.arrayBuffer()), "body");
    await next();
  };
}
