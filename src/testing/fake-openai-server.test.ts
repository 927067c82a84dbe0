import { test } from "node:test";
import assert from "node:assert/strict";
import { startFakeOpenAIServer } from "./fake-openai-server.js";

async function post(url: string, body: unknown): Promise<{ status: number; text: string }> {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: res.status, text: await res.text() };
}

test("fake server: default routes, recorded requests, errors in OpenAI's shape", async () => {
  const server = await startFakeOpenAIServer({ embeddingDimensions: 8 });
  try {
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const emb = JSON.parse((await post(`${server.url}/embeddings`, { model: "m", input: "one two" })).text);
    assert.equal(emb.data[0].embedding.length, 8);
    assert.deepEqual(emb.usage, { prompt_tokens: 2, total_tokens: 2 });
    const chat = JSON.parse((await post(`${server.url}/chat/completions`, { model: "m", messages: [{ role: "user", content: "a b" }] })).text);
    assert.equal(chat.choices[0].message.content, "echo: a b");
    assert.equal(chat.usage.total_tokens, 5);
    assert.equal((await post(`${server.url}/nope`, { model: "m" })).status, 404);
    assert.equal((await post(`${server.url}/chat/completions`, { messages: [] })).status, 400);
    const models = (await (await fetch(`${server.url}/models`)).json()) as { data: Array<{ id: string }> };
    assert.deepEqual(models.data.map((m) => m.id), ["m"]);
    assert.equal(server.requests.length, 5);
    assert.equal(server.requests[0]!.headers["content-type"], "application/json");
  } finally {
    await server.close();
  }
});

test("fake server: hooks can fail, fall through, or hang; close() is prompt and idempotent", async () => {
  const server = await startFakeOpenAIServer({
    chat: (body) => (body.messages[0].content === "hang" ? new Promise(() => {}) : { status: 200, body: "{oops" }),
    embeddings: (body) => (body.input[0] === "fail" ? { status: 429, body: { error: { message: "rate" } }, headers: { "retry-after": "1" } } : undefined),
  });
  const bad = await post(`${server.url}/chat/completions`, { model: "m", messages: [{ role: "user", content: "x" }] });
  assert.deepEqual(bad, { status: 200, text: "{oops" });
  assert.equal((await post(`${server.url}/embeddings`, { model: "m", input: ["fail"] })).status, 429);
  assert.equal((await post(`${server.url}/embeddings`, { model: "m", input: ["ok"] })).status, 200);
  const hung = post(`${server.url}/chat/completions`, { model: "m", messages: [{ role: "user", content: "hang" }] }).catch((e: Error) => e);
  await new Promise((r) => setTimeout(r, 50));
  const started = Date.now();
  await Promise.all([server.close(), server.close()]);
  assert.ok(Date.now() - started < 1000);
  assert.ok((await hung) instanceof Error);
});
