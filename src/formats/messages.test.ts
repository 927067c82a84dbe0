import { describe, it, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { detectFormat, readConversationFile } from "./conversation-file.js";
import { RamemError } from "../model/errors.js";
import { runCli } from "../cli/testing/run-cli.js";

const dir = mkdtempSync(join(tmpdir(), "ramem-messages-"));
after(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

const CHAT = [
  { role: "system", content: "You are helpful." },
  { role: "user", content: "I adopted a greyhound called Pixel.", createdAt: "2024-02-01T10:00:00Z" },
  { role: "assistant", content: [{ type: "text", text: "Congratulations on Pixel!" }], createdAt: "2024-02-01T10:00:05Z" },
];

describe("messages format (OpenAI-style)", () => {
  it("is detected in JSON, {messages}, and JSONL, and read as one session per conversation", async () => {
    const json = file("chat.json", JSON.stringify(CHAT));
    const wrapped = file("wrapped.json", JSON.stringify({ messages: CHAT }));
    const lines = file("lines.jsonl", CHAT.map((m) => JSON.stringify(m)).join("\n"));
    const convs = file("convs.jsonl", [JSON.stringify({ messages: CHAT }), JSON.stringify({ messages: CHAT.slice(1) })].join("\n"));
    assert.equal(detectFormat(json, JSON.stringify(CHAT)), "messages");
    assert.equal(detectFormat(lines, CHAT.map((m) => JSON.stringify(m)).join("\n")), "messages");
    assert.equal(detectFormat("x.jsonl", '{"session": {"id": "s1"}, "speaker": "Ann", "text": "hi"}'), "native");
    for (const path of [json, wrapped, lines]) {
      const { conversations } = await readConversationFile(path, { namespace: "chat" });
      const [s] = conversations[0]!.sessions;
      assert.equal(conversations[0]!.namespace, "chat");
      assert.deepEqual(s!.turns.map((t) => [t.speaker, t.role]), [["system", "system"], ["user", "user"], ["assistant", "assistant"]]);
      assert.equal(s!.turns[2]!.text, "Congratulations on Pixel!");
      assert.equal(s!.turns[1]!.time, "2024-02-01T10:00:00.000Z");
    }
    const two = await readConversationFile(convs);
    assert.deepEqual(two.conversations[0]!.sessions.map((s) => s.session.id), ["convs-1", "convs-2"]);
  });

  it("refuses an unknown role or empty content naming the line and message", async () => {
    const bad = file("bad.jsonl", [JSON.stringify(CHAT[1]), JSON.stringify({ role: "narrator", content: "once upon a time" })].join("\n"));
    await assert.rejects(readConversationFile(bad), (err: unknown) => err instanceof RamemError && /messages\[1\] › role/.test(err.where ?? "") && /narrator/.test(err.message));
    const empty = file("empty.json", JSON.stringify([{ role: "user", content: "" }]));
    await assert.rejects(readConversationFile(empty), (err: unknown) => err instanceof RamemError && /content/.test(err.where ?? ""));
  });

  it("ramem ingest reads it (--format messages or detected) and recall finds it", async () => {
    const db = join(dir, "m.db");
    const path = file("pets.json", JSON.stringify(CHAT));
    const ingested = await runCli(["ingest", path, "--format", "messages", "--namespace", "pets", "--db", db, "--embedder", "hash", "--json", "--quiet"]);
    assert.equal(ingested.code, 0, ingested.stderr);
    assert.equal(JSON.parse(ingested.stdout).unitsWritten, 3);
    const again = await runCli(["ingest", path, "--namespace", "pets", "--db", db, "--embedder", "hash", "--json", "--quiet"]);
    assert.equal(JSON.parse(again.stdout).sessionsUnchanged, 1, "detected, and unchanged on a second ingest");
    const recalled = await runCli(["recall", "greyhound Pixel", "--namespace", "pets", "--db", db, "--json"]);
    assert.equal(recalled.code, 0, recalled.stderr);
    assert.match(JSON.parse(recalled.stdout).hits[0].content, /Pixel/);
    const filtered = await runCli(["recall", "greyhound Pixel", "--namespace", "pets", "--db", db, "--json", "--filter", '{"role": "assistant"}', "--min-score", "0"]);
    assert.equal(filtered.code, 0, filtered.stderr);
    assert.ok(JSON.parse(filtered.stdout).hits.every((h: { context: { role: string } }) => h.context.role === "assistant"));
    const bad = await runCli(["recall", "x", "--namespace", "pets", "--db", db, "--filter", '{"colour": 1}']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /unknown filter field "colour"/);
  });
});
