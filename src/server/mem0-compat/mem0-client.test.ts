// Mem0's own MemoryClient (the official `mem0ai` npm package) against a real
// ramem server on 127.0.0.1: every call goes through the client's code, so
// its paths, headers (`Authorization: Token <key>`), bodies and its reading
// of the answers are the ones tested. Nothing leaves loopback: telemetry is
// off, and a fetch to any other host fails the test.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestServer, type TestServer } from "../testing/server-fixture.js";

// Read by mem0ai when it is loaded: set before the dynamic import below.
process.env.MEM0_TELEMETRY = "false";
const mem0Dir = mkdtempSync(join(tmpdir(), "ramem-mem0-home-"));
process.env.MEM0_DIR = mem0Dir;

const offLoopback: string[] = [];
const realFetch = globalThis.fetch;
globalThis.fetch = (async (input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) => {
  const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
  if (url.hostname !== "127.0.0.1") {
    offLoopback.push(url.href);
    throw new Error(`test: no network beyond loopback (${url.href})`);
  }
  return realFetch(input, init);
}) as typeof fetch;

const { MemoryClient, AuthenticationError, MemoryNotFoundError, ValidationError } = await import("mem0ai");
type Client = InstanceType<typeof MemoryClient>;

/** The problem+json body the client puts in an error's message. */
function problemIn(err: unknown): { status: number; code: string; detail: string; hint?: string } {
  return JSON.parse((err as Error).message);
}

describe("Mem0's MemoryClient against ramem serve", () => {
  let t: TestServer;
  let admin: Client;
  let writer: Client;
  let reader: Client;
  let bob: Client;
  const made: { lisbon?: string; reply?: string; cello?: string } = {};

  before(async () => {
    t = await startTestServer({
      keys: [
        { role: "admin", namespaces: ["alice"] },
        { role: "write", namespaces: ["alice"] },
        { role: "read", namespaces: ["alice"] },
        { role: "write", namespaces: ["bob"] },
      ],
    });
    const host = t.server.url;
    const client = (i: number) => new MemoryClient({ apiKey: t.secrets[i]!, host });
    [admin, writer, reader, bob] = [client(0), client(1), client(2), client(3)];
  });

  after(async () => {
    globalThis.fetch = realFetch;
    await t.stop();
    rmSync(mem0Dir, { recursive: true, force: true });
  });

  it("passes the client's start-up key check (ping)", async () => {
    await writer.ping();
    await writer["initialized"];
    // The client keeps a telemetry id only once ping succeeded; with telemetry off it goes nowhere.
    assert.ok(writer.telemetryId, "the client's start-up check did not succeed");
  });

  it("add stores the messages in namespace user_id, session run_id, and answers them as Mem0 memories", async () => {
    const added = (await writer.add(
      [
        { role: "user", content: "I moved to Lisbon last month and I love pastel de nata." },
        { role: "assistant", content: "Lisbon is a lovely city to live in!" },
      ],
      { userId: "alice", agentId: "travel-bot", runId: "trip-1", metadata: { topic: "moving" } },
    )) as unknown as { results: any[]; status: string };
    assert.equal(added.status, "SUCCEEDED");
    assert.equal(added.results.length, 2);
    const [lisbon, reply] = added.results;
    assert.match(lisbon.id, /^u_/);
    assert.match(lisbon.memory, /Lisbon/);
    assert.equal(lisbon.event, "ADD");
    assert.equal(lisbon.userId, "alice");
    assert.equal(lisbon.agentId, "travel-bot");
    assert.equal(lisbon.runId, "trip-1");
    assert.deepEqual(lisbon.metadata, { topic: "moving" });
    made.lisbon = lisbon.id;
    made.reply = reply.id;
    // Stored as ramem has it: namespace alice, session trip-1, agent and run kept in metadata.
    const unit = await t.memory.get(lisbon.id, { namespace: "alice" });
    assert.equal(unit?.context.session.sessionId, "trip-1");
    assert.deepEqual(unit?.metadata, { topic: "moving", agent_id: "travel-bot", run_id: "trip-1", app_id: null });

    const more = (await writer.add([{ role: "user", content: "My sister Ana plays the cello in Porto every Sunday." }], { userId: "alice" })) as unknown as { results: any[] };
    assert.equal(more.results.length, 1);
    assert.equal(more.results[0].agentId, null);
    assert.equal(more.results[0].runId, null);
    made.cello = more.results[0].id;
    // Not the run's session: an add without run_id is not part of the run.
    assert.notEqual((await t.memory.get(made.cello!, { namespace: "alice" }))?.context.session.sessionId, "trip-1");
  });

  it("search recalls in the namespace its filters' user_id names, best first, with scores in [0, 1]", async () => {
    const found = await reader.search("Where did I move to?", { filters: { user_id: "alice" }, topK: 3 });
    assert.ok(found.results.length >= 1);
    assert.equal(found.results[0]!.id, made.lisbon);
    assert.match(found.results[0]!.memory!, /Lisbon/);
    assert.equal(found.results[0]!.userId, "alice");
    const scores = found.results.map((r) => r.score!);
    for (const s of scores) assert.ok(s >= 0 && s <= 1, `score ${s}`);
    assert.deepEqual(scores, [...scores].sort((a, b) => b - a));

    const byAgent = await reader.search("cello", { filters: { AND: [{ user_id: "alice" }, { agent_id: "travel-bot" }] } });
    assert.ok(byAgent.results.length > 0);
    assert.ok(byAgent.results.every((r) => r.agentId === "travel-bot"), "the agent_id filter let another agent's memory through");
    const cello = await reader.search("Who plays the cello?", { filters: { user_id: "alice" } });
    assert.equal(cello.results[0]!.id, made.cello);
  });

  it("get answers one memory by id", async () => {
    const m = await reader.get(made.lisbon!);
    assert.equal(m.id, made.lisbon);
    assert.match(m.memory!, /Lisbon/);
    assert.equal(m.userId, "alice");
    assert.deepEqual(m.metadata, { topic: "moving" });
    assert.ok(!Number.isNaN(Date.parse(String(m.createdAt))));
  });

  it("getAll pages the namespace's memories in conversation order", async () => {
    const all = await reader.getAll({ filters: { user_id: "alice" } });
    assert.equal(all.count, 3);
    assert.deepEqual(all.results.map((r) => r.id), [made.lisbon, made.reply, made.cello]);
    assert.equal(all.next, null);
    const first = await reader.getAll({ filters: { user_id: "alice" }, page: 1, pageSize: 2 });
    assert.equal(first.results.length, 2);
    assert.match(first.next ?? "", /page=2/);
    assert.equal(first.previous, null);
    const second = await reader.getAll({ filters: { user_id: "alice" }, page: 2, pageSize: 2 });
    assert.deepEqual(second.results.map((r) => r.id), [made.cello]);
    assert.equal(second.next, null);
    assert.match(second.previous ?? "", /page=1/);
    const ofRun = await reader.getAll({ filters: { AND: [{ user_id: "alice" }, { run_id: "trip-1" }] } });
    assert.deepEqual(ofRun.results.map((r) => r.id), [made.lisbon, made.reply]);
  });

  it("update corrects a memory's text (same id), and search finds the new words", async () => {
    const updated = (await writer.update(made.lisbon!, { text: "I moved to Porto last month." })) as unknown as { id: string; memory: string };
    assert.equal(updated.id, made.lisbon);
    assert.match(updated.memory, /Porto/);
    assert.doesNotMatch(updated.memory, /Lisbon/);
    assert.match((await reader.get(made.lisbon!)).memory!, /Porto/);
  });

  it("history lists ADD then UPDATE with the old and new text and who made each change", async () => {
    const h = await reader.history(made.lisbon!);
    assert.deepEqual(h.map((e) => e.event), ["ADD", "UPDATE"]);
    assert.match(h[0]!.newMemory!, /Lisbon/);
    assert.equal(h[0]!.oldMemory, null);
    assert.match(h[1]!.oldMemory!, /Lisbon/);
    assert.match(h[1]!.newMemory!, /Porto/);
    assert.equal(h[1]!.memoryId, made.lisbon);
    assert.equal((h[1] as unknown as { actor: string }).actor, "test");
  });

  it("delete forgets one memory: get is then a not-found, history ends with DELETE", async () => {
    const r = await writer.delete(made.lisbon!);
    assert.match(r.message, /deleted/i);
    await assert.rejects(reader.get(made.lisbon!), (err: unknown) => {
      assert.ok(err instanceof MemoryNotFoundError, String(err));
      assert.equal(problemIn(err).code, "UNIT_NOT_FOUND");
      return true;
    });
    const h = await reader.history(made.lisbon!);
    assert.deepEqual(h.map((e) => e.event), ["ADD", "UPDATE", "DELETE"]);
    assert.equal(h[2]!.newMemory, null);
    assert.equal((await reader.getAll({ filters: { user_id: "alice" } })).count, 2);
  });

  it("deleteAll: a run with a write key; the whole user needs an admin key, as deleting a namespace does", async () => {
    await writer.deleteAll({ userId: "alice", runId: "trip-1" });
    assert.deepEqual((await reader.getAll({ filters: { user_id: "alice" } })).results.map((r) => r.id), [made.cello]);
    await assert.rejects(writer.deleteAll({ userId: "alice" }), (err: unknown) => {
      assert.ok(err instanceof AuthenticationError, String(err));
      const p = problemIn(err);
      assert.equal(p.status, 403);
      assert.match(p.detail, /needs admin/);
      return true;
    });
    assert.equal((await reader.getAll({ filters: { user_id: "alice" } })).count, 1);
    const r = await admin.deleteAll({ userId: "alice" });
    assert.match(r.message, /deleted/i);
    assert.equal((await reader.getAll({ filters: { user_id: "alice" } })).count, 0);
    assert.deepEqual(await reader.search("cello", { filters: { user_id: "alice" } }), { results: [] });
  });

  it("a wrong key fails the client's start-up key check and every call (401)", async () => {
    const logged: unknown[][] = [];
    const realError = console.error;
    console.error = (...args: unknown[]) => void logged.push(args);
    let wrong: Client;
    try {
      wrong = new MemoryClient({ apiKey: "rm_not-a-key-of-this-server", host: t.server.url });
      await wrong["initialized"];
    } finally {
      console.error = realError;
    }
    const failed = logged.find((args) => String(args[0]).includes("Failed to initialize client"));
    assert.ok(failed, "the client did not report its failed key check");
    assert.ok(failed[1] instanceof AuthenticationError, String(failed[1]));
    assert.equal(problemIn(failed[1]).code, "UNAUTHORIZED");
    await assert.rejects(wrong.ping(), AuthenticationError);
    await assert.rejects(wrong.search("anything", { filters: { user_id: "alice" } }), (err: unknown) => {
      assert.ok(err instanceof AuthenticationError);
      assert.equal(problemIn(err).status, 401);
      return true;
    });
  });

  it("a key without the namespace's grant gets 403 (add, search, getAll, deleteAll); its ids are not found", async () => {
    const kept = (await writer.add([{ role: "user", content: "Remember that my locker code is 4512." }], { userId: "alice" })) as unknown as { results: Array<{ id: string }> };
    const id = kept.results[0]!.id;
    const forbidden = (err: unknown) => {
      assert.ok(err instanceof AuthenticationError, String(err));
      const p = problemIn(err);
      assert.equal(p.status, 403);
      assert.equal(p.code, "FORBIDDEN");
      return true;
    };
    await assert.rejects(bob.add([{ role: "user", content: "hi" }], { userId: "alice" }), forbidden);
    await assert.rejects(bob.search("locker code", { filters: { user_id: "alice" } }), forbidden);
    await assert.rejects(bob.getAll({ filters: { user_id: "alice" } }), forbidden);
    await assert.rejects(bob.deleteAll({ userId: "alice", runId: "x" }), forbidden);
    // Paths with an id carry no namespace: another tenant's id is simply not there for this key.
    await assert.rejects(bob.get(id), MemoryNotFoundError);
    await assert.rejects(bob.delete(id), MemoryNotFoundError);
    await assert.rejects(bob.update(id, { text: "changed" }), MemoryNotFoundError);
    assert.ok(await t.memory.get(id, { namespace: "alice" }), "bob's key changed alice's memory");
    // The key's own namespace works; a read key may not write.
    const own = (await bob.add([{ role: "user", content: "I collect stamps." }], { userId: "bob" })) as unknown as { results: unknown[] };
    assert.equal(own.results.length, 1);
    await assert.rejects(reader.add([{ role: "user", content: "hi" }], { userId: "alice" }), forbidden);
    await assert.rejects(reader.delete(id), forbidden);
  });

  it("refuses what it cannot honour, in the server's problem format", async () => {
    await assert.rejects(writer.update(made.cello ?? "u_x", { text: "x", metadata: { a: 1 } }), (err: unknown) => {
      assert.ok(err instanceof ValidationError, String(err));
      assert.match(problemIn(err).detail, /body\.metadata: not supported/);
      return true;
    });
    await assert.rejects(reader.search("x", { filters: { user_id: { in: ["alice", "bob"] } } }), (err: unknown) => {
      assert.ok(err instanceof ValidationError, String(err));
      const p = problemIn(err);
      assert.equal(p.code, "BAD_FILTER");
      assert.match(p.detail, /body\.filters\.user_id: user_id names the ramem namespace/);
      return true;
    });
    await assert.rejects(writer.add([{ role: "user", content: "hi" }], { userId: "alice@example.com" }), (err: unknown) => {
      assert.ok(err instanceof ValidationError, String(err));
      assert.match(problemIn(err).detail, /body\.user_id: "alice@example\.com" cannot be a namespace/);
      return true;
    });
  });

  it("raw HTTP: Bearer works on these routes too, errors are problem+json, and the routes are in /openapi.json", async () => {
    const key = t.secrets[2]!;
    const ping = await t.call("GET", "/v1/ping/", { key });
    assert.equal(ping.status, 200);
    assert.deepEqual(ping.body, { status: "ok", message: ping.body.message, org_id: null, project_id: null, user_email: null, role: "read", namespaces: ["alice"] });
    const bad = await t.call("GET", "/v1/ping/", { headers: { authorization: "Basic abc" } });
    assert.equal(bad.status, 401);
    assert.equal(bad.headers.get("content-type"), "application/problem+json");
    assert.equal(bad.body.code, "UNAUTHORIZED");
    const invalid = await t.call("POST", "/v3/memories/search/", { key, json: { filters: { user_id: "alice" } } });
    assert.equal(invalid.status, 400);
    assert.equal(invalid.body.code, "VALIDATION_FAILED");
    assert.equal(invalid.body.errors[0].path, "body.query");

    const doc = (await t.call("GET", "/openapi.json")).body;
    for (const [path, method] of [
      ["/v1/ping/", "get"],
      ["/v3/memories/add/", "post"],
      ["/v3/memories/search/", "post"],
      ["/v3/memories/", "post"],
      ["/v1/memories/{memory_id}/", "get"],
      ["/v1/memories/{memory_id}/", "put"],
      ["/v1/memories/{memory_id}/", "delete"],
      ["/v1/memories/", "delete"],
      ["/v1/memories/{memory_id}/history/", "get"],
    ] as const) {
      const op = doc.paths[path]?.[method];
      assert.ok(op, `missing ${method.toUpperCase()} ${path}`);
      for (const p of op.parameters ?? []) if (p.in === "path") assert.equal(p.required, true, `${path}: path parameter ${p.name} not required`);
    }
    assert.equal(doc.components.securitySchemes.mem0Token.type, "apiKey");
  });

  it("sent nothing beyond loopback", () => {
    assert.deepEqual(offLoopback, []);
  });
});
