import { test } from "node:test";
import assert from "node:assert/strict";
import { startFakeOpenAIServer, type FakeReply } from "../testing/fake-openai-server.js";
import { createOpenAICompatibleLanguageModel } from "../providers/openai-compatible/index.js";
import type { SessionWithTurns } from "../model/conversation.js";
import { MemoryUnit } from "../model/memory-unit.js";
import { createLlmAnchorer } from "./llm-anchorer.js";
import { RULE_ANCHORER_ID } from "./rule-anchorer.js";
import { unitId } from "./unit-id.js";
import { windowIds } from "./testing/anchoring-prompt.js";

const session: SessionWithTurns = {
  session: {
    id: "S1",
    namespace: "conv-1",
    startTime: "2023-05-08T13:56:00.000Z",
    endTime: "2023-05-08T13:56:00.000Z",
    participants: ["Caroline", "Melanie"],
  },
  turns: [
    { id: "D1:1", speaker: "Caroline", text: "Hey Mel! I went to a LGBTQ support group yesterday." },
    { id: "D1:2", speaker: "Melanie", text: "That's great! How was it?" },
    { id: "D1:3", speaker: "Caroline", text: "It was powerful, they told their stories." },
    { id: "D1:4", speaker: "Melanie", text: "I painted a sunrise last week." },
  ],
};

function userPrompt(body: any): string {
  return body.messages.find((m: any) => m.role === "user").content as string;
}

/** A well-formed answer: one unit per turn of the window. */
function goodAnswer(ids: string[]): string {
  return JSON.stringify({
    units: ids.map((id) => ({
      turnIds: [id],
      content: `LLM restatement of ${id}`,
      eventTime: id === "D1:1" ? { start: "2023-05-07", end: "2023-05-07", granularity: "day" } : null,
      mentionedTimes: id === "D1:1" ? [{ text: "yesterday", start: "2023-05-07", end: "2023-05-08", granularity: "day", kind: "relative" }] : [],
      location: id === "D1:1" ? "LGBTQ support group" : null,
      entities: ["Caroline", "caroline", " LGBTQ "],
      topic: "support group",
    })),
  });
}

const fast = { retryDelayMs: 5 };

async function withServer(chat: (body: any) => string | FakeReply | Promise<string | FakeReply>, run: (url: string, requests: any[]) => Promise<void>) {
  const server = await startFakeOpenAIServer({ chat });
  try {
    await run(server.url, server.requests);
  } finally {
    await server.close();
  }
}

test("valid answer: LLM content and times; ids, session, participants, provenance and cue set by code", async () => {
  await withServer(
    (body) => {
      const parsed = JSON.parse(goodAnswer(windowIds(body)));
      // Fields the model must not control are ignored, however plausible.
      parsed.units[0].id = "u_forged";
      parsed.units[0].participants = ["Mallory"];
      parsed.units[0].session = { sessionId: "S9", start: "2020-01-01T00:00:00Z", end: "2020-01-02T00:00:00Z" };
      return JSON.stringify(parsed);
    },
    async (url, requests) => {
      const model = createOpenAICompatibleLanguageModel({ baseURL: url, model: "fake", ...fast });
      const anchorer = createLlmAnchorer({ model });
      assert.equal(anchorer.id, "llm-anchorer@2:openai-compatible:fake");
      const result = await anchorer.anchorSession(session);

      assert.equal(requests.length, 1, "4 turns fit one window of 8");
      assert.deepEqual(requests[0].body.response_format, { type: "json_object" });
      const prompt = userPrompt(requests[0].body);
      assert.match(prompt, /Session date: 8 May 2023 13:56/);
      assert.match(prompt, /Participants: Caroline, Melanie/);
      assert.match(prompt, /\[D1:3\] Caroline: It was powerful/);

      assert.deepEqual(result.warnings, []);
      assert.equal(result.units.length, 4);
      for (const u of result.units) MemoryUnit.parse(u);
      const [first, second] = result.units;
      assert.equal(first!.id, unitId("conv-1", "S1", ["D1:1"], anchorer.id));
      assert.equal(first!.anchoredBy, anchorer.id);
      assert.equal(first!.content, "LLM restatement of D1:1");
      assert.deepEqual(first!.provenance, { sessionId: "S1", turnIds: ["D1:1"] });
      assert.deepEqual(first!.context.session, { sessionId: "S1", start: session.session.startTime, end: session.session.endTime });
      assert.deepEqual(first!.context.participants, ["Caroline", "Melanie"]);
      assert.deepEqual(first!.context.eventTime, { start: "2023-05-07T00:00:00.000Z", end: "2023-05-08T00:00:00.000Z", granularity: "day" });
      assert.deepEqual(first!.context.mentionedTimes, [
        { text: "yesterday", interval: { start: "2023-05-07T00:00:00.000Z", end: "2023-05-08T00:00:00.000Z", granularity: "day" }, kind: "relative" },
      ]);
      assert.equal(first!.context.location, "LGBTQ support group");
      assert.deepEqual(first!.context.entities, ["Caroline", "LGBTQ"]);
      assert.equal(first!.cue, "");
      assert.deepEqual(second!.context.participants, ["Melanie", "Caroline"], "the speaker comes first");
      assert.equal(second!.cue, "Caroline: Hey Mel! I went to a LGBTQ support group yesterday.");
      assert.equal(second!.context.eventTime, null);
      assert.deepEqual(result.fallback, { windows: 0, turns: 0, windowsTotal: 1 });
    },
  );
});

test("windows: turns split by windowSize; later windows get two earlier turns as context only", async () => {
  await withServer(
    (body) => goodAnswer(windowIds(body)),
    async (url, requests) => {
      const anchorer = createLlmAnchorer({ model: createOpenAICompatibleLanguageModel({ baseURL: url, model: "fake", ...fast }), windowSize: 3, concurrency: 1 });
      const result = await anchorer.anchorSession(session);
      assert.equal(requests.length, 2);
      assert.deepEqual(requests.map((r) => windowIds(r.body)), [["D1:1", "D1:2", "D1:3"], ["D1:4"]]);
      const [, contextPart] = /Context only[^\n]*\n<turns>\n([\s\S]*?)<\/turns>/.exec(userPrompt(requests[1].body))!;
      assert.deepEqual(contextPart!.trim().split("\n").map((l) => l.slice(0, 6)), ["[D1:2]", "[D1:3]"]);
      assert.ok(!/Context only/.test(userPrompt(requests[0].body)), "the first window has no earlier turns");
      assert.deepEqual(result.units.map((u) => u.provenance.turnIds), [["D1:1"], ["D1:2"], ["D1:3"], ["D1:4"]]);
      assert.equal(result.units[3]!.cue, "Caroline: It was powerful, they told their stories.", "cues cross window borders");
    },
  );
});

test("multi-turn units keep conversation order; two units on the same turns merge into one id", async () => {
  await withServer(
    () =>
      JSON.stringify({
        units: [
          { turnIds: ["D1:2", "D1:1"], content: "Caroline went to a support group on 7 May 2023; Melanie asked how it was." },
          { turnIds: ["D1:3"], content: "Caroline found it powerful." },
          { turnIds: ["D1:3"], content: "People told their stories." },
          { turnIds: ["D1:4"], content: "Melanie painted a sunrise.", eventTime: { start: "2023-05-01", granularity: "week" } },
        ],
      }),
    async (url) => {
      const anchorer = createLlmAnchorer({ model: createOpenAICompatibleLanguageModel({ baseURL: url, model: "fake", ...fast }) });
      const { units, warnings } = await anchorer.anchorSession(session);
      assert.deepEqual(warnings, []);
      assert.deepEqual(units.map((u) => u.provenance.turnIds), [["D1:1", "D1:2"], ["D1:3"], ["D1:4"]]);
      assert.equal(units[1]!.content, "Caroline found it powerful. People told their stories.");
      assert.equal(new Set(units.map((u) => u.id)).size, 3);
      assert.deepEqual(units[2]!.context.eventTime, { start: "2023-05-01T00:00:00.000Z", end: "2023-05-08T00:00:00.000Z", granularity: "week" });
    },
  );
});

test("malformed JSON: the window falls back to the rule anchorer, with a warning and a count", async () => {
  await withServer(
    () => "{units: [not json",
    async (url, requests) => {
      const seen: string[] = [];
      const anchorer = createLlmAnchorer({ model: createOpenAICompatibleLanguageModel({ baseURL: url, model: "fake", ...fast }), maxRetries: 0, onWarning: (m) => seen.push(m) });
      const result = await anchorer.anchorSession(session);
      assert.equal(requests.length, 1);
      assert.equal(result.units.length, 4);
      assert.ok(result.units.every((u) => u.anchoredBy === RULE_ANCHORER_ID));
      assert.equal(result.units[0]!.id, unitId("conv-1", "S1", ["D1:1"], RULE_ANCHORER_ID));
      assert.equal(result.warnings.length, 1);
      assert.match(result.warnings[0]!, /session S1, turns D1:1…D1:4: the answer is not valid JSON .*rule-anchorer@\d+/);
      assert.deepEqual(seen, result.warnings);
      assert.deepEqual(result.fallback, { windows: 1, turns: 4, windowsTotal: 1 });
      assert.equal(result.llm.calls, 1);
    },
  );
});

test("an unusable answer is asked again maxRetries times before falling back", async () => {
  let calls = 0;
  await withServer(
    (body) => (++calls === 1 ? "not json at all" : goodAnswer(windowIds(body))),
    async (url, requests) => {
      const anchorer = createLlmAnchorer({ model: createOpenAICompatibleLanguageModel({ baseURL: url, model: "fake", ...fast }), maxRetries: 1 });
      const result = await anchorer.anchorSession(session);
      assert.equal(requests.length, 2);
      assert.deepEqual(result.warnings, []);
      assert.equal(result.llm.calls, 2);
      assert.ok(result.units.every((u) => u.anchoredBy === anchorer.id));
    },
  );
});

test("schema violations fall back: missing content, foreign turn id, uncovered turn, bad date", async () => {
  const cases: Array<[string, (ids: string[]) => unknown, RegExp]> = [
    ["no content", (ids) => ({ units: ids.map((id) => ({ turnIds: [id] })) }), /does not fit the schema \(units\.0\.content/],
    ["no units", () => ({ memories: [] }), /does not fit the schema \(units/],
    ["context turn id", (ids) => ({ units: [...ids.map((id) => ({ turnIds: [id], content: "x" })), { turnIds: ["D1:0"], content: "y" }] }), /outside the window \(D1:0\)/],
    ["uncovered turn", (ids) => ({ units: ids.slice(1).map((id) => ({ turnIds: [id], content: "x" })) }), /uncovered \(D1:1\)/],
    ["bad date", (ids) => ({ units: ids.map((id) => ({ turnIds: [id], content: "x", eventTime: { start: "last spring", granularity: "season" } })) }), /eventTime is unusable/],
    ["bad granularity", (ids) => ({ units: ids.map((id) => ({ turnIds: [id], content: "x", eventTime: { start: "2023-05-01", granularity: "decade" } })) }), /schema/],
  ];
  for (const [name, make, pattern] of cases) {
    await withServer(
      (body) => JSON.stringify(make(windowIds(body))),
      async (url) => {
        const anchorer = createLlmAnchorer({ model: createOpenAICompatibleLanguageModel({ baseURL: url, model: "fake", ...fast }), maxRetries: 0 });
        const result = await anchorer.anchorSession(session);
        assert.ok(result.units.every((u) => u.anchoredBy === RULE_ANCHORER_ID), name);
        assert.equal(result.units.length, 4, name);
        assert.equal(result.warnings.length, 1, name);
        assert.match(result.warnings[0]!, pattern, name);
      },
    );
  }
});

test("one window failing with 500s falls back while the other keeps its LLM units", async () => {
  await withServer(
    (body) => (windowIds(body).includes("D1:1") ? { status: 500, body: { error: { message: "boom" } } } : goodAnswer(windowIds(body))),
    async (url, requests) => {
      const model = createOpenAICompatibleLanguageModel({ baseURL: url, model: "fake", maxRetries: 2, ...fast });
      const anchorer = createLlmAnchorer({ model, windowSize: 2 });
      const result = await anchorer.anchorSession(session);
      assert.equal(requests.length, 4, "3 attempts by the client for the failing window, 1 for the other; no re-ask of a failed request");
      assert.deepEqual(result.units.map((u) => [u.provenance.turnIds[0], u.anchoredBy]), [
        ["D1:1", RULE_ANCHORER_ID],
        ["D1:2", RULE_ANCHORER_ID],
        ["D1:3", anchorer.id],
        ["D1:4", anchorer.id],
      ]);
      assert.equal(result.units[1]!.cue, "Caroline: Hey Mel! I went to a LGBTQ support group yesterday.");
      assert.match(result.warnings[0]!, /turns D1:1…D1:2: the LLM call failed: .*HTTP 500 after 3 attempts/);
      assert.match(result.warnings[1]!, /1 of 2 windows \(2 turns\) fell back/);
      assert.deepEqual(result.fallback, { windows: 1, turns: 2, windowsTotal: 2 });
      assert.equal(result.llm.calls, 2);
    },
  );
});

test("tokens: the usage of every call is summed", async () => {
  await withServer(
    (body) => goodAnswer(windowIds(body)),
    async (url, requests) => {
      const anchorer = createLlmAnchorer({ model: createOpenAICompatibleLanguageModel({ baseURL: url, model: "fake", ...fast }), windowSize: 2 });
      const result = await anchorer.anchorSession(session);
      // The fake server counts whitespace-separated words, which this recomputes.
      const words = (s: string) => s.trim().split(/\s+/).length;
      const prompt = requests.reduce((n, r) => n + r.body.messages.reduce((m: number, msg: any) => m + words(msg.content), 0), 0);
      const completion = requests.reduce((n, r) => n + words(goodAnswer(windowIds(r.body))), 0);
      assert.deepEqual(result.llm, { calls: 2, promptTokens: prompt, completionTokens: completion });
      assert.ok(prompt > 0 && completion > 0);
    },
  );
});

test("concurrency: at most `concurrency` calls in flight, across sessions too", async () => {
  let inFlight = 0;
  let peak = 0;
  await withServer(
    async (body) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await new Promise((r) => setTimeout(r, 40));
      inFlight--;
      return goodAnswer(windowIds(body));
    },
    async (url, requests) => {
      const anchorer = createLlmAnchorer({ model: createOpenAICompatibleLanguageModel({ baseURL: url, model: "fake", ...fast }), windowSize: 1, concurrency: 2 });
      const other: SessionWithTurns = { ...session, session: { ...session.session, id: "S2" } };
      const results = await Promise.all([anchorer.anchorSession(session), anchorer.anchorSession(other)]);
      assert.equal(requests.length, 8);
      assert.equal(peak, 2);
      assert.deepEqual(results.map((r) => r.units.length), [4, 4]);
      assert.ok(results.every((r) => r.units.every((u) => u.anchoredBy === anchorer.id)));
    },
  );
});

test("options are checked", () => {
  const model = { specificationVersion: "v1" as const, id: "m", complete: async () => ({ text: "", usage: { promptTokens: 0, completionTokens: 0 } }) };
  assert.throws(() => createLlmAnchorer({ model, windowSize: 0 }), /windowSize must be a positive integer/);
  assert.throws(() => createLlmAnchorer({ model, concurrency: 1.5 }), /concurrency must be a positive integer/);
});
