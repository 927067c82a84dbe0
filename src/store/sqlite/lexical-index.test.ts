import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { MemoryStore, UnitRecord } from "../contract.js";
import type { Session } from "../../model/conversation.js";
import { TEST_DIMS, TEST_EMBEDDER, makeRecord, makeSession } from "../testing/make-unit.js";
import { seededRandom } from "../../util/seeded-random.js";
import { openSqliteStore } from "./sqlite-store.js";
import Database from "better-sqlite3";
import { SlotsByRowid, unitPostings, type UnitPostings } from "./lexical-postings.js";
import { SqliteLexicalIndexes } from "./lexical-index.js";
import { namespaceToken } from "./sqlite-rows.js";
import { parseFilter } from "../../model/memory-filter.js";

const dir = mkdtempSync(join(tmpdir(), "ramem-lex-"));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const freshPath = () => join(dir, `lex-${process.pid}-${n++}.db`);

// Zipf-like: early words are common, late ones rare; "running"/"runs" share run's stem, "five-a-side" is a phrase to FTS5.
const WORDS = ["garden", "river", "pottery", "concert", "running", "runs", "lisbon", "kayak", "studio", "marathon", "five-a-side", "recipe", "violin", "chess", "hiking", "tokyo", "museum", "bakery", "poem", "glacier"];
const rnd = seededRandom(7);
const pick = () => WORDS[Math.floor(WORDS.length * rnd() ** 2)]!;
const sentence = (words: number) => Array.from({ length: words }, pick).join(" ");

function records(s: Session, count: number, from = 0): UnitRecord[] {
  return Array.from({ length: count }, (_, i) =>
    makeRecord(s, from + i, { id: `${s.namespace}:${s.id}-u${from + i}`, content: `Ana: ${sentence(2 + Math.floor(rnd() * 12))}.`, cue: rnd() < 0.4 ? sentence(3) : "" }),
  );
}

async function filledStore(path: string, annMinUnits: number, { otherNamespace = true, readAll = false } = {}): Promise<MemoryStore> {
  const store = await openSqliteStore(path, { annMinUnits, ...(readAll ? { lexicalReadAllMinUnits: 1 } : {}) });
  await store.bindEmbedder(TEST_EMBEDDER, TEST_DIMS);
  for (let i = 0; i < 5; i++) {
    const s = makeSession({ id: `s${i}`, startTime: `2023-05-0${i + 1}T10:00:00Z` });
    await store.replaceSession(s, `h${i}`, records(s, 40));
  }
  if (!otherNamespace) return store;
  const other = makeSession({ namespace: "ns-b", id: "b0" });
  await store.replaceSession(other, "hb", records(other, 30));
  return store;
}

// Terms below half of the file's units (the store leaves out the ones above; see informativeTerms), some twice by stem.
const QUERIES = [
  ["pottery"],
  ["running", "runs"],
  ["lisbon", "studio", "marathon"],
  ["glacier", "poem", "bakery", "museum"],
  ["museum", "concert", "five-a-side"],
  ["kayak", "violin", "chess", "hiking", "tokyo"],
  ["recipe", "nowhere"],
  ["nowhere"],
];

/** What FTS5 itself answers on the same file (the index's threshold out of reach). */
async function ftsAnswer(path: string, namespace: string, terms: readonly string[], k: number) {
  const fts = await openSqliteStore(path, { annMinUnits: Number.MAX_SAFE_INTEGER, readonly: true });
  try {
    return await fts.searchLexical(namespace, terms, k);
  } finally {
    await fts.close();
  }
}

async function assertRanksAsFts(store: MemoryStore, path: string, namespace = "ns-a"): Promise<void> {
  for (const terms of QUERIES) await assertSameAsFts(store, path, terms, namespace);
}

async function assertSameAsFts(store: MemoryStore, path: string, terms: readonly string[], namespace = "ns-a"): Promise<void> {
  for (const k of [5, 100]) {
    const got = await store.searchLexical(namespace, terms, k);
    const want = await ftsAnswer(path, namespace, terms, k);
    assert.deepEqual(
      got.map((h) => [h.id, h.rank]),
      want.map((h) => [h.id, h.rank]),
      `${terms.join(" ")} (k ${k})`,
    );
    got.forEach((h, i) => assert.ok(Math.abs(h.score - want[i]!.score) < 1e-9, `${terms.join(" ")}: score of ${h.id}`));
  }
}

// Both ways of reading terms: each when a search first names it, and all when the index is built (ns-a, most of the file; ns-b stays lazy).
for (const readAll of [false, true])
describe(`sqlite lexical index (FTS5's bm25 in memory above the threshold; terms read ${readAll ? "all when built" : "when first searched"})`, () => {
  it("ranks every query exactly as FTS5 does: same units, order, ranks and scores, ties by rowid", async () => {
    const path = freshPath();
    const store = await filledStore(path, 1, { readAll });
    try {
      await assertRanksAsFts(store, path);
      await assertRanksAsFts(store, path, "ns-b");
      assert.ok((await store.searchLexical("ns-a", ["pottery"], 100)).length > 10, "the fixture matches many units");
    } finally {
      await store.close();
    }
  });

  it("leaves out a term in half of the file's units as the FTS5 path does (its bm25 weight is 1e-6)", async () => {
    const path = freshPath();
    const store = await filledStore(path, 1, { readAll });
    try {
      // A filter that selects every unit sends the search through FTS5, which leaves such terms out of its query too.
      const everything = { where: parseFilter({ sessionId: { nin: ["none"] } }) };
      for (const terms of [["ana", "pottery"], ["ana", "glacier", "poem"], ["ana"]]) {
        const got = await store.searchLexical("ns-a", terms, 50);
        const want = await store.searchLexical("ns-a", terms, 50, everything);
        assert.deepEqual(got.map((h) => [h.id, h.rank]), want.map((h) => [h.id, h.rank]), terms.join(" "));
      }
      // Left out: units that only it matches are not hits (the whole query, below the threshold, returns every unit).
      const pruned = await store.searchLexical("ns-a", ["ana", "glacier"], 500);
      assert.ok(pruned.length < 200 && pruned.length > 0, `${pruned.length} hits`);
      assert.equal((await ftsAnswer(path, "ns-a", ["ana", "glacier"], 500)).length, 200);
    } finally {
      await store.close();
    }
  });

  it("stays exact through this handle's and another connection's writes, in its namespace and in another", async () => {
    const path = freshPath();
    const store = await filledStore(path, 1, { readAll });
    try {
      await assertRanksAsFts(store, path);
      // This handle: a session grows, a unit is rewritten in place (same rowid), one is deleted, a session replaced and one forgotten.
      // A rewrite keeps the unit count: only the log tells the index.
      const [first] = await store.listUnits("ns-a", { sessionId: "s0" });
      await store.updateUnits("ns-a", "s0", "h0b", [makeRecord(makeSession({ id: "s0", startTime: "2023-05-01T10:00:00Z" }), 0, { id: first!.id, content: "Ana: pottery pottery pottery glacier." })], { expectedHash: "h0" });
      assert.equal((await store.searchLexical("ns-a", ["pottery"], 1))[0]?.id, first!.id, "the rewritten unit is read as it is now");
      await assertRanksAsFts(store, path);
      const s1 = makeSession({ id: "s1", startTime: "2023-05-02T10:00:00Z" });
      await store.appendUnits(s1, "h1b", records(s1, 5, 40), { expectedHash: "h1" });
      const [, second] = await store.listUnits("ns-a", { sessionId: "s2" });
      assert.equal(await store.deleteUnit("ns-a", second!.id), true);
      const s3 = makeSession({ id: "s3", startTime: "2023-05-04T10:00:00Z" });
      await store.replaceSession(s3, "h3b", records(s3, 12));
      await store.deleteSession("ns-a", "s4");
      await assertRanksAsFts(store, path);
      // Another connection writes (the index learns it from the log), and the other namespace changes the file's document counts.
      const other = await openSqliteStore(path, { annMinUnits: Number.MAX_SAFE_INTEGER });
      const late = makeSession({ id: "late", startTime: "2023-06-01T10:00:00Z" });
      await other.replaceSession(late, "hl", records(late, 20));
      const b1 = makeSession({ namespace: "ns-b", id: "b1" });
      await other.replaceSession(b1, "hb1", records(b1, 60));
      await other.close();
      await assertRanksAsFts(store, path);
    } finally {
      await store.close();
    }
  });

  it("counts a term's units anew after a delete: a search repeated before and after one is FTS5's each time", async () => {
    const path = freshPath();
    // One namespace in the file: its postings then stay loaded through the delete (another namespace's would have them read again).
    const store = await filledStore(path, 1, { otherNamespace: false, readAll });
    try {
      for (const terms of [["glacier"], ["glacier", "poem"]]) {
        await assertSameAsFts(store, path, terms);
        await assertSameAsFts(store, path, terms);
        const [hit] = await store.searchLexical("ns-a", terms, 1);
        assert.equal(await store.deleteUnit("ns-a", hit!.id), true);
        await assertSameAsFts(store, path, terms);
      }
    } finally {
      await store.close();
    }
  });

  it("forgets with the namespace: a forgotten and re-ingested namespace is ranked from its new units", async () => {
    const path = freshPath();
    const store = await filledStore(path, 1, { readAll });
    try {
      await assertRanksAsFts(store, path);
      await store.deleteNamespace("ns-a");
      assert.deepEqual(await store.searchLexical("ns-a", ["pottery"], 10), []);
      const s = makeSession({ id: "again" });
      await store.replaceSession(s, "ha", records(s, 25));
      await assertRanksAsFts(store, path);
    } finally {
      await store.close();
    }
  });
});

describe("SqliteLexicalIndexes: when terms are read", () => {
  it("reads every term of a namespace past the size that is most of the file when it builds, of a smaller share only the terms searched, and ranks alike", async () => {
    const path = freshPath();
    await (await filledStore(path, 1)).close();
    const db = new Database(path);
    try {
      const readsAll = new SqliteLexicalIndexes(db, 1, 1);
      const readsSearched = new SqliteLexicalIndexes(db, 1);
      for (const terms of QUERIES) {
        const all = readsAll.search("ns-a", terms, 100, namespaceToken("ns-a"), false);
        const searched = readsSearched.search("ns-a", terms, 100, namespaceToken("ns-a"), false);
        assert.ok(all && all.length > 0 === (terms[0] !== "nowhere"), terms.join(" "));
        assert.deepEqual(all, searched, terms.join(" "));
      }
      // ns-a holds 200 of the file's 230 units: every word of the fixture is read, not only the ones the queries name.
      assert.ok(readsAll.termsRead("ns-a") > readsSearched.termsRead("ns-a"), `${readsAll.termsRead("ns-a")} against ${readsSearched.termsRead("ns-a")}`);
      assert.ok(readsAll.termsRead("ns-a") >= WORDS.length, `${readsAll.termsRead("ns-a")} terms`);
      // ns-b's 30 are not: the pass over the file's instances would be mostly another namespace's.
      readsAll.search("ns-b", ["pottery"], 10, namespaceToken("ns-b"), false);
      assert.equal(readsAll.termsRead("ns-b"), 1);
    } finally {
      db.close();
    }
  });
});

describe("unitPostings (a term's instances summed per unit of the namespace)", () => {
  // Rowids 3, 7 and 12 are the namespace's (slots 0, 1, 2); 9 is another namespace's.
  const slots = new Map([[3, 0], [7, 1], [12, 2]]);
  const slotOf = { get: (rowid: number) => slots.get(rowid) ?? -1 };
  const plain = (p: UnitPostings) => ({ slots: [...p.slots.subarray(0, p.length)], freqs: [...p.freqs.subarray(0, p.length)], outside: p.outside });
  it("sums content instances as 1 and cue instances as 0.5 per unit (0: another column), in rowid order, counting the units outside", () => {
    assert.deepEqual(plain(unitPostings([3, 3, -3, 0, 7, -9, -9, 12], slotOf)), { slots: [0, 1, 2], freqs: [2.5, 1, 1], outside: 1 });
  });
  it("gives the same sums when a unit's instances are not adjacent", () => {
    assert.deepEqual(plain(unitPostings([7, 3, -7, 0, 3, -3, 9], slotOf)), { slots: [0, 1], freqs: [2.5, 1.5], outside: 1 });
  });
});

describe("SlotsByRowid", () => {
  it("answers like a Map through writes in order, out of order, deletes and a spread that leaves the array", () => {
    const slots = new SlotsByRowid();
    const reference = new Map<number, number>();
    const set = (rowid: number, slot: number) => (slots.set(rowid, slot), reference.set(rowid, slot));
    const del = (rowid: number) => (slots.delete(rowid), reference.delete(rowid));
    const same = () => {
      for (const rowid of [0, 1, 2, 499, 500, 501, 1_000, 1_999, 2_000, 2_500, 5_000, 50_000, 1_000_000, 1_000_001]) assert.equal(slots.get(rowid), reference.get(rowid) ?? -1, `rowid ${rowid}`);
    };
    for (let r = 500; r < 2_000; r++) set(r, r - 500);
    same();
    set(2, 1_500); // below the base: the array grows down
    del(1_000);
    same();
    set(1_000, 7); // back again, another slot
    same();
    set(1_000_000, 1_501); // far out: a Map from here on, with everything kept
    del(501);
    same();
    set(1_000_001, 1_502);
    same();
  });
});
