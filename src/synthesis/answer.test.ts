import { test } from "node:test";
import assert from "node:assert/strict";
import { startFakeOpenAIServer } from "../testing/fake-openai-server.js";
import { createOpenAICompatibleLanguageModel } from "../providers/openai-compatible/index.js";
import { answerFromEvidence, NO_ANSWER, splitSources } from "./answer.js";
import type { EvidencePack } from "./render-evidence.js";

test("splitSources: answer and cited numbers", () => {
  const cases: Array<[string, { text: string; cited: number[] }]> = [
    ["7 May 2023\nSources: [2], [5]", { text: "7 May 2023", cited: [2, 5] }],
    ["Paris", { text: "Paris", cited: [] }],
    ["  Answer: Paris  \nSources: [1][1] [3]", { text: "Paris", cited: [1, 3] }],
    ["painting,\nswimming\nsources: [4]", { text: "painting, swimming", cited: [4] }],
    ["Boston\nSource: [7]", { text: "Boston", cited: [7] }],
    ["Tokyo [1]\nSources: [2]", { text: "Tokyo [1]", cited: [2] }],
    ["Tokyo\nSources:\n[2]\n[3]", { text: "Tokyo", cited: [2, 3] }],
    [`${NO_ANSWER}\nSources: none`, { text: NO_ANSWER, cited: [] }],
    ["Sources: [1]", { text: "", cited: [1] }],
    ["", { text: "", cited: [] }],
  ];
  for (const [raw, expected] of cases) assert.deepEqual(splitSources(raw), expected, JSON.stringify(raw));
});

test("splitSources: 'sources' inside the answer text is not a sources line", () => {
  assert.deepEqual(splitSources("open sources: [9] were used\nSources: [1]"), { text: "open sources: [9] were used", cited: [1] });
});

const pack: EvidencePack = { text: "<memories>\n[1] (D1:1) Caroline went hiking.\n</memories>", tokens: 12, included: [], dropped: 0 };

test("answerFromEvidence: pack and dated question go to the model; the reply is split", async () => {
  const server = await startFakeOpenAIServer({ chat: () => "hiking\nSources: [1]" });
  try {
    const model = createOpenAICompatibleLanguageModel({ baseURL: server.url, model: "fake", retryDelayMs: 5 });
    const answer = await answerFromEvidence(model, "What did Caroline do?", pack, { questionDate: "2023-06-01T10:00:00Z" });
    assert.equal(answer.text, "hiking");
    assert.deepEqual(answer.cited, [1]);
    assert.ok(answer.usage.promptTokens > 0 && answer.usage.completionTokens === 3);
    const body = server.requests[0]!.body;
    assert.equal(body.temperature, 0);
    assert.equal(body.messages[0].role, "system");
    assert.match(body.messages[0].content, /session header gives the session id/);
    assert.equal(body.messages[1].content, `${pack.text}\n\nQuestion (asked on 2023-06-01): What did Caroline do?`);

    await answerFromEvidence(model, "What did Caroline do?", pack, { mode: "plain" });
    const plain = server.requests[1]!.body;
    assert.doesNotMatch(plain.messages[0].content, /session header/);
    assert.match(plain.messages[1].content, /\n\nQuestion: What did Caroline do\?$/);
  } finally {
    await server.close();
  }
});
