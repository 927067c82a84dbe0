import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { openMemory } from "./open-memory.js";
import type { Memory } from "./memory.js";
import type { RecallHit } from "./model/recall.js";
import { MemoryUnit, StateStatement } from "./model/memory-unit.js";
import { EMPTY_FRAME } from "./model/recall-frame.js";
import { createRestApp } from "./server/rest/create-rest-app.js";
import { createMcpServer } from "./server/mcp/create-mcp-server.js";
import { LOCAL_PRINCIPAL } from "./server/auth/principal.js";
import { hitToJson } from "./cli/render.js";
import { runCli } from "./cli/testing/run-cli.js";

/**
 * One recall hit shape on every face: the library (`Memory.recall`), the CLI
 * (`ramem recall --json`, in-process), REST (`POST …/recall`, the Hono app
 * in-process) and MCP (`recall`'s structuredContent, over the SDK's linked
 * in-memory client) return the same units in the same order, each with the
 * same derived fields the library's hit has: validity (link, relatedLater),
 * planOutcome, mayBeOutdated, and its context's states and saidAt. Where a
 * face puts them differs (the CLI and MCP flatten the unit), what they hold
 * does not; MCP escapes free text for a model, a no-op on this conversation.
 */

const NS = "moves";
const QUERY = "Where do I live now?";

const SESSIONS = [
  {
    session: { id: "winter", namespace: NS, startTime: "2023-01-10T10:00:00Z", endTime: "2023-01-10T10:10:00Z", participants: ["Ana", "Ben"] },
    turns: [
      // A turn with its own time: its unit carries context.saidAt.
      { id: "w1", speaker: "Ana", text: "I live in Lisbon.", time: "2023-01-10T10:01:00Z" },
      { id: "w2", speaker: "Ben", text: "Nice city. Any plans this year?" },
      { id: "w3", speaker: "Ana", text: "I'm going to Tokyo in May." },
    ],
  },
  {
    session: { id: "summer", namespace: NS, startTime: "2023-06-20T10:00:00Z", endTime: "2023-06-20T10:10:00Z", participants: ["Ana", "Ben"] },
    turns: [
      { id: "s1", speaker: "Ana", text: "I moved to Porto last month." },
      { id: "s2", speaker: "Ben", text: "How was the trip?" },
      { id: "s3", speaker: "Ana", text: "Tokyo was amazing." },
    ],
  },
];

/** The fields every face must carry when the library's hit has them, with where each face puts them. */
const DERIVED = ["validity", "planOutcome", "mayBeOutdated"] as const;
const STATED = ["states", "saidAt"] as const;

interface View {
  id: string;
  fields: Record<string, unknown>;
}

/** Only the keys that are present, as JSON carries them (undefined dropped). */
function present(from: Record<string, unknown>, keys: readonly string[], prefix = ""): Record<string, unknown> {
  return Object.fromEntries(keys.filter((k) => from[k] !== undefined).map((k) => [`${prefix}${k}`, JSON.parse(JSON.stringify(from[k]))]));
}

/** Library and REST hits: `{unit, rank, …}`, the derived fields on the unit, states and saidAt on its context. */
function unitView(hit: { unit: Record<string, any> }): View {
  return { id: hit.unit.id, fields: { ...present(hit.unit, DERIVED), ...present(hit.unit.context, STATED, "context.") } };
}

/** CLI hits: the unit flattened (`id`, `context`, …), the derived fields beside them. */
function cliView(hit: Record<string, any>): View {
  return { id: hit.id, fields: { ...present(hit, DERIVED), ...present(hit.context ?? {}, STATED, "context.") } };
}

/** MCP memories: the unit and its context flattened (`unitId`, `session`, `states`, `saidAt`, …). */
function mcpView(memory: Record<string, any>): View {
  return { id: memory.unitId, fields: { ...present(memory, DERIVED), ...present(memory, STATED, "context.") } };
}

function assertSameHits(faces: Record<string, View[]>): void {
  const [[firstName, first], ...rest] = Object.entries(faces) as [[string, View[]], ...Array<[string, View[]]>];
  for (const [name, views] of rest) {
    assert.deepEqual(views.map((v) => v.id), first.map((v) => v.id), `${name}: the same units in the same order as ${firstName}`);
    for (const [i, v] of views.entries()) {
      assert.deepEqual(Object.keys(v.fields).sort(), Object.keys(first[i]!.fields).sort(), `${name} hit #${i + 1} (${v.id}): the same set of fields as ${firstName}`);
      assert.deepEqual(v.fields, first[i]!.fields, `${name} hit #${i + 1} (${v.id}): the same values as ${firstName}`);
    }
  }
}

async function connectMcp(memory: Memory): Promise<{ client: Client; close(): Promise<void> }> {
  const server = createMcpServer({ memory, principal: LOCAL_PRINCIPAL });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "hit-shape", version: "0.0.0" });
  await client.connect(clientSide);
  return { client, close: async () => (await client.close(), await server.close()) };
}

async function restRecall(memory: Memory, body: Record<string, unknown>): Promise<any> {
  const rest = createRestApp({ memory, authenticate: async () => LOCAL_PRINCIPAL });
  const res = await rest.request(`/v1/namespaces/${NS}/recall`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  assert.equal(res.status, 200);
  return res.json();
}

async function mcpRecall(client: Client, args: Record<string, unknown>): Promise<any[]> {
  return (await mcpRecallResult(client, args)).memories;
}

async function mcpRecallResult(client: Client, args: Record<string, unknown>): Promise<{ memories: any[]; text: string; holdsEvidence: unknown }> {
  const result = (await client.callTool({ name: "recall", arguments: { namespace: NS, ...args } })) as CallToolResult;
  assert.equal(result.isError, undefined, JSON.stringify(result.content));
  const text = result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
  const structured = result.structuredContent as { memories: any[]; holdsEvidence: unknown };
  return { memories: structured.memories, text, holdsEvidence: structured.holdsEvidence };
}

/** The recall's abstain judgment as every face returns it for one query. */
async function judgmentOnEveryFace(memory: Memory, db: string, client: Client, query: string): Promise<Record<string, unknown>> {
  const cli = await runCli(["recall", query, "--db", db, "--embedder", "hash", "--namespace", NS, "--json"]);
  assert.equal(cli.code, 0, cli.stderr);
  return {
    library: (await memory.recall(query, { namespace: NS })).holdsEvidence,
    cli: JSON.parse(cli.stdout.trim().split("\n").at(-1)!).holdsEvidence,
    rest: (await restRecall(memory, { query })).holdsEvidence,
    mcp: (await mcpRecallResult(client, { query })).holdsEvidence,
  };
}

describe("one recall hit shape on every face", () => {
  let dir: string;
  let db: string;
  let memory: Memory;
  let mcp: Awaited<ReturnType<typeof connectMcp>>;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "ramem-hit-shape-"));
    db = join(dir, "moves.db");
    memory = await openMemory({ db, embedder: "hash", languageModel: null, env: {} });
    await memory.ingest(SESSIONS);
    mcp = await connectMcp(memory);
  });
  after(async () => {
    await mcp.close();
    await memory.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it(`"${QUERY}" after a move and a plan told as done: library, CLI --json, REST and MCP agree, validity included`, async () => {
    const library = await memory.recall(QUERY, { namespace: NS });
    const cli = await runCli(["recall", QUERY, "--db", db, "--embedder", "hash", "--namespace", NS, "--json"]);
    assert.equal(cli.code, 0, cli.stderr);
    const cliHits = JSON.parse(cli.stdout.trim().split("\n").at(-1)!).hits as any[];
    const restHits = (await restRecall(memory, { query: QUERY })).hits as any[];
    const { memories: mcpHits, text: mcpText } = await mcpRecallResult(mcp.client, { query: QUERY });
    // No condition is grounded, yet the current-state rules ranked: the faces' frame lines say so.
    assert.equal(library.frame?.active, false);
    assert.match(mcpText, /^Recall frame: none grounded — ranked by content; state rules applied: current value first \(slot residence\)/);
    assert.match((await runCli(["recall", QUERY, "--db", db, "--embedder", "hash", "--namespace", NS])).stdout, /^frame: inactive; state rules applied: current value first \(slot residence\)/m);

    // The conversation exercises the derived fields: the move supersedes Lisbon, the plan is told as done.
    const lib = library.hits.map(unitView);
    const byContent = (re: RegExp) => library.hits.find((h) => re.test(h.unit.content));
    const lisbon = byContent(/Lisbon/)!;
    const porto = byContent(/Porto/)!;
    const tokyo = byContent(/going to Tokyo/)!;
    assert.ok(lisbon && porto && tokyo, `the move and the plan are recalled: ${library.hits.map((h) => h.unit.content).join(" | ")}`);
    assert.equal(lisbon.unit.validity?.supersededBy, porto.unit.id, "Lisbon is superseded by the move to Porto");
    assert.equal(porto.unit.validity?.validTo, null, "Porto holds now");
    assert.ok(tokyo.unit.planOutcome, "the Tokyo plan is told as done");
    assert.ok(lib.every((v) => "context.states" in v.fields), "every unit says which states it states (none, often)");
    assert.ok(lisbon.unit.context.saidAt, "a turn with its own time: saidAt");
    assert.ok(library.hits.indexOf(porto) < library.hits.indexOf(lisbon), "the current value first");
    assert.ok(porto.score >= lisbon.score, `the valid state scores at least as high as the one it superseded (${porto.score} < ${lisbon.score})`);

    assertSameHits({ library: lib, cli: cliHits.map(cliView), rest: restHits.map(unitView), mcp: mcpHits.map(mcpView) });
  });

  it("the abstain judgment is the same on every face: held for the move, not held for what was never said", async () => {
    for (const [query, likely] of [[QUERY, true], ["How often do I play table tennis?", false]] as const) {
      const faces = await judgmentOnEveryFace(memory, db, mcp.client, query);
      const library = faces.library as { likely: boolean; confidence: number; why: string };
      assert.equal(library.likely, likely, `${query}: ${library.why}`);
      for (const [name, judgment] of Object.entries(faces)) assert.deepEqual(judgment, library, `${name}: the library's judgment for "${query}"`);
    }
  });

  it("every derived field the library's hit may carry reaches every face (a hit made by hand)", async () => {
    const [stored] = (await memory.recall("Lisbon", { namespace: NS, k: 1 })).hits;
    const hit: RecallHit = {
      ...stored!,
      unit: {
        ...stored!.unit,
        validity: {
          states: ["residence = lisbon"],
          validFrom: "2023-01-10T10:01:00Z",
          validTo: "2023-05-01T00:00:00.000Z",
          supersededBy: "u_porto",
          origin: "rule",
          link: { confidence: 0.9, evidence: "I moved to Porto" },
          relatedLater: [{ unitId: "u_braga", on: "2023-09-01T00:00:00Z", evidence: "I might move to Braga" }],
          ended: [{ state: "tram pass = monthly", validTo: "2023-05-01T00:00:00.000Z", supersededBy: "u_porto" }],
        },
        planOutcome: { toldAsDoneBy: "u_done", on: "2023-06-20T10:00:00Z" },
        mayBeOutdated: { because: "residence = lisbon", supersededBy: "u_porto", on: "2023-05-01T00:00:00.000Z" },
        context: {
          ...stored!.unit.context,
          states: [
            { subject: "Ana", slot: "residence", value: "lisbon", additive: false, ends: false, evidence: "I live in Lisbon" },
            { subject: "Ana", slot: "tram pass", value: "monthly", additive: false, ends: false, evidence: "my monthly tram pass", open: true },
          ],
          saidAt: "2023-01-10T10:01:00Z",
        },
      },
    };
    // Every key the model gives these fields is set: a field added to the model fails here until the serializer carries it.
    const keysOf = (schema: unknown): string[] => Object.keys((schema as { unwrap(): { shape: object } }).unwrap().shape).sort();
    const validity = MemoryUnit.shape.validity;
    assert.deepEqual(Object.keys(hit.unit.validity!).sort(), keysOf(validity));
    assert.deepEqual(Object.keys(hit.unit.planOutcome!).sort(), keysOf(MemoryUnit.shape.planOutcome));
    assert.deepEqual(Object.keys(hit.unit.mayBeOutdated!).sort(), keysOf(MemoryUnit.shape.mayBeOutdated));
    assert.deepEqual([...new Set(hit.unit.context.states!.flatMap(Object.keys))].sort(), Object.keys(StateStatement.shape).sort());
    const realRecall = memory.recall.bind(memory);
    memory.recall = async () => ({ hits: [hit], frame: EMPTY_FRAME("Lisbon"), holdsEvidence: { likely: true, confidence: 1, why: "replaced recall" } });
    try {
      const expected = unitView(hit);
      assert.deepEqual(Object.keys(expected.fields).sort(), ["context.saidAt", "context.states", "mayBeOutdated", "planOutcome", "validity"]);
      const restHits = (await restRecall(memory, { query: "Lisbon" })).hits as any[];
      const mcpHits = await mcpRecall(mcp.client, { query: "Lisbon" });
      // The CLI opens its own Memory: its serializer is checked on the hit itself.
      assertSameHits({ library: [expected], cli: [cliView(JSON.parse(JSON.stringify(hitToJson(hit))))], rest: restHits.map(unitView), mcp: mcpHits.map(mcpView) });
    } finally {
      memory.recall = realRecall;
    }
  });
});
