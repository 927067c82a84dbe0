import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "../testing/run-cli.js";
import { openMemory } from "../../open-memory.js";

test("ramem export --namespace NS --out FILE, then ramem import FILE into a new store, gives the same units", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ramem-export-cli-"));
  const a = join(dir, "a.db");
  const b = join(dir, "b.db");
  const file = join(dir, "conv.jsonl");
  try {
    const memory = await openMemory({ db: a, embedder: "hash", languageModel: null, env: {} });
    await memory.ingest([
      {
        session: { id: "s1", namespace: "conv", startTime: "2023-05-08T13:56:00.000Z", endTime: "2023-05-08T13:56:00.000Z", participants: ["Ana", "Ben"] },
        turns: [
          { id: "t1", speaker: "Ana", text: "I moved to Lisbon last August." },
          { id: "t2", speaker: "Ben", text: "Do you like the tiles there?" },
        ],
      },
    ]);
    const original = await memory.list({ namespace: "conv" });
    await memory.close();

    const exported = await runCli(["export", "--db", a, "--namespace", "conv", "--out", file]);
    assert.equal(exported.code, 0, exported.stderr);
    assert.match(exported.stderr, /exported 1 sessions, 2 units of conv/);
    // The new store is empty and unbound: import picks the export's embedder (hash) by itself.
    // --store (not --db) here: import once dropped --store and wrote to ./ramem.db.
    const imported = await runCli(["import", "--store", b, file, "--json"]);
    assert.equal(imported.code, 0, imported.stderr);
    assert.deepEqual(JSON.parse(imported.stdout), { namespace: "conv", sessions: 1, units: 2 });
    const copy = await openMemory({ db: b, languageModel: null, env: {} });
    assert.deepEqual(await copy.list({ namespace: "conv" }), original);
    await copy.close();

    writeFileSync(join(dir, "bad.jsonl"), readFileSync(file, "utf8").split("\n").slice(0, 2).join("\n"));
    const truncated = await runCli(["import", "--db", join(dir, "c.db"), "--embedder", "hash", join(dir, "bad.jsonl")]);
    assert.equal(truncated.code, 2);
    assert.match(truncated.stderr, /bad\.jsonl: the header announces 1 sessions and 2 units, the file holds 1 and 0/);

  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
