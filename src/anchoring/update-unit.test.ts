import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { Memory } from "../memory.js";
import type { MemoryStore } from "../store/contract.js";
import { openSqliteStore } from "../store/sqlite/sqlite-store.js";
import { openPostgresStore } from "../store/postgres/postgres-store.js";
import { describeWithPostgres, uniqueSchema } from "../store/postgres/testing/postgres-test-target.js";
import { createHashEmbedder } from "../providers/hash-embedder.js";
import type { Anchorer } from "./anchorer.js";
import { createRuleAnchorer } from "./rule-anchorer.js";
import { unitId } from "./unit-id.js";
import { updateUnit } from "./update-unit.js";
import { setSupersession } from "./set-supersession.js";
import { verbatimText } from "../synthesis/verbatim-text.js";

const conversation = {
  session: { id: "s1", namespace: "garden", startTime: "2023-05-08T13:56:00.000Z", endTime: "2023-05-08T13:58:00.000Z", participants: [] },
  turns: [
    {
      id: "s1:1",
      speaker: "Ann",
      text: "I planted tulips yesterday.",
      time: "2023-05-08T13:56:00.000Z",
      attachments: [{ kind: "image" as const, caption: "a flower bed by the fence" }],
    },
    { id: "s1:2", speaker: "Bob", text: "Did the frost spare them?" },
    { id: "s1:3", speaker: "Ann", text: "Yes, they are fine." },
  ],
};

const CORRECTED = "I planted daffodils yesterday.";

/**
 * Update, then reanchor: the correction stays in the content, in the
 * verbatim turn (what the evidence pack shows) and after the reanchor that
 * re-derives the session from those turns; the history keeps both texts.
 */
function correctionSurvives(open: () => Promise<MemoryStore>): void {
  it("update rewrites the verbatim turn; the evidence pack and a reanchor show the corrected words; the history keeps both", async () => {
    const memory = new Memory({ store: await open(), embedder: createHashEmbedder(), defaultNamespace: "garden" });
    try {
      await memory.ingest([conversation]);
      const [first] = await memory.store.listUnits("garden");
      const updated = await memory.update(first!.id, { text: CORRECTED }, { actor: "key-ann" });

      // The verbatim turn says the corrected words and keeps everything else about the turn.
      assert.deepEqual(updated.source, [{ ...conversation.turns[0], text: CORRECTED }]);
      assert.match(updated.content, /daffodils yesterday \(7 May 2023\)/);
      assert.match(updated.content, /a flower bed by the fence/, "anchored as its turn, attachments included");

      // The evidence pack (what a generator reads) quotes the correction, not the old words.
      const { evidence } = await memory.ask("What did Ann plant?", { k: 3 });
      assert.ok(evidence.included.some((u) => u.id === first!.id), evidence.text);
      assert.match(evidence.text, /daffodils/);
      assert.doesNotMatch(evidence.text, /tulips/);

      const report = await memory.reanchor("garden");
      assert.equal(report.unitsWritten, 3);
      const [after, next] = await memory.store.listUnits("garden");
      assert.equal(after!.id, first!.id);
      assert.equal(after!.content, updated.content, "reanchor re-derives the corrected unit from the corrected turn");
      assert.deepEqual(after!.source, updated.source);
      assert.match(verbatimText(after!), /^Ann: I planted daffodils yesterday \(7 May 2023\)/);
      assert.doesNotMatch(next!.cue, /tulips/, "the next unit's cue, quoting the turn, follows the correction through reanchor too");
      assert.doesNotMatch((await memory.ask("What did Ann plant?", { k: 3 })).evidence.text, /tulips/);

      // Ingesting the original input again (its hash now differs from the reanchored session's) does not bring the old words back.
      await memory.ingest([conversation]);
      assert.match((await memory.store.listUnits("garden"))[0]!.source![0]!.text, /daffodils/);
      assert.doesNotMatch((await memory.ask("What did Ann plant?", { k: 3 })).evidence.text, /tulips/);

      // Both the original words and the correction stay in the unit's history.
      const history = await memory.history(first!.id);
      const created = history.find((e) => e.event === "created");
      const correction = history.find((e) => e.event === "updated");
      assert.match(created?.text ?? "", /tulips/);
      assert.match(correction?.previousText ?? "", /tulips/);
      assert.match(correction?.text ?? "", /daffodils/);
      assert.equal(correction?.actor, "key-ann");
    } finally {
      await memory.close();
    }
  });
}

describe("a correction survives the input ingested again", () => {
  it("the same input is skipped; under another anchorer the corrected words are anchored, not the input's", async () => {
    const store = await openSqliteStore(":memory:");
    const memory = new Memory({ store, embedder: createHashEmbedder(), defaultNamespace: "garden" });
    try {
      await memory.ingest([conversation]);
      const [first] = await store.listUnits("garden");
      await memory.update(first!.id, { text: CORRECTED });
      assert.equal((await memory.ingest([conversation])).sessionsUnchanged, 1, "the update keeps the session's source hash");
      // Another anchorer version changes the hash: the session is anchored again, from the input, with the correction carried over.
      const rule = createRuleAnchorer();
      const upgraded = new Memory({ store, embedder: createHashEmbedder(), defaultNamespace: "garden", anchorer: { ...rule, id: `${rule.id}+test` } });
      assert.equal((await upgraded.ingest([conversation])).sessionsUnchanged, 0);
      const after = await store.listUnits("garden");
      assert.match(after[0]!.source![0]!.text, /daffodils/);
      assert.match(after[0]!.content, /daffodils/);
      assert.equal(after[1]!.source![0]!.text, conversation.turns[1]!.text, "uncorrected turns come from the input");
    } finally {
      await memory.close();
    }
  });
});

describe("update then reanchor (SQLite)", () => {
  correctionSurvives(() => openSqliteStore(":memory:"));

  it("a window anchorer's shared turn: the corrected copy wins over an older copy listed before it", async () => {
    // Units over two turns each ([1,2], [2,3], [3]): turn 2 is in the first two.
    const windows: Anchorer = {
      ...createRuleAnchorer(),
      id: "windows@1",
      async anchorSession({ session, turns }) {
        const units = turns.map((t, i) => {
          const span = turns.slice(i, i + 2);
          return {
            id: unitId(session.namespace, session.id, span.map((x) => x.id), "windows@1"),
            namespace: session.namespace,
            content: span.map((x) => `${x.speaker}: ${x.text}`).join(" "),
            cue: "",
            context: {
              eventTime: null,
              mentionedTimes: [],
              session: { sessionId: session.id, start: session.startTime, end: session.endTime },
              participants: [...new Set(span.map((x) => x.speaker))],
              role: null,
              location: null,
              entities: [],
              topic: null,
            },
            provenance: { sessionId: session.id, turnIds: span.map((x) => x.id) },
            anchoredBy: "windows@1",
            source: span.map((x) => ({ ...x })),
          };
        });
        return { units, warnings: [] };
      },
    };
    const memory = new Memory({ store: await openSqliteStore(":memory:"), embedder: createHashEmbedder(), anchorer: windows, defaultNamespace: "garden" });
    try {
      await memory.ingest([conversation]);
      const second = (await memory.store.listUnits("garden"))[1]!;
      assert.deepEqual(second.provenance.turnIds, ["s1:2", "s1:3"]);
      const fixed = "Did the hail spare them?";
      const updated = await memory.update(second.id, { text: fixed });
      assert.deepEqual(updated.source?.map((t) => t.text), [fixed, "Yes, they are fine."], "the correction is in the turn it anchors; the window's other turn stays");

      await memory.reanchor("garden");
      const after = await memory.store.listUnits("garden");
      assert.deepEqual(after.map((u) => u.source?.map((t) => t.text)), [
        ["I planted tulips yesterday.", fixed],
        [fixed, "Yes, they are fine."],
        ["Yes, they are fine."],
      ]);
      assert.ok(after.every((u) => !/frost/.test(u.content)), after.map((u) => u.content).join(" | "));
    } finally {
      await memory.close();
    }
  });
});

describeWithPostgres("update then reanchor (PostgreSQL)", (url) => {
  correctionSurvives(() => openPostgresStore(url, { schema: uniqueSchema("upd"), dropSchemaOnClose: true, maxConnections: 2 }));
});

/** The store, but the first getSession call runs `other` (another writer's call on the real store) before it reads. */
function racingStore(real: MemoryStore, other: () => Promise<unknown>): { store: MemoryStore; ran: () => boolean } {
  let pending: (() => Promise<unknown>) | null = other;
  const store = new Proxy(real, {
    get(target, key, receiver) {
      if (key === "getSession")
        return async (...args: Parameters<MemoryStore["getSession"]>) => {
          const run = pending;
          pending = null;
          if (run) await run();
          return target.getSession(...args);
        };
      const value = Reflect.get(target, key, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { store, ran: () => pending === null };
}

describe("an update and a supersession of the same unit by two writers", () => {
  const states = {
    session: { id: "s1", namespace: "home", startTime: "2023-05-08T10:00:00.000Z", endTime: "2023-05-08T10:05:00.000Z", participants: ["Ann"] },
    turns: [
      { id: "s1:1", speaker: "Ann", text: "I live in Lisbon." },
      { id: "s1:2", speaker: "Ann", text: "I moved to Porto." },
    ],
  };
  const at = { actor: "test", at: "2023-06-01T00:00:00.000Z" };
  const text = "I live in Lisbon, by the river.";

  // Each writer reads the unit, then the session's hash: a write of the other in between must show in what it writes.
  it("a supersession committed between an update's first read and its write is kept, and an update between a supersession's is", async () => {
    const real = await openSqliteStore(":memory:");
    const memory = new Memory({ store: real, embedder: createHashEmbedder(), defaultNamespace: "home" });
    try {
      await memory.ingest([states]);
      const [lisbon, porto] = await real.listUnits("home");
      const deps = { embedder: createHashEmbedder(), anchorer: createRuleAnchorer() };

      const first = racingStore(real, () => setSupersession(real, "home", lisbon!.id, porto!.id, at));
      await updateUnit({ ...deps, store: first.store }, "home", lisbon!.id, text);
      assert.ok(first.ran(), "the other writer ran");
      let [after] = await real.getUnits("home", [lisbon!.id]);
      assert.match(after!.content, /by the river/);
      assert.equal(after!.supersession?.supersededBy, porto!.id, "the supersession survived the update");

      await setSupersession(real, "home", lisbon!.id, null, at);
      const second = racingStore(real, () => updateUnit({ ...deps, store: real }, "home", lisbon!.id, "I live in Lisbon, near the castle."));
      await setSupersession(second.store, "home", lisbon!.id, porto!.id, at);
      assert.ok(second.ran(), "the other writer ran");
      [after] = await real.getUnits("home", [lisbon!.id]);
      assert.match(after!.content, /near the castle/, "the update survived the supersession");
      assert.equal(after!.supersession?.supersededBy, porto!.id);
    } finally {
      await memory.close();
    }
  });
});
