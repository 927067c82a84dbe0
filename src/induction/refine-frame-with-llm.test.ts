import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { startFakeOpenAIServer, type FakeReply } from "../testing/fake-openai-server.js";
import { createOpenAICompatibleLanguageModel } from "../providers/openai-compatible/index.js";
import { induceFrame } from "./induce-frame.js";
import { LLM_CONDITION_CONFIDENCE, refineFrameWithLlm } from "./refine-frame-with-llm.js";

const HISTORY = { start: "2023-01-01T00:00:00.000Z", end: "2023-12-31T00:00:00.000Z" };
const PEOPLE = ["Caroline", "Melanie"];

/** The rule frame for `query`, then the refinement with a fake model that answers `reply`. */
async function refine(query: string, reply: string | FakeReply) {
  const server = await startFakeOpenAIServer({ chat: () => reply });
  try {
    const model = createOpenAICompatibleLanguageModel({ baseURL: server.url, model: "fake-frame", retryDelayMs: 1, maxRetries: 0 });
    const rules = await induceFrame(query, { history: HISTORY, knownPeople: PEOPLE });
    const refined = await refineFrameWithLlm(query, rules, { model, history: HISTORY, knownPeople: PEOPLE, questionDate: "2023-07-01T00:00:00.000Z" });
    return { rules, refined, requests: server.requests };
  } finally {
    await server.close();
  }
}

const answer = (o: unknown) => JSON.stringify(o);

describe("refineFrameWithLlm", () => {
  it("grounds a time the rules could not, and the frame becomes active", async () => {
    const { rules, refined, requests } = await refine("What did we plan the week after the barbecue?", answer({
      need: "What did we plan?",
      time: { relation: "during", start: "2023-06-05", end: "2023-06-12", granularity: "week", evidence: "the week after the barbecue" },
      participants: [],
      location: null,
    }));
    assert.equal(rules.active, false);
    assert.deepEqual(refined.added, ["time"]);
    assert.equal(refined.frame.active, true);
    assert.equal(refined.frame.time?.window.start, "2023-06-05T00:00:00.000Z");
    assert.equal(refined.frame.time?.confidence, LLM_CONDITION_CONFIDENCE);
    assert.equal(refined.frame.need, "What did we plan?");
    assert.match(refined.frame.notes.join(" | "), /fake-frame\) added: time/);
    assert.equal(refined.usage.calls, 1);
    assert.ok(refined.usage.promptTokens > 0);
    // One JSON-mode call that tells the model the question, its date, the history and the people.
    assert.equal(requests.length, 1);
    assert.deepEqual(requests[0]!.body.response_format, { type: "json_object" });
    assert.match(requests[0]!.body.messages[1].content, /Question date: 2023-07-01[\s\S]*Known people: Caroline, Melanie/);
  });

  it("never overrides a reliable rule grounding; a disagreement is noted", async () => {
    const { rules, refined } = await refine("What did Caroline do in June 2023?", answer({
      time: { relation: "during", start: "2023-07-01", end: "2023-08-01", granularity: "month", evidence: "in June 2023" },
      participants: ["Melanie"],
    }));
    assert.equal(rules.time?.confidence, 1);
    assert.deepEqual(refined.frame.time, rules.time);
    assert.deepEqual(refined.frame.participants, rules.participants);
    assert.deepEqual(refined.added, []);
    assert.match(refined.frame.notes.join(" | "), /rule grounding is kept/);
  });

  it("keeps only known people and places the question names", async () => {
    const { refined } = await refine("What did my friend bring to the party at the lake house?", answer({
      participants: ["melanie", "Bob"],
      location: "Paris",
    }));
    assert.deepEqual(refined.frame.participants?.names, ["Melanie"]);
    assert.equal(refined.frame.location, null);
    assert.match(refined.frame.notes.join(" | "), /not in this memory ignored: Bob/);
    assert.match(refined.frame.notes.join(" | "), /'Paris' is not in the question/);
    const lake = await refine("What did we eat at the lake house?", answer({ location: "Lake House" }));
    assert.equal(lake.rules.location, null);
    assert.deepEqual(lake.refined.frame.location?.names, ["Lake House"]);
  });

  it("ignores a time outside the history or not an interval", async () => {
    const outside = await refine("What happened the summer we met?", answer({
      time: { relation: "during", start: "2019-06-01", end: "2019-09-01", granularity: "season", evidence: "the summer we met" },
    }));
    assert.equal(outside.refined.frame.time, null);
    assert.match(outside.refined.frame.notes.join(" | "), /outside the history/);
    const backwards = await refine("What happened the summer we met?", answer({
      time: { relation: "during", start: "2023-09-01", end: "2023-06-01", granularity: "season", evidence: "the summer we met" },
    }));
    assert.equal(backwards.refined.frame.time, null);
    assert.match(backwards.refined.frame.notes.join(" | "), /not a valid interval/);
  });

  it("falls back to the rule frame, with a warning, on a malformed answer, a schema violation or a failed call", async () => {
    for (const [reply, reason] of [
      ["{not json", /not JSON/],
      [answer({ time: { relation: "soon", start: "2023-01-01", end: "2023-02-01", granularity: "month", evidence: "x" } }), /frame schema/],
      [{ status: 500, body: { error: { message: "boom" } } }, /500|boom/],
    ] as const) {
      const { rules, refined } = await refine("What did Caroline paint?", reply);
      assert.match(refined.warning ?? "", reason);
      assert.deepEqual({ ...refined.frame, notes: [] }, { ...rules, notes: [] });
      assert.equal(refined.frame.notes.at(-1), refined.warning);
    }
  });
});
