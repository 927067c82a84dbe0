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
