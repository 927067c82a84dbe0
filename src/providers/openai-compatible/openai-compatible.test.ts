import { test } from "node:test";
import assert from "node:assert/strict";
import { startFakeOpenAIServer } from "../../testing/fake-openai-server.js";
import { RamemError } from "../../model/errors.js";
import { createOpenAICompatibleEmbedder, createOpenAICompatibleLanguageModel, providerConfigFromEnv } from "./index.js";
import { dot } from "../vector-math.js";

const fast = { retryDelayMs: 5 };

test("embeddings: dims probed, order kept, calls split by maxBatchSize", async () => {
  const server = await startFakeOpenAIServer({ embeddingDimensions: 48 });
  try {
    const embedder = await createOpenAICompatibleEmbedder({ baseURL: server.url, model: "emb", maxBatchSize: 4, ...fast });
    assert.equal(embedder.dimensions, 48);
    assert.equal(embedder.id, "openai-compatible:emb:48");
    assert.equal(server.requests.length, 1, "one probe request");

    const texts = Array.from({ length: 10 }, (_, i) => `sentence number ${i} about topic ${i % 3}`);
    const vectors = await embedder.embed(texts);
    assert.equal(vectors.length, 10);
    const embedCalls = server.requests.slice(1);
    assert.deepEqual(embedCalls.map((r) => r.body.input.length), [4, 4, 2]);
    assert.ok(embedCalls.every((r) => r.path === "/v1/embeddings" && r.body.model === "emb"));
    // Order: each vector equals the one for the same text embedded alone.
    const [alone] = await embedder.embed([texts[7]!]);
    assert.ok(Math.abs(dot(alone!, vectors[7]!) - 1) < 1e-5);
    for (const v of vectors) {
      assert.ok(v instanceof Float32Array && v.length === 48);
      assert.ok(Math.abs(Math.hypot(...v) - 1) < 1e-5);
    }
  } finally {
    await server.close();
  }
});

test("embeddings: given dimensions skip the probe; empty text is sent as a space; mismatch is an error", async () => {
  const server = await startFakeOpenAIServer({ embeddingDimensions: 16 });
  try {
    const embedder = await createOpenAICompatibleEmbedder({ baseURL: server.url, model: "emb", dimensions: 16, ...fast });
    assert.equal(server.requests.length, 0);
    const [v] = await embedder.embed([""]);
    assert.equal(v!.length, 16);
    assert.deepEqual(server.requests[0]!.body.input, [" "]);

    const wrong = await createOpenAICompatibleEmbedder({ baseURL: server.url, model: "emb", dimensions: 32, ...fast });
    await assert.rejects(wrong.embed(["x"]), (e: unknown) => e instanceof RamemError && e.code === "EMBEDDINGS_BAD_RESPONSE" && /16-d vector, expected 32/.test(e.message));
  } finally {
    await server.close();
  }
});

test("embeddings: server error names URL and status", async () => {
  const server = await startFakeOpenAIServer({ embeddings: () => ({ status: 404, body: { error: { message: "model not found" } } }) });
  try {
    await assert.rejects(createOpenAICompatibleEmbedder({ baseURL: server.url, model: "nope", ...fast }), (e: unknown) => {
      assert.ok(e instanceof RamemError);
      assert.equal(e.code, "EMBEDDINGS_HTTP");
      assert.match(e.message, /POST http:\/\/127\.0\.0\.1:\d+\/v1\/embeddings returned HTTP 404/);
      assert.match(e.message, /model not found/);
      assert.match(e.hint ?? "", /RAMEM_EMBEDDINGS_BASE_URL/);
      return true;
    });
    assert.equal(server.requests.length, 1, "404 is not retried");
  } finally {
    await server.close();
  }
});

test("API key is sent as a bearer token and never appears in errors", async () => {
  const server = await startFakeOpenAIServer({ apiKey: "sk-right" });
  try {
    const embedder = await createOpenAICompatibleEmbedder({ baseURL: server.url, model: "emb", apiKey: "sk-right", ...fast });
    await embedder.embed(["hello"]);
    assert.equal(server.requests.at(-1)!.headers.authorization, "Bearer sk-right");

    const llm = createOpenAICompatibleLanguageModel({ baseURL: server.url, model: "chat", apiKey: "sk-wrong-secret", ...fast });
    await assert.rejects(llm.complete({ messages: [{ role: "user", content: "hi" }] }), (e: unknown) => {
      assert.ok(e instanceof RamemError);
      assert.equal(e.code, "LLM_HTTP");
      assert.match(e.message, /HTTP 401/);
      assert.match(e.hint ?? "", /RAMEM_LLM_API_KEY/);
      assert.ok(!e.describe().includes("sk-wrong-secret"));
      return true;
    });
  } finally {
    await server.close();
  }
});

test("chat: text and usage come back; json mode, max_tokens, temperature are sent", async () => {
  const server = await startFakeOpenAIServer();
  try {
    const llm = createOpenAICompatibleLanguageModel({ baseURL: `${server.url}/`, model: "chat", ...fast });
    assert.equal(llm.id, "openai-compatible:chat");
    const plain = await llm.complete({
      messages: [
        { role: "system", content: "be brief" },
        { role: "user", content: "what did Caroline do" },
      ],
    });
    assert.equal(plain.text, "echo: what did Caroline do");
    assert.deepEqual(plain.usage, { promptTokens: 6, completionTokens: 5 });
    assert.equal(server.requests[0]!.path, "/v1/chat/completions", "trailing slash in baseURL is tolerated");
    assert.equal(server.requests[0]!.body.response_format, undefined);

    const json = await llm.complete({ messages: [{ role: "user", content: "x" }], json: true, maxTokens: 50, temperature: 0 });
    assert.deepEqual(JSON.parse(json.text), { echo: "x" });
    const sent = server.requests[1]!.body;
    assert.deepEqual(sent.response_format, { type: "json_object" });
    assert.equal(sent.max_tokens, 50);
    assert.equal(sent.temperature, 0);
  } finally {
    await server.close();
  }
});

test("chat: retries a 500 and a 429, then succeeds", async () => {
  let calls = 0;
  const server = await startFakeOpenAIServer({
    chat: () => {
      calls++;
      if (calls === 1) return { status: 500, body: { error: { message: "boom" } } };
      if (calls === 2) return { status: 429, body: { error: { message: "slow down" } }, headers: { "retry-after": "0" } };
      return "finally";
    },
  });
  try {
    const llm = createOpenAICompatibleLanguageModel({ baseURL: server.url, model: "chat", maxRetries: 3, ...fast });
    const result = await llm.complete({ messages: [{ role: "user", content: "hi" }] });
    assert.equal(result.text, "finally");
    assert.equal(server.requests.length, 3);
  } finally {
    await server.close();
  }
});

test("chat: gives up after maxRetries with a clear error", async () => {
  const server = await startFakeOpenAIServer({ chat: () => ({ status: 503, body: { error: { message: "model is loading" } } }) });
  try {
    const llm = createOpenAICompatibleLanguageModel({ baseURL: server.url, model: "chat", maxRetries: 2, ...fast });
    await assert.rejects(llm.complete({ messages: [{ role: "user", content: "hi" }] }), (e: unknown) => {
      assert.ok(e instanceof RamemError);
      assert.equal(e.code, "LLM_HTTP");
      assert.match(e.message, /POST http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions returned HTTP 503 after 3 attempts: .*model is loading/);
      assert.match(e.hint ?? "", /server failed/);
      return true;
    });
    assert.equal(server.requests.length, 3);
  } finally {
    await server.close();
  }
});

test("chat: malformed JSON reply is a bad-response error, not retried", async () => {
  const server = await startFakeOpenAIServer({ chat: () => ({ status: 200, body: "{not json" }) });
  try {
    const llm = createOpenAICompatibleLanguageModel({ baseURL: server.url, model: "chat", ...fast });
    await assert.rejects(llm.complete({ messages: [{ role: "user", content: "hi" }] }), (e: unknown) => e instanceof RamemError && e.code === "LLM_BAD_RESPONSE" && /not JSON/.test(e.message));
    assert.equal(server.requests.length, 1);
  } finally {
    await server.close();
  }
});

test("chat: times out via AbortController", async () => {
  const server = await startFakeOpenAIServer({ chat: () => new Promise(() => {}) });
  try {
    const llm = createOpenAICompatibleLanguageModel({ baseURL: server.url, model: "chat", timeoutMs: 150, ...fast });
    const started = Date.now();
    await assert.rejects(llm.complete({ messages: [{ role: "user", content: "hi" }] }), (e: unknown) => {
      assert.ok(e instanceof RamemError);
      assert.equal(e.code, "LLM_TIMEOUT");
      assert.match(e.message, /did not answer within 150 ms/);
      return true;
    });
    assert.ok(Date.now() - started < 2000);
    assert.equal(server.requests.length, 1, "timeouts are not retried");
  } finally {
    await server.close();
  }
});

test("chat: connection refused is retried, then reported with the base URL", async () => {
  const server = await startFakeOpenAIServer();
  const url = server.url;
  await server.close();
  const llm = createOpenAICompatibleLanguageModel({ baseURL: url, model: "chat", maxRetries: 1, ...fast });
  await assert.rejects(llm.complete({ messages: [{ role: "user", content: "hi" }] }), (e: unknown) => {
    assert.ok(e instanceof RamemError);
    assert.equal(e.code, "LLM_HTTP");
    assert.match(e.message, /failed after 2 attempts: ECONNREFUSED/);
    assert.match(e.hint ?? "", /is the server running/);
    return true;
  });
});

test("providerConfigFromEnv", () => {
  assert.deepEqual(providerConfigFromEnv({}), {});
  assert.deepEqual(providerConfigFromEnv({ OPENAI_API_KEY: "sk" }), {}, "a key alone configures nothing");
  assert.deepEqual(providerConfigFromEnv({ RAMEM_LLM_MODEL: "gpt-4o-mini", OPENAI_API_KEY: "sk" }), {
    llm: { baseURL: "https://api.openai.com/v1", model: "gpt-4o-mini", apiKey: "sk" },
  });
  assert.deepEqual(
    providerConfigFromEnv({
      RAMEM_LLM_BASE_URL: "http://127.0.0.1:11434/v1",
      RAMEM_LLM_MODEL: "qwen2.5:7b",
      RAMEM_LLM_API_KEY: "llm-key",
      OPENAI_API_KEY: "sk",
      RAMEM_EMBEDDINGS_BASE_URL: "http://127.0.0.1:8080/v1",
      RAMEM_EMBEDDINGS_MODEL: "nomic-embed-text",
      RAMEM_EMBEDDINGS_API_KEY: " ",
    }),
    {
      llm: { baseURL: "http://127.0.0.1:11434/v1", model: "qwen2.5:7b", apiKey: "llm-key" },
      embeddings: { baseURL: "http://127.0.0.1:8080/v1", model: "nomic-embed-text", apiKey: "sk" },
    },
  );
  assert.throws(() => providerConfigFromEnv({ RAMEM_EMBEDDINGS_BASE_URL: "http://x/v1" }), (e: unknown) => e instanceof RamemError && e.code === "PROVIDER_CONFIG" && /RAMEM_EMBEDDINGS_MODEL/.test(e.message));
});
