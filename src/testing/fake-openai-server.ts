import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { hashEmbed } from "../providers/hash-embedder.js";

/**
 * A real OpenAI-compatible HTTP server on 127.0.0.1 (random port) for tests.
 * It lets tests exercise the actual HTTP path (headers, JSON, status codes,
 * timeouts) without a network or an API key.
 *
 *   const server = await startFakeOpenAIServer({ chat: (body) => '{"ok":true}' });
 *   try {
 *     const llm = createOpenAICompatibleLanguageModel({ baseURL: server.url, model: "fake" });
 *     ...
 *     assert.equal(server.requests[0]?.body.model, "fake");
 *   } finally { await server.close(); }
 *
 * Routes (anything else answers 404 in OpenAI's error shape):
 * - POST /v1/chat/completions: answers with the `chat` hook's reply, or by
 *   default a deterministic echo: `echo: <last user message>`, or, when the
 *   request asks for `response_format: {type: "json_object"}`,
 *   `{"echo":"<last user message>"}`. Usage counts whitespace-separated words.
 * - POST /v1/embeddings: `input` string or string[]; vectors are the hash
 *   embedder's (deterministic, unit length, texts sharing words are closer),
 *   `embeddingDimensions` long (default 64). The `embeddings` hook can override.
 * - GET /v1/models: lists the models seen so far (some clients probe it).
 *
 * Hooks return either a plain string (chat only: the assistant's text, HTTP
 * 200) or a FakeReply `{ status, body?, headers?, delayMs? }`: `body` is sent
 * as JSON unless it is a string, which is sent verbatim (so `"{not json"`
 * simulates a malformed reply). Return `undefined` from the embeddings hook to
 * fall through to the default. Hooks may be async; a hook that never settles
 * (or a large `delayMs`) simulates a hung server, and close() still returns
 * promptly because it drops open connections.
 */

export interface FakeReply {
  status: number;
  /** Object → JSON; string → sent as is (for malformed or non-JSON bodies). */
  body?: unknown;
  headers?: Record<string, string>;
  /** Wait this long before answering (simulates a slow server). */
  delayMs?: number;
}

export interface FakeRequest {
  /** URL path without query, e.g. "/v1/chat/completions". */
  path: string;
  method: string;
  /** Parsed JSON body, or the raw string when it was not JSON, or undefined when empty. */
  body: any;
  /** Lower-cased header names. */
  headers: Record<string, string>;
}

export interface FakeOpenAIServerOptions {
  chat?: (body: any, request: FakeRequest) => string | FakeReply | Promise<string | FakeReply>;
  embeddings?: (body: any, request: FakeRequest) => FakeReply | undefined | Promise<FakeReply | undefined>;
  /** Size of the default embedding vectors. Default 64. */
  embeddingDimensions?: number;
  /** When set, requests without `Authorization: Bearer <apiKey>` get 401. */
  apiKey?: string;
}

export interface FakeOpenAIServer {
  /** Base URL ending in /v1, e.g. "http://127.0.0.1:40123/v1". */
  url: string;
  /** Every request received, in arrival order (including failed ones). */
  requests: FakeRequest[];
  close(): Promise<void>;
}

function words(text: string): number {
  const trimmed = text.trim();
  return trimmed ? trimmed.split(/\s+/).length : 0;
}

function messageText(content: unknown): string {
  if (typeof content === "string") return content;
  // Multi-part content: [{type:"text", text:"…"}, …].
  if (Array.isArray(content)) return content.map((p) => (typeof p?.text === "string" ? p.text : "")).join(" ");
  return "";
}

function errorBody(message: string, type: string, code: string | null = null): unknown {
  return { error: { message, type, param: null, code } };
}

async function readBody(req: IncomingMessage): Promise<any> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks).toString("utf8");
  if (!raw) return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

function send(res: ServerResponse, reply: FakeReply): void {
  // The client may have given up (timeout tests); writing then would throw.
  if (res.destroyed || res.writableEnded) return;
  const isString = typeof reply.body === "string";
  const payload = reply.body === undefined ? "" : isString ? (reply.body as string) : JSON.stringify(reply.body);
  res.writeHead(reply.status, {
    "content-type": isString ? "text/plain; charset=utf-8" : "application/json",
    ...reply.headers,
  });
  res.end(payload);
}

let completionCounter = 0;

function defaultChat(body: any): string {
  const messages: any[] = Array.isArray(body?.messages) ? body.messages : [];
  const lastUser = [...messages].reverse().find((m) => m?.role === "user");
  const text = messageText(lastUser?.content);
  return body?.response_format?.type === "json_object" ? JSON.stringify({ echo: text }) : `echo: ${text}`;
}

function chatCompletion(body: any, text: string): unknown {
  const messages: any[] = Array.isArray(body?.messages) ? body.messages : [];
  const promptTokens = messages.reduce((n, m) => n + words(messageText(m?.content)), 0);
  const completionTokens = words(text);
  return {
    id: `chatcmpl-fake-${++completionCounter}`,
    object: "chat.completion",
    created: 1_700_000_000,
    model: body?.model,
    choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop", logprobs: null }],
    usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
  };
}

function embeddingsReply(body: any, dimensions: number): FakeReply {
  const input: unknown = body?.input;
  const texts = typeof input === "string" ? [input] : input;
  if (!Array.isArray(texts) || texts.length === 0 || !texts.every((t) => typeof t === "string")) {
    return { status: 400, body: errorBody("'input' must be a non-empty string or array of strings", "invalid_request_error") };
  }
  if (texts.some((t) => t === "")) {
    // OpenAI rejects empty strings; mirroring that keeps clients honest.
    return { status: 400, body: errorBody("'input' cannot contain empty strings", "invalid_request_error") };
  }
  const promptTokens = texts.reduce((n, t) => n + words(t), 0);
  return {
    status: 200,
    body: {
      object: "list",
      data: texts.map((t, index) => ({ object: "embedding", index, embedding: Array.from(hashEmbed(t, dimensions)) })),
      model: body?.model,
      usage: { prompt_tokens: promptTokens, total_tokens: promptTokens },
    },
  };
}

function delay(ms: number): Promise<void> {
  // Unref'd so a test that simulates a very slow server does not hold the
  // process open after it has closed the server and finished.
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

export async function startFakeOpenAIServer(opts: FakeOpenAIServerOptions = {}): Promise<FakeOpenAIServer> {
  const dimensions = opts.embeddingDimensions ?? 64;
  const requests: FakeRequest[] = [];
  const models = new Set<string>();

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<FakeReply> => {
    const path = (req.url ?? "/").split("?")[0]!;
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(", ") : v;
    const body = await readBody(req);
    const request: FakeRequest = { path, method: req.method ?? "GET", body, headers };
    requests.push(request);
    if (typeof body?.model === "string") models.add(body.model);

    if (opts.apiKey !== undefined && headers.authorization !== `Bearer ${opts.apiKey}`) {
      return { status: 401, body: errorBody("Incorrect API key provided.", "invalid_request_error", "invalid_api_key") };
    }
    if (req.method === "GET" && path === "/v1/models") {
      return { status: 200, body: { object: "list", data: [...models].map((id) => ({ id, object: "model", owned_by: "fake" })) } };
    }
    if (req.method !== "POST" || (path !== "/v1/chat/completions" && path !== "/v1/embeddings")) {
      return { status: 404, body: errorBody(`Unknown route ${req.method} ${path}`, "invalid_request_error") };
    }
    if (typeof body !== "object" || body === null) {
      return { status: 400, body: errorBody("We could not parse the JSON body of your request.", "invalid_request_error") };
    }
    if (typeof body.model !== "string" || !body.model) {
      return { status: 400, body: errorBody("you must provide a model parameter", "invalid_request_error") };
    }

    if (path === "/v1/embeddings") {
      return (await opts.embeddings?.(body, request)) ?? embeddingsReply(body, dimensions);
    }
    if (!Array.isArray(body.messages) || body.messages.length === 0) {
      return { status: 400, body: errorBody("'messages' must be a non-empty array", "invalid_request_error") };
    }
    const reply = opts.chat ? await opts.chat(body, request) : defaultChat(body);
    return typeof reply === "string" ? { status: 200, body: chatCompletion(body, reply) } : reply;
  };

  const server = createServer((req, res) => {
    handle(req, res).then(
      async (reply) => {
        if (reply.delayMs) await delay(reply.delayMs);
        send(res, reply);
      },
      (error: unknown) => send(res, { status: 500, body: errorBody(`fake server hook threw: ${String(error)}`, "server_error") }),
    );
  });
  // Keep-alive sockets from fetch would otherwise hold close() open.
  server.keepAliveTimeout = 1000;

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  let closed: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close() {
      closed ??= new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      });
      return closed;
    },
  };
}
