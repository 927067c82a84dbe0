import { test } from "node:test";
import assert from "node:assert/strict";
import { startFakeOpenAIServer } from "../../testing/fake-openai-server.js";
import { createOpenAICompatibleLanguageModel } from "../../providers/openai-compatible/index.js";
import { startTestServer, GARDEN } from "../testing/server-fixture.js";

test("POST ask with an LLM configured answers from the evidence and cites units with their turns", async () => {
  const llm = await startFakeOpenAIServer({ chat: () => "a silver necklace from Sweden\nSources: [1]" });
  const t = await startTestServer({ languageModel: createOpenAICompatibleLanguageModel({ baseURL: llm.url, model: "fake" }) });
  try {
    await t.call("PUT", "/v1/namespaces/garden/sessions/s1", { json: GARDEN });
    const r = await t.call("POST", "/v1/namespaces/garden/ask", { json: { question: "What did Caroline get from her grandmother?", k: 3 } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.llmConfigured, true);
    assert.equal(r.body.note, undefined);
    assert.equal(r.body.answer, "a silver necklace from Sweden");
    assert.equal(r.body.cited.length, 1);
    assert.equal(r.body.cited[0].unitId, r.body.evidence.unitIds[0]);
    assert.deepEqual(r.body.cited[0].turnIds, [r.body.hits[0].unit.provenance.turnIds[0]]);
    const prompt = JSON.stringify(llm.requests.at(-1)?.body);
    assert.match(prompt, /silver necklace/);
  } finally {
    await t.stop();
    await llm.close();
  }
});

test("llmFrame: recall reports what the server's LLM added to the frame; a server without an LLM answers 400 NO_LLM", async () => {
  const frameAnswer = JSON.stringify({ participants: ["Melanie"], time: null, location: null });
  const llm = await startFakeOpenAIServer({ chat: (body) => (body.response_format ? frameAnswer : "a sunrise\nSources: [1]") });
  const t = await startTestServer({ languageModel: createOpenAICompatibleLanguageModel({ baseURL: llm.url, model: "fake" }) });
  const bare = await startTestServer();
  try {
    await t.call("PUT", "/v1/namespaces/garden/sessions/s1", { json: GARDEN });
    const r = await t.call("POST", "/v1/namespaces/garden/recall", { json: { query: "What did she paint over the lake?", k: 2, llmFrame: true } });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.frame.participants.names, ["Melanie"]);
    assert.deepEqual(r.body.frameRefinement.added, ["participants"]);
    assert.equal(r.body.frameRefinement.usage.calls, 1);
    const a = await t.call("POST", "/v1/namespaces/garden/ask", { json: { question: "What did she paint over the lake?", llmFrame: true } });
    assert.equal(a.status, 200, a.text);
    assert.equal(a.body.answer, "a sunrise");
    assert.equal(llm.requests.length, 3, "recall: one frame call; ask: a frame call and an answer call");

    await bare.call("PUT", "/v1/namespaces/garden/sessions/s1", { json: GARDEN });
    const refused = await bare.call("POST", "/v1/namespaces/garden/recall", { json: { query: "What did she paint?", llmFrame: true } });
    assert.equal(refused.status, 400, refused.text);
    assert.equal(refused.body.type, "urn:ramem:problem:no-llm");
    assert.match(refused.body.detail, /llmFrame needs a language model/);
    // Without the flag, the same server recalls with the rule frame alone.
    assert.equal((await bare.call("POST", "/v1/namespaces/garden/recall", { json: { query: "What did she paint?" } })).status, 200);
  } finally {
    await t.stop();
    await bare.stop();
    await llm.close();
  }
});
