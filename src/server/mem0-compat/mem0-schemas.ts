import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { Problem } from "../rest/problem.js";

/**
 * Mem0's platform API as its official clients (mem0ai 3.x, JS and Python)
 * call it: snake_case bodies, trailing slashes. Request objects are loose,
 * unlike ramem's own routes: the clients send options this server gives no
 * meaning to (output_format, async_mode, infer, rerank, …), and refusing them
 * would refuse every call. The options that would change what is stored and
 * cannot be honoured (expiration_date, immutable) are refused by the handlers.
 */

const EntityId = z.string().min(1).max(128).nullable().optional();

const Mem0Message = z.looseObject({
  role: z.string().meta({ example: "user" }),
  // A string, a part ({type: "image_url", image_url: {url}}) or a list of parts.
  content: z.union([z.string(), z.record(z.string(), z.unknown()), z.array(z.unknown())]),
  name: z.string().optional(),
});

const MetadataIn = z.record(z.string(), z.unknown());

export const AddBody = z
  .looseObject({
    messages: z.union([z.string().min(1), z.array(Mem0Message).min(1)]),
    user_id: EntityId,
    agent_id: EntityId,
    run_id: EntityId,
    app_id: EntityId,
    metadata: MetadataIn.nullable().optional(),
    /** Unix seconds (Mem0) or ISO 8601: when the messages were said; default now. */
    timestamp: z.union([z.number(), z.string()]).nullable().optional(),
    expiration_date: z.string().nullable().optional(),
    immutable: z.boolean().optional(),
  })
  .meta({ id: "Mem0AddRequest" });

export const SearchBody = z
  .looseObject({
    query: z.string().min(1),
    filters: z.record(z.string(), z.unknown()).nullable().optional(),
    top_k: z.number().int().min(1).max(1000).optional(),
    threshold: z.number().min(0).max(1).nullable().optional(),
    metadata: MetadataIn.nullable().optional(),
    user_id: EntityId,
    agent_id: EntityId,
    run_id: EntityId,
    app_id: EntityId,
  })
  .meta({ id: "Mem0SearchRequest" });

export const GetAllBody = z
  .looseObject({
    filters: z.record(z.string(), z.unknown()).nullable().optional(),
    start_date: z.string().nullable().optional(),
    end_date: z.string().nullable().optional(),
    user_id: EntityId,
    agent_id: EntityId,
    run_id: EntityId,
    app_id: EntityId,
  })
  .meta({ id: "Mem0GetAllRequest" });

export const GetAllQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(1000).default(100),
});

export const UpdateBody = z
  .looseObject({
    text: z.string().optional(),
    metadata: MetadataIn.nullable().optional(),
    timestamp: z.union([z.number(), z.string()]).nullable().optional(),
    expiration_date: z.string().nullable().optional(),
  })
  .meta({ id: "Mem0UpdateRequest" });

export const DeleteAllQuery = z.object({
  user_id: z.string().min(1).max(128).optional(),
  agent_id: z.string().min(1).max(128).optional(),
  run_id: z.string().min(1).max(200).optional(),
  app_id: z.string().min(1).max(128).optional(),
});

export const DeleteQuery = z.object({ delete_linked: z.enum(["true", "false"]).optional() });

export const MemoryIdParam = z.object({
  memory_id: z.string().min(1).max(200).meta({ param: { name: "memory_id", in: "path" }, example: "u_3f9a1c2b4d5e6f708192" }),
});

export const Mem0Memory = z
  .object({
    id: z.string(),
    memory: z.string(),
    user_id: z.string().nullable(),
    agent_id: z.string().nullable(),
    run_id: z.string().nullable(),
    app_id: z.string().nullable(),
    hash: z.string(),
    metadata: z.record(z.string(), z.unknown()).nullable(),
    categories: z.array(z.string()),
    created_at: z.string().nullable(),
    updated_at: z.string().nullable(),
    expiration_date: z.null(),
    immutable: z.boolean(),
  })
  .meta({ id: "Mem0Memory" });
export type Mem0Memory = z.infer<typeof Mem0Memory>;

export const Mem0HistoryEntry = z
  .object({
    id: z.string(),
    memory_id: z.string(),
    input: z.array(z.unknown()),
    old_memory: z.string().nullable(),
    new_memory: z.string().nullable(),
    user_id: z.string().nullable(),
    categories: z.array(z.string()),
    event: z.enum(["ADD", "UPDATE", "DELETE"]),
    is_deleted: z.boolean(),
    created_at: z.string(),
    updated_at: z.string(),
    actor: z.string().meta({ description: "ramem's addition: who made the change (the API key's name)" }),
  })
  .meta({ id: "Mem0HistoryEntry" });
export type Mem0HistoryEntry = z.infer<typeof Mem0HistoryEntry>;

const AddResult = z.object({
  results: z.array(Mem0Memory.extend({ event: z.literal("ADD") })),
  status: z.literal("SUCCEEDED"),
  message: z.string(),
});
const SearchResult = z.object({ results: z.array(Mem0Memory.extend({ score: z.number().min(0).max(1) })) });
const Paginated = z.object({ count: z.number().int(), next: z.string().nullable(), previous: z.string().nullable(), results: z.array(Mem0Memory) });
const Message = z.object({ message: z.string() });
const Ping = z.object({
  status: z.literal("ok"),
  message: z.string(),
  org_id: z.null(),
  project_id: z.null(),
  user_email: z.null(),
  role: z.enum(["read", "write", "admin"]),
  namespaces: z.union([z.array(z.string()), z.literal("all")]),
});

const problem = { "application/problem+json": { schema: Problem } };
const errors = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((s) => [s, { description: ERROR_TEXT[s] ?? "Error", content: problem }])) as Record<number, { description: string; content: typeof problem }>;
const ERROR_TEXT: Record<number, string> = {
  400: "Invalid input: the problem names the field",
  401: "Missing, unknown or revoked API key",
  403: "The key is not granted the namespace (user_id) or its role is too low",
  404: "No memory with this id in the key's namespaces",
  409: "Conflict with what is stored",
  413: "Request body over the limit",
};
const json = <T extends z.ZodType>(schema: T) => ({ content: { "application/json": { schema } }, required: true });
const ok = <T extends z.ZodType>(description: string, schema: T) => ({ 200: { description, content: { "application/json": { schema } } } });
// Mem0's clients send "Authorization: Token <key>"; ramem's "Bearer" works too.
const security: Array<Record<string, string[]>> = [{ mem0Token: [] }, { apiKey: [] }];
const tags = ["mem0"];

export const pingRoute = createRoute({
  method: "get",
  path: "/v1/ping/",
  tags,
  security,
  summary: "Mem0's start-up key check: ok with the key's role and namespaces. Needs any key.",
  responses: { ...ok("The key is valid", Ping), ...errors(401) },
});

export const addRoute = createRoute({
  method: "post",
  path: "/v3/memories/add/",
  tags,
  security,
  summary: "Mem0 add: messages into namespace user_id (else agent_id, else the default), session run_id; stored before the answer. Needs write.",
  request: { body: json(AddBody) },
  responses: { ...ok("The memories stored", AddResult), ...errors(400, 401, 403, 409, 413) },
});

export const searchRoute = createRoute({
  method: "post",
  path: "/v3/memories/search/",
  tags,
  security,
  summary: "Mem0 search: ramem recall in the namespace the filters' user_id names; score in [0, 1]. Needs read.",
  request: { body: json(SearchBody) },
  responses: { ...ok("Hits, best first", SearchResult), ...errors(400, 401, 403, 413) },
});

export const getAllRoute = createRoute({
  method: "post",
  path: "/v3/memories/",
  tags,
  security,
  summary: "Mem0 get-all: a page of the namespace's memories in conversation order. Needs read.",
  request: { query: GetAllQuery, body: json(GetAllBody) },
  responses: { ...ok("A page", Paginated), ...errors(400, 401, 403, 413) },
});

export const getRoute = createRoute({
  method: "get",
  path: "/v1/memories/{memory_id}/",
  tags,
  security,
  summary: "Mem0 get: one memory, looked up in the key's namespaces. Needs read.",
  request: { params: MemoryIdParam },
  responses: { ...ok("The memory", Mem0Memory), ...errors(400, 401, 403, 404) },
});

export const updateRoute = createRoute({
  method: "put",
  path: "/v1/memories/{memory_id}/",
  tags,
  security,
  summary: "Mem0 update: correct a memory's text (re-anchored, same id; the old text goes to its history). Needs write.",
  request: { params: MemoryIdParam, body: json(UpdateBody) },
  responses: { ...ok("The updated memory", Mem0Memory.extend({ text: z.string() })), ...errors(400, 401, 403, 404, 409, 413) },
});

export const deleteRoute = createRoute({
  method: "delete",
  path: "/v1/memories/{memory_id}/",
  tags,
  security,
  summary: "Mem0 delete: forget one memory (scrubbed from the store's files). Needs write.",
  request: { params: MemoryIdParam, query: DeleteQuery },
  responses: { ...ok("Deleted", Message), ...errors(400, 401, 403, 404) },
});

export const deleteAllRoute = createRoute({
  method: "delete",
  path: "/v1/memories/",
  tags,
  security,
  summary:
    "Mem0 delete-all: with run_id one session (write); with agent_id beside user_id, or app_id, the matching memories (write); with only user_id or agent_id the whole namespace (admin, as DELETE /v1/namespaces/{ns}).",
  request: { query: DeleteAllQuery },
  responses: { ...ok("Deleted", Message), ...errors(400, 401, 403) },
});

export const historyRoute = createRoute({
  method: "get",
  path: "/v1/memories/{memory_id}/history/",
  tags,
  security,
  summary: "Mem0 history: what happened to a memory, oldest first (ADD, UPDATE, DELETE). Needs read.",
  request: { params: MemoryIdParam },
  responses: { ...ok("Entries", z.array(Mem0HistoryEntry)), ...errors(400, 401, 403, 404) },
});
