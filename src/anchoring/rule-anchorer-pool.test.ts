import { test } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { readConversationFile } from "../formats/conversation-file.js";
import { createRuleAnchorer } from "./rule-anchorer.js";
import { createRuleAnchorerPool } from "./rule-anchorer-pool.js";
import { ingestSessions } from "./ingest-sessions.js";
import { openSqliteStore } from "../store/sqlite/sqlite-store.js";
import { createHashEmbedder } from "../providers/hash-embedder.js";

const fixture = (name: string) => fileURLToPath(new URL(`../formats/fixtures/${name}`, import.meta.url));
const sessionsOf = async (name: string) => (await readConversationFile(fixture(name))).conversations.flatMap((c) => c.sessions);

test("rule-anchorer pool: the threads make the units the in-process anchorer makes, session by session", async () => {
  const sessions = [...(await sessionsOf("locomo-mini.json")), ...(await sessionsOf("longmemeval-mini.json"))];
  assert.ok(sessions.length >= 4, "the fixtures give several sessions");
  const single = createRuleAnchorer({ cueWords: 12 });
  const pool = createRuleAnchorerPool({ threads: 2, cueWords: 12 });
  try {
    assert.equal(pool.id, single.id);
    assert.equal(pool.concurrency, 2);
    // All at once: both threads busy, replies matched to their sessions.
    const [expected, got] = await Promise.all([Promise.all(sessions.map((s) => single.anchorSession(s))), Promise.all(sessions.map((s) => pool.anchorSession(s)))]);
    assert.deepEqual(got, expected);
    assert.ok(got.some((r) => r.units.length > 0));
  } finally {
    await pool.close();
  }
  await assert.rejects(pool.anchorSession(sessions[0]!), { code: "ANCHORER_POOL" });
});

test("rule-anchorer pool: ingest through it stores what ingest in one thread stores, and a re-ingest in one thread finds it unchanged", async () => {
  const sessions = await sessionsOf("locomo-mini.json");
  const embedder = createHashEmbedder();
  const pooled = await openSqliteStore(":memory:");
  const alone = await openSqliteStore(":memory:");
  const pool = createRuleAnchorerPool({ threads: 2 });
  try {
    await ingestSessions({ store: pooled, embedder, anchorer: pool }, sessions);
    await ingestSessions({ store: alone, embedder, anchorer: createRuleAnchorer() }, sessions);
    const namespace = sessions[0]!.session.namespace;
    const strip = (units: Awaited<ReturnType<typeof pooled.listUnits>>) => units.map(({ createdAt: _c, updatedAt: _u, ...u }) => u);
    assert.deepEqual(strip(await pooled.listUnits(namespace)), strip(await alone.listUnits(namespace)));
    const again = await ingestSessions({ store: pooled, embedder, anchorer: createRuleAnchorer() }, sessions);
    assert.equal(again.sessionsUnchanged, sessions.length);
  } finally {
    await pool.close();
    await pooled.close();
    await alone.close();
  }
});
