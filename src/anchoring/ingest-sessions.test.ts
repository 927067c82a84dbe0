/**
 * ingestSessions is pipelined (the next sessions are anchored while earlier
 * ones embed); these pin that it still writes in input order and keeps the
 * one-session-at-a-time failure rule: the sessions before a failing one are
 * stored, nothing of it or after it.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { ingestSessions } from "./ingest-sessions.js";
import { createRuleAnchorer } from "./rule-anchorer.js";
import { openSqliteStore } from "../store/sqlite/sqlite-store.js";
import { createHashEmbedder } from "../providers/hash-embedder.js";
import type { Embedder } from "../providers/embedder.js";
import type { Anchorer } from "./anchorer.js";
import type { SessionWithTurns } from "../model/conversation.js";

function session(n: number, namespace = "pipe"): SessionWithTurns {
  const start = new Date(Date.UTC(2023, 0, n)).toISOString();
  return {
    session: { id: `s${n}`, namespace, startTime: start, endTime: start, participants: ["Ana", "Bo"] },
    turns: [
      { id: `s${n}:1`, speaker: "Ana", text: `Session ${n}: I walked to the lighthouse.` },
      { id: `s${n}:2`, speaker: "Bo", text: `Session ${n}: the gulls were loud.` },
    ],
  };
}

/** An embedder whose calls finish in reverse order of arrival, and one call of which can fail. */
function slowEmbedder(failOn?: string): Embedder & { calls: string[] } {
  const hash = createHashEmbedder();
  const calls: string[] = [];
  let pending = 0;
  return {
    ...hash,
    calls,
    async embed(texts) {
      calls.push(texts[0]!);
      const wait = 40 - 10 * pending++;
      await new Promise((r) => setTimeout(r, Math.max(1, wait)));
      pending--;
      if (failOn && texts.some((t) => t.includes(failOn))) throw new Error(`embedding failed on ${failOn}`);
      return hash.embed(texts);
    },
  };
}

function failingAnchorer(onSession: string): Anchorer {
  const rule = createRuleAnchorer();
  return { ...rule, anchorSession: (s) => (s.session.id === onSession ? Promise.reject(new Error(`anchoring failed on ${onSession}`)) : rule.anchorSession(s)) };
}

test("ingestSessions: sessions are written in input order and progress counts them in order", async () => {
  const store = await openSqliteStore(":memory:");
  const embedder = slowEmbedder();
  const seen: number[] = [];
  const report = await ingestSessions({ store, embedder, anchorer: createRuleAnchorer() }, [1, 2, 3, 4, 5, 6].map((n) => session(n)), {
    onProgress: (p) => seen.push(p.sessionsDone),
  });
  assert.equal(report.unitsWritten, 12);
  assert.deepEqual(seen, [1, 2, 3, 4, 5, 6]);
  // More than one session was embedding at a time (the pipeline), yet all were written.
  assert.equal(embedder.calls.length, 6);
  const sessions = await store.listSessions("pipe");
  assert.deepEqual(sessions.map((s) => s.id).sort(), ["s1", "s2", "s3", "s4", "s5", "s6"]);
  await store.close();
});

test("ingestSessions: a failed embedding stores the sessions before it and nothing of it or after it", async () => {
  const store = await openSqliteStore(":memory:");
  await assert.rejects(
    ingestSessions({ store, embedder: slowEmbedder("Session 3:"), anchorer: createRuleAnchorer() }, [1, 2, 3, 4, 5, 6, 7, 8].map((n) => session(n))),
    /embedding failed on Session 3/,
  );
  assert.deepEqual((await store.listSessions("pipe")).map((s) => s.id).sort(), ["s1", "s2"]);
  await store.close();
});

test("ingestSessions: a failed anchoring still stores every session before it", async () => {
  const store = await openSqliteStore(":memory:");
  await assert.rejects(
    ingestSessions({ store, embedder: slowEmbedder(), anchorer: failingAnchorer("s4") }, [1, 2, 3, 4, 5].map((n) => session(n))),
    /anchoring failed on s4/,
  );
  assert.deepEqual((await store.listSessions("pipe")).map((s) => s.id).sort(), ["s1", "s2", "s3"]);
  await store.close();
});

test("ingestSessions: a session given twice is written once and counted unchanged the second time", async () => {
  const store = await openSqliteStore(":memory:");
  const report = await ingestSessions({ store, embedder: slowEmbedder(), anchorer: createRuleAnchorer() }, [session(1), session(2), session(1)]);
  assert.equal(report.sessionsUnchanged, 1);
  assert.equal(report.unitsWritten, 4);
  await store.close();
});

test("ingestSessions: a session without endTime or participants ends at its start; given again with them spelled out, it is unchanged", async () => {
  const store = await openSqliteStore(":memory:");
  const deps = { store, embedder: slowEmbedder(), anchorer: createRuleAnchorer() };
  const full = session(1);
  const bare = { session: { id: full.session.id, namespace: full.session.namespace, startTime: full.session.startTime }, turns: full.turns };
  const first = await ingestSessions(deps, [bare]);
  assert.equal(first.unitsWritten, 2);
  const stored = await store.getSession("pipe", "s1");
  assert.equal(stored?.endTime, full.session.startTime);
  const again = await ingestSessions(deps, [{ ...full, session: { ...full.session, participants: [] } }]);
  assert.equal(again.sessionsUnchanged, 1, "the default is what an explicit endTime equal to the start would be");
  // An endTime before the start is still refused, naming the field.
  await assert.rejects(
    ingestSessions(deps, [{ ...full, session: { ...full.session, id: "s9", endTime: "2022-01-01T00:00:00Z" } }]),
    (e: Error & { where?: string }) => /endTime/.test(e.where ?? "") && /before its startTime/.test(e.message),
  );
  await store.close();
});

test("ingestSessions: beforeFirstWrite is awaited once, before the first write, and not at all when every session is unchanged", async () => {
  const store = await openSqliteStore(":memory:");
  const deps = { store, embedder: slowEmbedder(), anchorer: createRuleAnchorer() };
  const events: string[] = [];
  const write = store.replaceSession.bind(store);
  store.replaceSession = async (s, ...rest) => {
    events.push(`write ${s.id}`);
    return write(s, ...rest);
  };
  const beforeFirstWrite = async () => {
    events.push("before");
    // Awaited: a write must not start while it runs.
    await new Promise((r) => setTimeout(r, 20));
    events.push("before done");
  };
  await ingestSessions(deps, [session(1), session(2)], { beforeFirstWrite });
  assert.deepEqual(events, ["before", "before done", "write s1", "write s2"]);
  events.length = 0;
  // The same sessions again: unchanged, nothing written, the hook not called.
  const again = await ingestSessions(deps, [session(1), session(2)], { beforeFirstWrite });
  assert.equal(again.sessionsUnchanged, 2);
  assert.deepEqual(events, []);
  // One unchanged session first, a new one after: the hook comes before the new one's write.
  await ingestSessions(deps, [session(1), session(3)], { beforeFirstWrite });
  assert.deepEqual(events, ["before", "before done", "write s3"]);
  await store.close();
});

test("ingestSessions: a failing beforeFirstWrite fails the ingest and nothing is written; a session that fails before its write never calls it", async () => {
  const store = await openSqliteStore(":memory:");
  const sessions = [4, 5, 6, 7, 8, 9].map((n) => session(n));
  // Sessions anchored ahead wait to be written while the hook fails: none of them may be written after it.
  const failing = () => Promise.reject(new Error("drop failed"));
  await assert.rejects(
    ingestSessions({ store, embedder: slowEmbedder(), anchorer: concurrentAnchorer(3) }, sessions, { beforeFirstWrite: failing }),
    /drop failed/,
  );
  assert.equal((await store.stats()).units, 0);
  let calls = 0;
  await assert.rejects(
    ingestSessions({ store, embedder: slowEmbedder(), anchorer: concurrentAnchorer(1, "s4") }, sessions, {
      beforeFirstWrite: async () => void calls++,
    }),
    /anchoring failed on s4/,
  );
  assert.equal(calls, 0, "the first session failed in its anchoring: nothing was about to change");
  assert.equal((await store.stats()).units, 0);
  await store.close();
});

/** An anchorer of the given concurrency whose sessions finish in reverse order of arrival; it records how many were in it at once. */
function concurrentAnchorer(concurrency: number | undefined, failOn?: string): Anchorer & { most: number; started: string[] } {
  const rule = createRuleAnchorer();
  let inside = 0;
  const out = {
    ...rule,
    ...(concurrency === undefined ? {} : { concurrency }),
    most: 0,
    started: [] as string[],
    async anchorSession(s: SessionWithTurns) {
      out.started.push(s.session.id);
      inside++;
      out.most = Math.max(out.most, inside);
      await new Promise((r) => setTimeout(r, Math.max(1, 40 - 10 * inside)));
      inside--;
      if (s.session.id === failOn) throw new Error(`anchoring failed on ${failOn}`);
      return rule.anchorSession(s);
    },
  };
  return out;
}

test("ingestSessions: an anchorer that takes several sessions gets up to its concurrency at once; they are written in input order", async () => {
  const store = await openSqliteStore(":memory:");
  const anchorer = concurrentAnchorer(3);
  const seen: number[] = [];
  const report = await ingestSessions({ store, embedder: slowEmbedder(), anchorer }, [1, 2, 3, 4, 5, 6, 7].map((n) => session(n)), {
    onProgress: (p) => seen.push(p.sessionsDone),
  });
  assert.equal(anchorer.most, 3);
  assert.equal(report.unitsWritten, 14);
  assert.deepEqual(seen, [1, 2, 3, 4, 5, 6, 7]);
  assert.deepEqual((await store.listSessions("pipe")).map((s) => s.id).sort(), ["s1", "s2", "s3", "s4", "s5", "s6", "s7"]);
  await store.close();
});

test("ingestSessions: an anchorer without a concurrency gets one session at a time", async () => {
  const store = await openSqliteStore(":memory:");
  const anchorer = concurrentAnchorer(undefined);
  await ingestSessions({ store, embedder: slowEmbedder(), anchorer }, [1, 2, 3, 4].map((n) => session(n)));
  assert.equal(anchorer.most, 1);
  await store.close();
});

test("ingestSessions: with sessions anchored ahead, a failed anchoring stores the sessions before it, nothing after it, and starts no more", async () => {
  const store = await openSqliteStore(":memory:");
  const anchorer = concurrentAnchorer(2, "s3");
  await assert.rejects(
    ingestSessions({ store, embedder: slowEmbedder(), anchorer }, [1, 2, 3, 4, 5, 6, 7, 8].map((n) => session(n))),
    /anchoring failed on s3/,
  );
  assert.deepEqual((await store.listSessions("pipe")).map((s) => s.id).sort(), ["s1", "s2"]);
  // s4 was in the anchorer beside s3; once s3's failure was seen, no later session was started.
  assert.deepEqual(anchorer.started, ["s1", "s2", "s3", "s4"]);
  await store.close();
});
