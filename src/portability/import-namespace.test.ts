import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openMemory } from "../open-memory.js";
import type { Memory } from "../memory.js";
import { createHashEmbedder } from "../providers/hash-embedder.js";
import { RamemError } from "../model/errors.js";
import { exportNamespace } from "./export-namespace.js";
import { importNamespace } from "./import-namespace.js";
import { decodeEmbedding } from "./export-format.js";
import { parseExport } from "./parse-export.js";
import { SRC_SESSIONS } from "./testing/src-sessions.js";

const isCode = (code: string) => (err: unknown) => {
  assert.ok(err instanceof RamemError, String(err));
  assert.equal(err.code, code, err.message);
  return true;
};

describe("importNamespace", () => {
  let dir: string;
  let source: Memory;
  let text: string;
  let n = 0;
  const fresh = (embedder: "hash" | ReturnType<typeof createHashEmbedder> = "hash") => openMemory({ db: join(dir, `t${++n}.db`), embedder, languageModel: null, env: {} });

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "ramem-port-"));
    source = await fresh();
    await source.ingest(SRC_SESSIONS);
    text = (await exportNamespace(source, "src", new Date("2026-01-01T00:00:00Z"))).join("\n");
  });
  after(async () => {
    await source.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("round trip: the imported namespace has the same sessions, units, vectors and recall", async () => {
    const target = await fresh();
    try {
      assert.deepEqual(await importNamespace(target, text), { namespace: "src", sessions: 2, units: 4 });
      assert.deepEqual(await target.store.listSessions("src"), await source.store.listSessions("src"));
      assert.deepEqual(await target.list({ namespace: "src" }), await source.list({ namespace: "src" }));
      const again = (await exportNamespace(target, "src", new Date("2026-01-01T00:00:00Z"))).join("\n");
      assert.equal(again, text);
      for (const q of ["Where did Ana move?", "surfing in January 2023", "dog"]) {
        const a = await source.recall(q, { namespace: "src", k: 3 });
        const b = await target.recall(q, { namespace: "src", k: 3 });
        assert.deepEqual(b, a, q);
      }
      // The stored vectors are the file's: a dense search with a file vector finds its unit first with similarity 1.
      const first = JSON.parse(text.split("\n")[2]!);
      const [top] = await target.store.searchDense("src", decodeEmbedding(first.embedding), 1);
      assert.equal(top!.id, first.unit.id);
      assert.ok(Math.abs(top!.score - 1) < 1e-6);
    } finally {
      await target.close();
    }
  });

  it("imports under another namespace when asked", async () => {
    const target = await fresh();
    try {
      await importNamespace(target, text, { namespace: "copy" });
      const units = await target.list({ namespace: "copy" });
      assert.equal(units.length, 4);
      assert.ok(units.every((u) => u.namespace === "copy"));
      assert.deepEqual(await target.store.listNamespaces(), ["copy"]);
    } finally {
      await target.close();
    }
  });

  it("refuses another embedder, a non-empty target, and damaged files, writing nothing", async () => {
    const other = await fresh(createHashEmbedder(64));
    try {
      await assert.rejects(importNamespace(other, text), (e) => isCode("EMBEDDER_MISMATCH")(e) && /hash-bow@1:256.*hash-bow@1:64/.test((e as Error).message));
      assert.equal((await other.stats()).units, 0);
    } finally {
      await other.close();
    }
    await assert.rejects(importNamespace(source, text), isCode("NAMESPACE_NOT_EMPTY"));
    const target = await fresh();
    try {
      const lines = text.split("\n");
      const damaged: Array<[string, RegExp]> = [
        [lines.slice(0, -1).join("\n"), /announces 2 sessions and 4 units, the file holds 2 and 3/],
        [lines.slice(1).join("\n"), /invalid header/],
        [[lines[0], lines[2], lines[1], ...lines.slice(3)].join("\n"), /does not follow the line of its session/],
        [[...lines.slice(0, 3), lines[2]!, ...lines.slice(3)].join("\n"), /appears twice/],
        [text.replace(/"embedding":"[^"]+"/, '"embedding":"AAAAAA=="'), /1-value embedding/],
        [text.replace('"content":"', '"content":5,"x":"'), /invalid unit line/],
        [`${text}\n{"type":"note"}`, /neither a session nor a unit/],
        [`${text}\n{oops`, /malformed JSON on line 8/],
        ["", /empty/],
      ];
      for (const [bad, message] of damaged) {
        await assert.rejects(importNamespace(target, bad), (e) => isCode("BAD_EXPORT")(e) && message.test((e as Error).message) && /nothing was imported/.test((e as RamemError).hint ?? ""));
        assert.equal((await target.stats()).units, 0);
      }
      assert.throws(() => parseExport(lines.slice(0, -1).join("\n"), "f.jsonl"), (e) => e instanceof RamemError && e.where === "f.jsonl");
      // A 10 MB value is quoted back cut to 200 characters, not whole.
      const huge = "u".repeat(10_000_000);
      const line = JSON.parse(lines[2]!);
      const twice = JSON.stringify({ ...line, unit: { ...line.unit, id: huge } });
      const withHuge = [...lines.slice(0, 2), twice, twice, ...lines.slice(4)].join("\n");
      await assert.rejects(importNamespace(target, withHuge), (e) => isCode("BAD_EXPORT")(e) && (e as Error).message.length < 500 && /^unit "u{200}"… \(10,000,000 characters\) appears twice$/.test((e as Error).message));
    } finally {
      await target.close();
    }
  });
});
