import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { openMemory } from "../open-memory.js";
import type { Memory } from "../memory.js";
import type { MemoryStore } from "../store/contract.js";
import type { SessionWithTurns } from "../model/conversation.js";
import { openSqliteStore } from "../store/sqlite/sqlite-store.js";
import { openPostgresStore } from "../store/postgres/postgres-store.js";
import { postgresTestTarget, uniqueSchema } from "../store/postgres/testing/postgres-test-target.js";
import { deriveValidity } from "./derive-validity.js";
import { stateUnitsOf } from "./namespace-validity.js";

/**
 * Two writers on one store, as two processes would be: two store handles on
 * one SQLite file or one PostgreSQL schema, each behind its own Memory. One
 * writer's store call is held back 200 ms after its read, and the other
 * writes in between: the first write must see that and redo its work on the
 * fresh session, never put back what the other removed.
 */

type Opener = () => Promise<{ open: () => Promise<MemoryStore>; cleanup: () => Promise<void> }>;

const dialects: Array<[string, Opener | { skip: string }]> = [
  [
    "sqlite",
    async () => {
      const dir = mkdtempSync(join(tmpdir(), "ramem-concurrent-"));
      return { open: () => openSqliteStore(join(dir, "m.db")), cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
    },
  ],
  [
    "postgres",
    "url" in postgresTestTarget
      ? async () => {
          const url = (postgresTestTarget as { url: string }).url;
          const schema = uniqueSchema("cw");
          const handles: MemoryStore[] = [];
          return {
            open: async () => {
              const s = await openPostgresStore(url, { schema, maxConnections: 2, dropSchemaOnClose: handles.length === 0 });
              handles.push(s);
              return s;
            },
            cleanup: async () => {},
          };
        }
      : { skip: "fail" in postgresTestTarget ? postgresTestTarget.fail : (postgresTestTarget as { skip: string }).skip },
  ],
];

function chat(namespace: string, id: string, turns: Array<[string, string]>): SessionWithTurns {
  const start = "2023-01-01T10:00:00.000Z";
  return {
    session: { id, namespace, startTime: start, endTime: start, participants: [...new Set(turns.map(([speaker]) => speaker))] },
    turns: turns.map(([speaker, text], i) => ({ id: `${id}:${i + 1}`, speaker, text })),
  };
}

/** The store, with `method` held back `ms` before it runs (once, or every time). */
function holding(store: MemoryStore, method: keyof MemoryStore, ms: number, onHeld: () => void): MemoryStore {
  return new Proxy(store, {
    get(target, key) {
      const value = Reflect.get(target, key) as unknown;
      if (key !== method || typeof value !== "function") return typeof value === "function" ? (value as Function).bind(target) : value;
      return async (...args: unknown[]) => {
        onHeld();
        await sleep(ms);
        return (value as Function).apply(target, args);
      };
    },
  });
}

const turnOf = (m: Memory, ns: string) => async () => (await m.list({ namespace: ns })).map((u) => u.provenance.turnIds[0]);

for (const [dialect, opener] of dialects) {
  describe(`concurrent writers (${dialect})`, { ...("skip" in opener ? (process.env.RAMEM_REQUIRE_POSTGRES === "1" ? {} : { skip: opener.skip }) : {}) }, () => {
    if ("skip" in opener) {
      it("has a PostgreSQL server", () => assert.fail(opener.skip));
      return;
    }

    async function twoWriters(
      fixture: SessionWithTurns[],
      body: (a: (held?: { method: keyof MemoryStore; onHeld: () => void }) => Promise<Memory>, b: Memory) => Promise<void>,
    ): Promise<void> {
      const { open, cleanup } = await (opener as Opener)();
      const bStore = await open();
      const b = await openMemory({ store: bStore, embedder: "hash", languageModel: null, env: {} });
      const opened: Memory[] = [b];
      try {
        await b.ingest(fixture);
        const a = async (held?: { method: keyof MemoryStore; onHeld: () => void }) => {
          const raw = await open();
          const m = await openMemory({ store: held ? holding(raw, held.method, 200, held.onHeld) : raw, embedder: "hash", languageModel: null, env: {} });
          opened.push(m);
          return m;
        };
        await body(a, b);
      } finally {
        for (const m of opened.reverse()) await m.close();
        await cleanup();
      }
    }

    const FIVE: Array<[string, string]> = [
      ["Ann", "Good morning, Bob."],
      ["Bob", "My locker code is 1717."],
      ["Ann", "Noted. Lunch at noon?"],
      ["Bob", "My bike lock code is 2828."],
      ["Ann", "See you at the café then."],
    ];

    it("two forgets of different units of one session both stay forgotten", async () => {
      await twoWriters([chat("ns", "s1", FIVE)], async (writerA, b) => {
        const units = await b.list({ namespace: "ns" });
        const [x, y] = [units[1]!, units[3]!];
        let held = false;
        const a = await writerA({ method: "replaceSession", onHeld: () => (held = true) });
        const first = a.forgetUnit(x.id, { namespace: "ns" });
        while (!held) await sleep(5);
        // A has read the session and is about to write it back without x: B forgets y now.
        assert.equal(await b.forgetUnit(y.id, { namespace: "ns" }), true);
        assert.equal(await first, true);
        assert.deepEqual(await turnOf(b, "ns")(), ["s1:1", "s1:3", "s1:5"]);
        assert.deepEqual(await b.getAll({ namespace: "ns" }).then((r) => r.memories.some((u) => /1717|2828/.test(JSON.stringify(u)))), false);
        const events = (await b.history(y.id, { namespace: "ns" })).map((e) => e.event);
        assert.equal(events.at(-1), "forgotten", `history of the forgotten unit: ${events.join(" → ")}`);
      });
    });

    it("a forget held back while another writer appends keeps the appended turn and forgets the unit", async () => {
      await twoWriters([chat("ns", "s1", FIVE)], async (writerA, b) => {
        const x = (await b.list({ namespace: "ns" }))[1]!;
        let held = false;
        const a = await writerA({ method: "replaceSession", onHeld: () => (held = true) });
        const first = a.forgetUnit(x.id, { namespace: "ns" });
        while (!held) await sleep(5);
        const appended = await b.appendTurns({ namespace: "ns", sessionId: "s1", turns: [{ speaker: "Bob", text: "Bring the blue folder." }] });
        assert.equal(await first, true);
        const turns = await turnOf(b, "ns")();
        assert.ok(!turns.includes("s1:2"), `forgotten turn back: ${turns.join(",")}`);
        assert.ok(turns.includes(appended.turnIds[0]!), `appended turn lost: ${turns.join(",")}`);
      });
    });

    it("an update held back while another writer forgets a neighbour does not bring it back", async () => {
      await twoWriters([chat("ns", "s1", FIVE)], async (writerA, b) => {
        const units = await b.list({ namespace: "ns" });
        let held = false;
        const a = await writerA({ method: "updateUnits", onHeld: () => (held = true) });
        const first = a.update(units[2]!.id, { text: "Noted. Lunch at one?" }, { namespace: "ns" });
        while (!held) await sleep(5);
        assert.equal(await b.forgetUnit(units[3]!.id, { namespace: "ns" }), true);
        await first;
        const after = await b.list({ namespace: "ns" });
        assert.deepEqual(after.map((u) => u.provenance.turnIds[0]), ["s1:1", "s1:2", "s1:3", "s1:5"]);
        assert.match(after[2]!.content, /one/);
        assert.ok(!JSON.stringify(after).includes("2828"), "the forgotten unit's words are back");
      });
    });

    it("a forgotten unit's turn id and unit id are never given to a new turn; a retried forget is a no-op", async () => {
      await twoWriters([chat("ns", "s1", FIVE.slice(0, 3))], async (_a, b) => {
        const last = (await b.list({ namespace: "ns" })).at(-1)!;
        assert.equal(await b.forgetUnit(last.id, { namespace: "ns" }), true);
        const appended = await b.appendTurns({ namespace: "ns", sessionId: "s1", turns: [{ speaker: "Bob", text: "A new thing entirely." }] });
        assert.notEqual(appended.turnIds[0], "s1:3");
        assert.ok(!appended.unitIds.includes(last.id), "the forgotten unit id was given to the new turn");
        assert.equal(await b.get(last.id, { namespace: "ns" }), null);
        assert.equal(await b.forgetUnit(last.id, { namespace: "ns" }), false);
        assert.equal((await b.list({ namespace: "ns" })).length, 3);
        // A turn id given by the caller that names the forgotten turn is refused, and nothing is stored.
        await assert.rejects(
          b.appendTurns({ namespace: "ns", sessionId: "s1", turns: [{ id: "s1:3", speaker: "Bob", text: "Again." }] }),
          (e: unknown) => (e as { code?: string }).code === "TURN_ID_FORGOTTEN",
        );
        assert.equal((await b.list({ namespace: "ns" })).length, 3);
        // A whole session forgotten and started again under its id: new turn ids, new unit ids.
        const before = (await b.list({ namespace: "ns" })).map((u) => u.id);
        await b.forgetSession("s1", { namespace: "ns" });
        const again = await b.appendTurns({ namespace: "ns", sessionId: "s1", turns: [{ speaker: "Ann", text: "Fresh start." }] });
        assert.ok(again.created);
        assert.ok(!before.some((id) => again.unitIds.includes(id)), "a forgotten session's unit id came back");
      });
    });

    it("validity after a forget, in the process that forgot and in another one, equals a fresh derivation", async () => {
      const moves = chat("ns", "home", [
        ["Ann", "I live in Lisbon."],
        ["Bob", "Nice city."],
        ["Ann", "I moved to Porto last week."],
        ["Bob", "Oh, great."],
        ["Ann", "I moved to Tokyo now."],
      ]);
      moves.turns.forEach((t, i) => (t.time = `2023-0${i + 1}-01T10:00:00.000Z`));
      moves.session.endTime = "2023-05-01T10:00:00.000Z";
      await twoWriters([moves], async (writerA, b) => {
        const a = await writerA();
        const units = await b.list({ namespace: "ns" });
        const [lisbon, porto, tokyo] = [units[0]!, units[2]!, units[4]!];
        // Both handles derive (and keep) the validity before the forget.
        const wasSuperseded = (await a.validity(lisbon.id, { namespace: "ns" }))?.supersededBy;
        assert.ok(wasSuperseded, "fixture: Lisbon should be superseded");
        await b.validity(lisbon.id, { namespace: "ns" });
        // And what a recall keeps of the namespace (its snapshot: sessions, people, states).
        const question = "Where does Ann live now?";
        for (const m of [a, b]) assert.ok((await m.recall(question, { namespace: "ns", k: 5 })).hits.some((h) => h.unit.id === porto.id));
        assert.equal(await a.forgetUnit(porto.id, { namespace: "ns" }), true);
        const fresh = deriveValidity(stateUnitsOf(await b.list({ namespace: "ns" })));
        for (const m of [a, b]) {
          const v = await m.validity(lisbon.id, { namespace: "ns" });
          assert.deepEqual(v, fresh.get(lisbon.id) ?? null);
          assert.notEqual(v?.supersededBy, porto.id, "validity still names the forgotten unit");
          const hits = (await m.recall(question, { namespace: "ns", k: 5 })).hits;
          assert.ok(!hits.some((h) => h.unit.id === porto.id), "a recall served the forgotten unit");
          for (const h of hits) assert.deepEqual(h.unit.validity ?? null, fresh.get(h.unit.id) ?? null, `validity of ${h.unit.content}`);
        }
        assert.equal(fresh.get(lisbon.id)?.supersededBy, tokyo.id);
      });
    });
  });
}
