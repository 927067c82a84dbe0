import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeOpenAIServer } from "../../testing/fake-openai-server.js";
import { openSqliteStore } from "../../store/sqlite/sqlite-store.js";
import { runCli } from "../testing/run-cli.js";
import { oneUnitPerTurn } from "../../anchoring/testing/anchoring-prompt.js";

const CONVERSATION = {
  namespace: "trip",
  sessions: [
    {
      id: "S1",
      startTime: "2023-05-08T13:56:00Z",
      turns: [
        { id: "t1", speaker: "Ann", text: "I booked the train to Lyon for Friday." },
        { id: "t2", speaker: "Bob", text: "Great, I will bring the maps." },
        { id: "t3", speaker: "Ann", text: "Remember the museum closes at six." },
      ],
    },
  ],
};

async function withFile(run: (dir: string, file: string) => Promise<void>) {
  const dir = mkdtempSync(join(tmpdir(), "ramem-ingest-"));
  const file = join(dir, "trip.json");
  writeFileSync(file, JSON.stringify(CONVERSATION));
  try {
    await run(dir, file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("ramem ingest --anchorer llm: the configured LLM restates the turns; its calls and tokens are reported", async () => {
  const server = await startFakeOpenAIServer({
    chat: (body) => oneUnitPerTurn(body, "Restated by the model:"),
  });
  try {
    await withFile(async (dir, file) => {
      const db = join(dir, "m.db");
      const out = await runCli(["ingest", file, "--db", db, "--embedder", "hash", "--anchorer", "llm"], { RAMEM_LLM_BASE_URL: server.url, RAMEM_LLM_MODEL: "fake-anchor" });
      assert.equal(out.code, 0, out.stderr);
      assert.match(out.stdout, /anchored by llm-anchorer@2:openai-compatible:fake-anchor: 1 LLM calls, tokens in\/out \d+\/\d+/);
      const store = await openSqliteStore(db, { readonly: true });
      try {
        const units = await store.listUnits("trip");
        assert.deepEqual(units.map((u) => u.content), ["Restated by the model: t1.", "Restated by the model: t2.", "Restated by the model: t3."]);
        assert.ok(units.every((u) => u.anchoredBy.startsWith("llm-anchorer@2")));
      } finally {
        await store.close();
      }
    });
  } finally {
    await server.close();
  }
});

test("ramem ingest --anchorer llm without an LLM is a user error that writes nothing; the default stays the rules", async () => {
  await withFile(async (dir, file) => {
    const db = join(dir, "m.db");
    const refused = await runCli(["ingest", file, "--db", db, "--embedder", "hash", "--anchorer", "llm"]);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /llm anchorer needs a language model[\s\S]*RAMEM_LLM_BASE_URL/);
    const plain = await runCli(["ingest", file, "--db", db, "--embedder", "hash", "--json"]);
    assert.equal(plain.code, 0, plain.stderr);
    const report = JSON.parse(plain.stdout);
    assert.equal(report.unitsWritten, 3);
    assert.equal(report.llm.calls, 0);
    const bad = await runCli(["ingest", file, "--db", db, "--anchorer", "magic"]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /Allowed choices are rule, llm/);
  });
});

test("ramem bench locomo --anchorer llm: ingests with the LLM into a cache of its own; refused without an LLM", async () => {
  const server = await startFakeOpenAIServer({
    chat: (body) =>
      body.response_format ? oneUnitPerTurn(body, "Model restatement") : "No information available",
  });
  const dir = mkdtempSync(join(tmpdir(), "ramem-bench-llm-"));
  try {
    const args = ["bench", "locomo", "--data", "src/bench/testing/locomo-tiny.json", "--embedder", "hash", "--cache", join(dir, "cache"), "--out", join(dir, "out"), "--variants", "content-only", "--qa-limit", "1", "--quiet", "--anchorer", "llm"];
    const refused = await runCli(args);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /llm anchorer needs a language model[\s\S]*RAMEM_LLM_BASE_URL/);
    const out = await runCli(args, { RAMEM_LLM_BASE_URL: server.url, RAMEM_LLM_MODEL: "fake-anchor" });
    assert.equal(out.code, 0, out.stderr);
    const cached = readdirSync(join(dir, "cache"));
    assert.ok(cached.some((f) => /llm-anchorer_2_openai-compatible_fake-anchor.*\.db$/.test(f)), cached.join(", "));
    assert.ok(server.requests.some((r) => /cover every one/.test(String(r.body?.messages?.at(-1)?.content))), "the anchoring prompt reached the model");
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await server.close();
  }
});
