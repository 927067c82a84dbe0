import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openMemory } from "./open-memory.js";
import type { Memory } from "./memory.js";
import type { SessionWithTurns } from "./model/conversation.js";
import type { ScrubReport } from "./store/contract.js";

/**
 * Forget erases bytes: after a unit, a session or a namespace is forgotten,
 * none of its strings (turn text, speaker, session id, namespace) nor its
 * vector is left anywhere in the SQLite files (.db, -wal, -shm), while what
 * was not forgotten still is (the grep is checked on it).
 */

/** Every file SQLite keeps for `db`, read raw. */
function rawBytes(db: string): Buffer {
  return Buffer.concat([db, `${db}-wal`, `${db}-shm`].filter(existsSync).map((f) => readFileSync(f)));
}

/** The canaries (case-insensitive: FTS keeps lower-cased terms) and vectors found in the files. */
function found(db: string, canaries: readonly string[], vectors: readonly Float32Array[] = []): string[] {
  const bytes = rawBytes(db);
  const text = bytes.toString("latin1").toLowerCase();
  const hits = canaries.filter((c) => text.includes(c.toLowerCase()));
  vectors.forEach((v, i) => {
    if (bytes.includes(Buffer.from(v.buffer, v.byteOffset, v.byteLength))) hits.push(`vector ${i}`);
  });
  return hits;
}

const session = (namespace: string, id: string, turns: Array<[string, string]>): SessionWithTurns => ({
  session: { id, namespace, startTime: "2023-05-08T13:56:00.000Z", endTime: "2023-05-08T13:56:00.000Z", participants: [...new Set(turns.map(([who]) => who))] },
  turns: turns.map(([speaker, text], i) => ({ id: `${id}:${i + 1}`, speaker, text })),
});

async function withStore(run: (memory: Memory, db: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "ramem-erase-"));
  const db = join(dir, "erase.db");
  const memory = await openMemory({ db, embedder: "hash", languageModel: null, env: {} });
  try {
    await memory.ingest([session("kept", "control", [["Keeperperson", "The keptsentinelword stays in the file."]])]);
    await run(memory, db);
  } finally {
    await memory.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const vectorsOf = async (memory: Memory, namespace: string) => [...(await memory.store.getUnitEmbeddings(namespace, (await memory.list({ namespace })).map((u) => u.id))).values()];

describe("forget erases bytes (SQLite: .db, -wal, -shm)", () => {
  it("a unit: its words (content and the neighbour's cue) and its vector are gone, its session's other turns stay", async () => {
    await withStore(async (memory, db) => {
      await memory.ingest([
        session("ns", "s1", [
          ["Ana", "I went hiking yesterday."],
          ["Ben", "My secret is zqxunitcanary and qwpincode."],
          ["Ana", "That is a lovely secret to keep."],
        ]),
      ]);
      const secret = (await memory.list({ namespace: "ns" })).find((u) => u.content.includes("zqxunitcanary"))!;
      const [vector] = (await memory.store.getUnitEmbeddings("ns", [secret.id])).values();
      assert.deepEqual(found(db, ["zqxunitcanary", "keptsentinelword"]).sort(), ["keptsentinelword", "zqxunitcanary"], "the grep finds what is stored");
      let report: ScrubReport | undefined;
      assert.equal(await memory.forgetUnit(secret.id, { namespace: "ns", onScrubbed: (r) => (report = r) }), true);
      assert.deepEqual(found(db, ["zqxunitcanary", "qwpincode"], [vector!]), []);
      assert.equal(report?.complete, true, JSON.stringify(report));
      assert.deepEqual(found(db, ["keptsentinelword", "lovely secret"]).sort(), ["keptsentinelword", "lovely secret"]);
    });
  });

  it("a session: its id, speakers, text and vectors are gone", async () => {
    await withStore(async (memory, db) => {
      await memory.ingest([session("ns", "zqxsessioncanary", [["Zqxspeakercanary", "The zqxtextcanary plan."], ["Ana", "Sounds like zqxreplycanary."]])]);
      const vectors = await vectorsOf(memory, "ns");
      let report: ScrubReport | undefined;
      assert.equal(await memory.forgetSession("zqxsessioncanary", { namespace: "ns", onScrubbed: (r) => (report = r) }), 2);
      assert.equal(report?.complete, true, JSON.stringify(report));
      assert.deepEqual(found(db, ["zqxsessioncanary", "zqxspeakercanary", "zqxtextcanary", "zqxreplycanary"], vectors), []);
      assert.deepEqual(found(db, ["keptsentinelword"]), ["keptsentinelword"]);
    });
  });

  it("a namespace, with purge (VACUUM): its name and everything in it are gone, the file is compacted", async () => {
    await withStore(async (memory, db) => {
      await memory.ingest([session("zqxnamespacecanary", "s1", [["Zqxnsspeaker", "The zqxnstext note."]]), session("zqxnamespacecanary", "s2", [["Ana", "More zqxnsmore words."]])]);
      const vectors = await vectorsOf(memory, "zqxnamespacecanary");
      let report: ScrubReport | undefined;
      assert.equal(await memory.forgetNamespace("zqxnamespacecanary", { purge: true, onScrubbed: (r) => (report = r) }), 2);
      assert.deepEqual(report?.steps, ["fts optimize", "vacuum", "wal checkpoint (truncate)"]);
      assert.equal(report?.complete, true, JSON.stringify(report));
      assert.deepEqual(found(db, ["zqxnamespacecanary", "zqxnsspeaker", "zqxnstext", "zqxnsmore"], vectors), []);
      assert.deepEqual(found(db, ["keptsentinelword"]), ["keptsentinelword"]);
      assert.deepEqual(await memory.store.listNamespaces(), ["kept"]);
    });
  });
});
