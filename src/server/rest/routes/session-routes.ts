import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { RamemError } from "../../../model/errors.js";
import { authorize } from "../../auth/middleware.js";
import { actorOf } from "../../auth/principal.js";
import { checkSession, isoNormalize, toTurns } from "../../operations/build-session.js";
import { requireKnownNamespace, type RestApp, type RestDeps } from "../rest-deps.js";
import { AUTHED, problems } from "../responses.js";
import { AppendInput, Deleted, IngestResult, NamespaceParam, SessionInput, SessionParams, StoredSessionOut } from "../schemas.js";
import { echoValue } from "../../../model/echo-value.js";

const json = <T extends z.ZodType>(schema: T) => ({ content: { "application/json": { schema } }, required: true });

const putSession = createRoute({
  method: "put",
  path: "/v1/namespaces/{ns}/sessions/{sessionId}",
  tags: ["sessions"],
  summary: "Ingest a whole session (native format); replaces a session with this id. Needs write.",
  request: { params: SessionParams, body: json(SessionInput) },
  responses: {
    200: { description: "Stored (or unchanged)", content: { "application/json": { schema: IngestResult } } },
    ...problems(...AUTHED, 409, 413),
  },
});

const appendRoute = createRoute({
  method: "post",
  path: "/v1/namespaces/{ns}/sessions/{sessionId}/turns",
  tags: ["sessions"],
  summary: "Append turns to a session (created if missing). Only the new turns are anchored. Needs write.",
  request: { params: SessionParams, body: json(AppendInput) },
  responses: {
    200: { description: "Appended", content: { "application/json": { schema: IngestResult } } },
    ...problems(...AUTHED, 409, 413),
  },
});

const listSessions = createRoute({
  method: "get",
  path: "/v1/namespaces/{ns}/sessions",
  tags: ["sessions"],
  summary: "Sessions of a namespace, oldest first. Needs read.",
  request: { params: NamespaceParam },
  responses: {
    200: { description: "Sessions", content: { "application/json": { schema: z.object({ namespace: z.string(), sessions: z.array(StoredSessionOut) }) } } },
    ...problems(...AUTHED, 404),
  },
});

const getSession = createRoute({
  method: "get",
  path: "/v1/namespaces/{ns}/sessions/{sessionId}",
  tags: ["sessions"],
  summary: "One session. Needs read.",
  request: { params: SessionParams },
  responses: { 200: { description: "The session", content: { "application/json": { schema: StoredSessionOut } } }, ...problems(...AUTHED, 404) },
});

const deleteSession = createRoute({
  method: "delete",
  path: "/v1/namespaces/{ns}/sessions/{sessionId}",
  tags: ["sessions"],
  summary: "Delete a session and all its units from every index. Needs write.",
  request: { params: SessionParams },
  responses: { 200: { description: "Deleted", content: { "application/json": { schema: Deleted } } }, ...problems(...AUTHED, 404) },
});

export function registerSessionRoutes(app: RestApp, deps: RestDeps): void {
  const { memory } = deps;

  app.openapi(putSession, async (c) => {
    const { ns, sessionId } = c.req.valid("param");
    authorize(c.get("principal"), ns, "write");
    const body = c.req.valid("json");
    if (body.id !== undefined && body.id !== sessionId) {
      throw new RamemError("VALIDATION_FAILED", `body.id: ${echoValue(body.id)} differs from the path's session id ${echoValue(sessionId)}`, {
        hint: "omit id from the body, or PUT to /sessions/<that id>; nothing was stored",
      });
    }
    const turns = toTurns(sessionId, body.turns);
    const startTime = isoNormalize(body.startTime);
    const session = checkSession({
      session: {
        id: sessionId,
        namespace: ns,
        startTime,
        endTime: body.endTime ? isoNormalize(body.endTime) : startTime,
        participants: body.participants ?? [...new Set(turns.map((t) => t.speaker))],
        ...(body.metadata ? { metadata: body.metadata } : {}),
      },
      turns,
    });
    // Asked outside the write lock: "created" may be stale under a concurrent write of this very session; the write itself is not.
    const existed = (await memory.store.getSession(ns, sessionId)) !== null;
    const result = { existed, report: await memory.ingest([session], { actor: actorOf(c.get("principal")) }) };
    return c.json(
      {
        namespace: ns,
        sessionId,
        created: !result.existed,
        unchanged: result.report.sessionsUnchanged === 1,
        turns: turns.length,
        turnIds: turns.map((t) => t.id),
        unitsWritten: result.report.unitsWritten,
        warnings: result.report.warnings,
      },
      200,
    );
  });

  app.openapi(appendRoute, async (c) => {
    const { ns, sessionId } = c.req.valid("param");
    authorize(c.get("principal"), ns, "write");
    const body = c.req.valid("json");
    const report = await memory.appendTurns({
      namespace: ns,
      sessionId,
      turns: body.turns,
      ...(body.startTime !== undefined ? { startTime: body.startTime } : {}),
      ...(body.participants !== undefined ? { participants: body.participants } : {}),
      ...(body.metadata !== undefined ? { metadata: body.metadata } : {}),
    }, { actor: actorOf(c.get("principal")) });
    return c.json(
      {
        namespace: ns,
        sessionId,
        created: report.created,
        unchanged: false,
        turns: report.turnIds.length,
        turnIds: report.turnIds,
        unitsWritten: report.unitsWritten,
        warnings: report.warnings,
      },
      200,
    );
  });

  app.openapi(listSessions, async (c) => {
    const { ns } = c.req.valid("param");
    authorize(c.get("principal"), ns, "read");
    await requireKnownNamespace(memory, ns);
    const sessions = await memory.store.listSessions(ns);
    return c.json({ namespace: ns, sessions: sessions.map(({ contentHash: _h, ...s }) => s) }, 200);
  });

  app.openapi(getSession, async (c) => {
    const { ns, sessionId } = c.req.valid("param");
    authorize(c.get("principal"), ns, "read");
    const s = await memory.store.getSession(ns, sessionId);
    if (!s) throw sessionNotFound(ns, sessionId);
    const { contentHash: _h, ...out } = s;
    return c.json(out, 200);
  });

  app.openapi(deleteSession, async (c) => {
    const { ns, sessionId } = c.req.valid("param");
    authorize(c.get("principal"), ns, "write");
    if (!(await memory.store.getSession(ns, sessionId))) throw sessionNotFound(ns, sessionId);
    const deleted = await memory.forgetSession(sessionId, { namespace: ns, actor: actorOf(c.get("principal")) });
    return c.json({ deleted }, 200);
  });
}

function sessionNotFound(ns: string, sessionId: string): RamemError {
  return new RamemError("SESSION_NOT_FOUND", `namespace ${echoValue(ns)} has no session ${echoValue(sessionId)}`, {
    hint: `list the sessions with GET /v1/namespaces/${ns}/sessions`,
  });
}
