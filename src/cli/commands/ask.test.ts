import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openMemory } from "../../open-memory.js";
import { startFakeOpenAIServer } from "../../testing/fake-openai-server.js";
import { NO_LLM_NOTE } from "./ask.js";
import { runCli } from "../testing/run-cli.js";

/** `ramem ask` in a child process (real stdout, stderr, exit code) while the fake server answers in this one. */
const runAsk = (args: string[], env: Record<string, string>) => runCli(["ask", ...args], env);

async function withDb(run: (db: string) => Promise<void>) {
  const dir = mkdtempSync(join(tmpdir(), "ramem-ask-"));
  const db = join(dir, "test.db");
  try {
    const memory = await openMemory({ db, embedder: "hash", languageModel: null, env: {} });
    await memory.ingest([
      {
        session: { id: "S1", namespace: "conv", startTime: "2023-05-08T13:56:00.000Z", endTime: "2023-05-08T13:56:00.000Z", participants: ["Caroline", "Melanie"] },
        turns: [
          { id: "D1:1", speaker: "Caroline", text: "I went to a LGBTQ support group yesterday and it was powerful." },
          { id: "D1:2", speaker: "Melanie", text: "I painted a sunrise over the lake last week." },
        ],
      },
    ]);
    await memory.close();
    await run(db);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const question = "When did Caroline go to the support group?";

test("ramem ask without an LLM prints the evidence pack and says how to get an answer", async () => {
  await withDb(async (db) => {
    const out = await runAsk([question, "--db", db, "--embedder", "hash", "--namespace", "conv"], {});
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stdout, /^<memories>\nparticipants in every session: Caroline, Melanie\n## S1 · 8 May 2023\n/);
    assert.match(out.stdout, /support group yesterday \(7 May 2023\)/);
    assert.match(out.stdout, /<\/memories>\n$/);
    assert.ok(out.stderr.includes(NO_LLM_NOTE));
  });
});

test("ramem ask with an LLM prints the answer and the cited memories; --json carries both", async () => {
  const server = await startFakeOpenAIServer({ chat: () => "7 May 2023\nSources: [1]" });
  try {
    await withDb(async (db) => {
      const env = { RAMEM_LLM_BASE_URL: server.url, RAMEM_LLM_MODEL: "fake" };
      const args = [question, "--db", db, "--embedder", "hash", "--namespace", "conv", "--k", "2", "--question-date", "2023-06-20"];
      const out = await runAsk(args, env);
      assert.equal(out.code, 0, out.stderr);
      const [answer, blank, heading, cited] = out.stdout.split("\n");
      assert.equal(answer, "7 May 2023");
      assert.equal(blank, "");
      assert.equal(heading, "cited memories:");
      assert.match(cited!, /^#1 {2}\[D1:1\] Caroline/);
      assert.ok(!out.stderr.includes(NO_LLM_NOTE));
      assert.match(server.requests[0]!.body.messages[1].content, /Question \(asked on 2023-06-20\): When did Caroline/);

      const json = await runAsk([...args, "--json"], env);
      assert.equal(json.code, 0, json.stderr);
      const parsed = JSON.parse(json.stdout);
      assert.equal(parsed.answer, "7 May 2023");
      assert.equal(parsed.llmConfigured, true);
      assert.equal(parsed.questionDate, "2023-06-20T00:00:00.000Z");
      assert.deepEqual(parsed.cited, [{ rank: 1, unitId: parsed.hits[0].id, turnIds: ["D1:1"] }]);
      assert.equal(parsed.hits.length, 2);
      assert.match(parsed.evidence.text, /^<memories>/);
    });
  } finally {
    await server.close();
  }
});

test("ramem ask: a bad --question-date is a user error", async () => {
  const out = await runAsk([question, "--question-date", "someday", "--db", join(tmpdir(), "ramem-never-created.db")], {});
  assert.equal(out.code, 2);
  assert.match(out.stderr, /^error: --question-date must be an ISO date/);
  assert.doesNotMatch(out.stderr, /at .*\.ts:\d+/, "no stack trace");
});

test("ramem ask on an unknown namespace exits 2 naming the stored namespaces, and prints no empty pack", async () => {
  await withDb(async (db) => {
    const out = await runAsk([question, "--db", db, "--embedder", "hash", "--namespace", "cnov"], {});
    assert.equal(out.code, 2, out.stderr);
    assert.equal(out.stdout, "");
    assert.match(out.stderr, /^error: namespace "cnov" holds no sessions in .*\n {2}hint: pass one of its namespaces with --namespace: conv/);
  });
});

test("--llm-frame: recall and ask let the LLM ground the frame first; without an LLM it is a user error", async () => {
  const frameAnswer = JSON.stringify({
    need: "What did she paint?",
    time: { relation: "during", start: "2023-05-08", end: "2023-05-09", granularity: "day", evidence: "on her mum's birthday" },
    participants: ["melanie"],
    location: null,
  });
  // The frame call asks for JSON; the answer call does not.
  const server = await startFakeOpenAIServer({ chat: (body) => (body.response_format ? frameAnswer : "a sunrise\nSources: [1]") });
  try {
    await withDb(async (db) => {
      const env = { RAMEM_LLM_BASE_URL: server.url, RAMEM_LLM_MODEL: "fake" };
      const query = "What did she paint on her mum's birthday?";
      const recall = await runCli(["recall", query, "--db", db, "--embedder", "hash", "--namespace", "conv", "--llm-frame", "--json"], env);
      assert.equal(recall.code, 0, recall.stderr);
      const parsed = JSON.parse(recall.stdout);
      assert.deepEqual(parsed.frame.participants.names, ["Melanie"]);
      assert.equal(parsed.frame.time.window.start, "2023-05-08T00:00:00.000Z");
      assert.equal(parsed.frame.active, true);
      assert.deepEqual(parsed.frameRefinement.added, ["time", "participants"]);
      assert.equal(parsed.frameRefinement.usage.calls, 1);
      assert.equal(server.requests.length, 1);

      const ask = await runAsk([query, "--db", db, "--embedder", "hash", "--namespace", "conv", "--llm-frame"], env);
      assert.equal(ask.code, 0, ask.stderr);
      assert.match(ask.stdout, /^a sunrise\n/);
      assert.match(ask.stderr, /LLM \(openai-compatible:fake\) added: time, participants/);
      assert.equal(server.requests.length, 3, "one frame call and one answer call");

      const without = await runCli(["recall", query, "--db", db, "--embedder", "hash", "--namespace", "conv", "--llm-frame"], {});
      assert.equal(without.code, 2);
      assert.match(without.stderr, /llmFrame needs a language model[\s\S]*RAMEM_LLM_BASE_URL/);
    });
  } finally {
    await server.close();
  }
});

test("ramem ask on what was never said answers \"I don't have that in memory.\" without a model call; --no-abstain asks the model; recall prints the judgment", async () => {
  const server = await startFakeOpenAIServer({ chat: () => "Every Sunday\nSources: [1]" });
  try {
    await withDb(async (db) => {
      const env = { RAMEM_LLM_BASE_URL: server.url, RAMEM_LLM_MODEL: "fake" };
      const never = "How often do I play table tennis?";
      const base = [never, "--db", db, "--embedder", "hash", "--namespace", "conv"];
      const out = await runAsk(base, env);
      assert.equal(out.code, 0, out.stderr);
      assert.match(out.stdout, /^I don't have that in memory\.\nno stored memory mentions .*"tennis"/);
      const json = await runAsk([...base, "--json"], env);
      const parsed = JSON.parse(json.stdout);
      assert.equal(parsed.abstained, true);
      assert.equal(parsed.holdsEvidence.likely, false);
      assert.equal(server.requests.length, 0, "no model call when the store holds nothing for the question");
      const asked = JSON.parse((await runAsk([...base, "--json", "--no-abstain"], env)).stdout);
      assert.equal(asked.abstained, false);
      assert.equal(asked.answer, "Every Sunday");
      assert.equal(server.requests.length, 1);

      const recalled = await runCli(["recall", never, "--db", db, "--embedder", "hash", "--namespace", "conv"]);
      assert.match(recalled.stdout, /^evidence: likely NOT held \(confidence 0\.\d\d\): no stored memory mentions/m);
      const held = await runCli(["recall", question, "--db", db, "--embedder", "hash", "--namespace", "conv"]);
      assert.match(held.stdout, /^evidence: likely held \(confidence 0\.\d\d\)/m);
    });
  } finally {
    await server.close();
  }
});
