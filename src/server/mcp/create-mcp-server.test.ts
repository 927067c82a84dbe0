import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { Memory } from "../../memory.js";
import type { MemoryStore } from "../../store/contract.js";
import { LOCAL_PRINCIPAL, type Principal } from "../auth/principal.js";
import { startFakeOpenAIServer } from "../../testing/fake-openai-server.js";
import { createOpenAICompatibleLanguageModel } from "../../providers/openai-compatible/index.js";
import { NO_LLM_NOTICE } from "./create-mcp-server.js";
import { MCP_TOOL_NAMES } from "./tool-schemas.js";
import { CHAT, connect, NOW, snapshot, textOf, withMemory } from "./testing/mcp-fixtures.js";

const ONLY_A: Principal = { keyId: "key_a", role: "admin", namespaces: ["ns-a"] };
const READ_A: Principal = { keyId: "key_ra", role: "read", namespaces: ["ns-a"] };
const WRITE_A: Principal = { keyId: "key_wa", role: "write", namespaces: ["ns-a"] };

describe("MCP tools (in-process client)", () => {
  it("lists the five tools, each with an input and an output schema", async () => {
    await withMemory(async (memory) => {
      const mcp = await connect(memory, LOCAL_PRINCIPAL);
      try {
        const { tools } = await mcp.client.listTools();
        assert.deepEqual(tools.map((t) => t.name).sort(), ["ask", "forget", "recall", "remember", "update"]);
        // The CLI help and the unknown-tool error read MCP_TOOL_NAMES: it must be the served list, in order.
        assert.deepEqual(tools.map((t) => t.name), [...MCP_TOOL_NAMES]);
        for (const t of tools) {
          assert.ok(t.description && t.description.length > 80, `${t.name} explains itself`);
          assert.ok(t.inputSchema.properties && "namespace" in t.inputSchema.properties, `${t.name} takes a namespace`);
          assert.equal(t.outputSchema?.type, "object", `${t.name} declares its output`);
        }
        const remember = tools.find((t) => t.name === "remember")!;
        assert.deepEqual(remember.inputSchema.required?.slice().sort(), ["namespace", "turns"]);
      } finally {
        await mcp.close();
      }
    });
  });

  it("remember with metadata, recall with a filter, update a memory (old text in history, recorded as the caller), refuse a forgotten one", async () => {
    await withMemory(async (memory) => {
      const mcp = await connect(memory, { keyId: "key_1", keyName: "agent-key", role: "write", namespaces: ["alpha"] });
      try {
        const a = (await mcp.call("remember", { namespace: "alpha", ...CHAT, metadata: { project: "family" } })).structuredContent as { unitIds: string[] };
        await mcp.call("remember", { namespace: "alpha", turns: [{ speaker: "Jon", text: "I went to a support group for runners." }] });
        const filtered = await mcp.call("recall", { namespace: "alpha", query: "support group", filter: { "metadata.project": "family" } });
        const memories = (filtered.structuredContent as { memories: Array<{ unitId: string }> }).memories;
        assert.ok(memories.length > 0 && memories.every((m) => a.unitIds.includes(m.unitId)), textOf(filtered));
        const badFilter = await mcp.call("recall", { namespace: "alpha", query: "x", filter: { colour: "red" } });
        assert.equal(badFilter.isError, true);
        assert.match(textOf(badFilter), /BAD_FILTER|unknown filter field/);
        const updated = await mcp.call("update", { namespace: "alpha", id: a.unitIds[2], text: "I'm comparing two adoption agencies." });
        assert.equal(updated.isError, undefined, textOf(updated));
        assert.match((updated.structuredContent as { content: string }).content, /two adoption agencies/);
        const history = await memory.history(a.unitIds[2]!, { namespace: "alpha" });
        assert.deepEqual(history.map((e) => [e.event, e.actor]), [["created", "agent-key"], ["updated", "agent-key"]]);
        await mcp.call("forget", { namespace: "alpha", what: "unit", id: a.unitIds[2] });
        const gone = await mcp.call("update", { namespace: "alpha", id: a.unitIds[2], text: "again" });
        assert.equal(gone.isError, true);
        assert.match(textOf(gone), /forgotten/);
      } finally {
        await mcp.close();
      }
    });
  });

  it("remember then recall: the turn comes back with its session, event time, participants, provenance and reasons", async () => {
    await withMemory(async (memory) => {
      const mcp = await connect(memory, LOCAL_PRINCIPAL);
      try {
        const stored = await mcp.call("remember", { namespace: "alpha", ...CHAT });
        assert.equal(stored.isError, undefined, textOf(stored));
        const out = stored.structuredContent as { sessionId: string; mode: string; turnIds: string[]; unitIds: string[] };
        assert.equal(out.mode, "created");
        assert.match(out.sessionId, /^mcp-/);
        assert.deepEqual(out.turnIds, [`${out.sessionId}:1`, `${out.sessionId}:2`, `${out.sessionId}:3`]);
        assert.equal(out.unitIds.length, 3);

        const recalled = await mcp.call("recall", { namespace: "alpha", query: "When did Caroline go to the support group?", k: 3 });
        assert.equal(recalled.isError, undefined, textOf(recalled));
        const { memories, frame, evidence } = recalled.structuredContent as any;
        const top = memories[0];
        assert.match(top.content, /support group/);
        assert.equal(top.session.id, out.sessionId);
        assert.equal(top.session.start, "2023-05-08T13:56:00.000Z");
        assert.equal(top.eventTime.start, "2023-05-07T00:00:00.000Z", "'yesterday' grounded against the session date");
        assert.ok(top.participants.includes("Caroline") && top.participants.includes("Melanie"));
        assert.deepEqual(top.provenance, { sessionId: out.sessionId, turnIds: [`${out.sessionId}:1`] });
        assert.ok(top.reasons.length > 0);
        assert.ok(out.unitIds.includes(top.unitId));
        assert.equal(typeof frame.active, "boolean");
        assert.equal(frame.asksFor, "time");
        // The other kinds of answer pass the tool's output schema too.
        for (const [query, kind] of [["Where did Caroline go?", "place"], ["How many times did Caroline go?", "quantity"]] as const) {
          const asked = await mcp.call("recall", { namespace: "alpha", query, k: 3 });
          assert.equal(asked.isError, undefined, textOf(asked));
          assert.equal((asked.structuredContent as any).frame.asksFor, kind, query);
        }
        const text = textOf(recalled);
        assert.ok(text.includes("<memories>") && text.includes("</memories>"), "the evidence pack is the text content");
        assert.ok(text.includes(top.unitId), "the text names unit ids (to forget by)");
        assert.ok(text.includes(evidence));
      } finally {
        await mcp.close();
      }
    });
  });

  it("turns with a stored sessionId are appended: numbering continues, the span grows, earlier units stay", async () => {
    await withMemory(async (memory) => {
      const mcp = await connect(memory, LOCAL_PRINCIPAL);
      try {
        const first = (await mcp.call("remember", { namespace: "alpha", ...CHAT })).structuredContent as any;
        const second = await mcp.call("remember", {
          namespace: "alpha",
          sessionId: first.sessionId,
          turns: [{ speaker: "Melanie", text: "Our chess club meets on Thursdays now.", time: "2023-05-09T09:00:00Z" }],
        });
        assert.equal(second.isError, undefined, textOf(second));
        const out = second.structuredContent as any;
        assert.equal(out.mode, "appended");
        assert.deepEqual(out.turnIds, [`${first.sessionId}:4`]);
        assert.equal(out.sessionEnd, "2023-05-09T09:00:00.000Z");
        const units = await memory.list({ namespace: "alpha", sessionId: first.sessionId });
        assert.equal(units.length, 4);
        assert.ok(units.every((u) => u.context.session.end === "2023-05-09T09:00:00.000Z"), "every unit carries the grown span");
        const recalled = (await mcp.call("recall", { namespace: "alpha", query: "chess club Thursdays", k: 1 })).structuredContent as any;
        assert.deepEqual(recalled.memories[0].provenance.turnIds, [`${first.sessionId}:4`]);
        const stillThere = (await mcp.call("recall", { namespace: "alpha", query: "adoption agencies", k: 1 })).structuredContent as any;
        assert.match(stillThere.memories[0].content, /adoption agencies/);

        // A retried call with explicit ids is refused, not duplicated.
        const before = await snapshot(memory, "alpha");
        const retry = await mcp.call("remember", { namespace: "alpha", sessionId: first.sessionId, turns: [{ id: `${first.sessionId}:4`, speaker: "Melanie", text: "again" }] });
        assert.equal(retry.isError, true);
        assert.match(textOf(retry), /DUPLICATE_TURN/);
        assert.equal(await snapshot(memory, "alpha"), before);
      } finally {
        await mcp.close();
      }
    });
  });

  it("a turn without a time in an undated call is dated now; replace stores a whole session and is idempotent", async () => {
    await withMemory(async (memory) => {
      const mcp = await connect(memory, LOCAL_PRINCIPAL);
      try {
        const live = (await mcp.call("remember", { namespace: "alpha", turns: [{ speaker: "user", text: "I adopted a cat called Miso." }] })).structuredContent as any;
        assert.equal(live.sessionStart, NOW.toISOString());

        const whole = { namespace: "alpha", sessionId: "s-whole", replace: true, ...CHAT };
        assert.equal(((await mcp.call("remember", whole)).structuredContent as any).mode, "created");
        assert.equal(((await mcp.call("remember", whole)).structuredContent as any).mode, "unchanged");
        const shorter = { ...whole, turns: CHAT.turns.slice(0, 1) };
        assert.equal(((await mcp.call("remember", shorter)).structuredContent as any).mode, "replaced");
        assert.equal((await memory.list({ namespace: "alpha", sessionId: "s-whole" })).length, 1);
      } finally {
        await mcp.close();
      }
    });
  });

  it("ask without an LLM returns the evidence pack and says no LLM is configured", async () => {
    await withMemory(async (memory) => {
      const mcp = await connect(memory, LOCAL_PRINCIPAL);
      try {
        await mcp.call("remember", { namespace: "alpha", ...CHAT });
        const asked = await mcp.call("ask", { namespace: "alpha", question: "What did Melanie paint?" });
        assert.equal(asked.isError, undefined, textOf(asked));
        const text = textOf(asked);
        assert.ok(text.startsWith(NO_LLM_NOTICE));
        assert.match(text, /<memories>[\s\S]*sunrise[\s\S]*<\/memories>/);
        const out = asked.structuredContent as any;
        assert.equal(out.llmConfigured, false);
        assert.equal(out.answer, null);
        assert.ok(out.memories.length > 0);
      } finally {
        await mcp.close();
      }
    });
  });

  it("recall and ask carry holdsEvidence; on what was never said ask answers from the judgment, the pack says why", async () => {
    await withMemory(async (memory) => {
      const mcp = await connect(memory, LOCAL_PRINCIPAL);
      try {
        await mcp.call("remember", { namespace: "alpha", ...CHAT });
        const held = (await mcp.call("recall", { namespace: "alpha", query: "What did Melanie paint?" })).structuredContent as any;
        assert.equal(held.holdsEvidence.likely, true, held.holdsEvidence.why);
        const never = (await mcp.call("recall", { namespace: "alpha", query: "How often does Melanie play table tennis?" })).structuredContent as any;
        assert.equal(never.holdsEvidence.likely, false);
        assert.match(never.evidence, /^<memories>\nevidence check: the store likely holds nothing .*"tennis"/);
        const asked = await mcp.call("ask", { namespace: "alpha", question: "How often does Melanie play table tennis?" });
        const out = asked.structuredContent as any;
        assert.equal(out.abstained, true);
        assert.equal(out.answer, "I don't have that in memory.");
        assert.deepEqual(out.holdsEvidence, never.holdsEvidence);
        assert.match(textOf(asked), /^Answer: I don't have that in memory\.\n\n<memories>\nevidence check:/);
      } finally {
        await mcp.close();
      }
    });
  });

  it("ask with an LLM (fake OpenAI-compatible server) answers and maps its citations to units", async () => {
    const server = await startFakeOpenAIServer({ chat: () => "A sunrise over the lake.\nSources: [1]" });
    try {
      const llm = createOpenAICompatibleLanguageModel({ baseURL: server.url, model: "fake" });
      await withMemory(async (memory) => {
        const mcp = await connect(memory, LOCAL_PRINCIPAL);
        try {
          await mcp.call("remember", { namespace: "alpha", ...CHAT });
          const asked = await mcp.call("ask", { namespace: "alpha", question: "What did Melanie paint?", k: 2 });
          assert.equal(asked.isError, undefined, textOf(asked));
          const out = asked.structuredContent as any;
          assert.equal(out.llmConfigured, true);
          assert.equal(out.answer, "A sunrise over the lake.");
          assert.equal(out.cited.length, 1);
          assert.equal(out.cited[0].unitId, out.memories[0].unitId);
          assert.match(textOf(asked), /^Answer: A sunrise over the lake\./);
          const prompt = JSON.stringify(server.requests[0]?.body.messages);
          assert.match(prompt, /sunrise/, "the model saw the evidence");
        } finally {
          await mcp.close();
        }
      }, llm);
    } finally {
      await server.close();
    }
  });

  it("ask when the LLM refuses (401) is a tool error naming the endpoint, and stores nothing", async () => {
    const server = await startFakeOpenAIServer({ apiKey: "right" });
    try {
      const llm = createOpenAICompatibleLanguageModel({ baseURL: server.url, model: "fake", apiKey: "wrong", maxRetries: 0 });
      await withMemory(async (memory) => {
        const mcp = await connect(memory, LOCAL_PRINCIPAL);
        try {
          await mcp.call("remember", { namespace: "alpha", ...CHAT });
          const asked = await mcp.call("ask", { namespace: "alpha", question: "What did Melanie paint?" });
          assert.equal(asked.isError, true);
          assert.match(textOf(asked), /^LLM_HTTP: .*chat\/completions.*401/);
        } finally {
          await mcp.close();
        }
      }, llm);
    } finally {
      await server.close();
    }
  });

  it("attachments are remembered by their caption; recall on an empty namespace says it is empty", async () => {
    await withMemory(async (memory) => {
      const mcp = await connect(memory, LOCAL_PRINCIPAL);
      try {
        const empty = await mcp.call("recall", { namespace: "fresh", query: "sunset painting" });
        assert.equal(empty.isError, undefined);
        assert.match(textOf(empty), /holds no memories yet/);
        const stored = await mcp.call("remember", {
          namespace: "fresh",
          turns: [{ speaker: "Melanie", text: "", attachments: [{ kind: "image", caption: "a sunset painted on canvas" }] }],
        });
        assert.equal(stored.isError, undefined, textOf(stored));
        const found = (await mcp.call("recall", { namespace: "fresh", query: "sunset painting" })).structuredContent as any;
        assert.match(found.memories[0].content, /sunset painted on canvas/);
        const miss = await mcp.call("recall", { namespace: "fresh", query: "zzzz qqqq" });
        assert.doesNotMatch(textOf(miss), /holds no memories yet/);
      } finally {
        await mcp.close();
      }
    });
  });

  it("forget unit, session and namespace: recall never returns them again", async () => {
    await withMemory(async (memory) => {
      const mcp = await connect(memory, LOCAL_PRINCIPAL);
      try {
        const s1 = (await mcp.call("remember", { namespace: "alpha", ...CHAT })).structuredContent as any;
        const s2 = (await mcp.call("remember", { namespace: "alpha", turns: [{ speaker: "Ben", text: "The support group moved to Fridays." }] })).structuredContent as any;
        const ids = async () =>
          ((await mcp.call("recall", { namespace: "alpha", query: "support group painted adoption Fridays", k: 20 })).structuredContent as any).memories.map((m: any) => m.unitId);

        const unit = s1.unitIds[0];
        const gone = await mcp.call("forget", { namespace: "alpha", what: "unit", id: unit });
        assert.equal(gone.isError, undefined, textOf(gone));
        assert.equal((gone.structuredContent as any).unitsDeleted, 1);
        assert.ok(!(await ids()).includes(unit));
        assert.equal((await mcp.call("forget", { namespace: "alpha", what: "unit", id: unit })).isError, true, "a second delete finds nothing");

        const session = await mcp.call("forget", { namespace: "alpha", what: "session", id: s1.sessionId });
        assert.equal((session.structuredContent as any).unitsDeleted, 2);
        assert.deepEqual(await ids(), s2.unitIds);

        const all = await mcp.call("forget", { namespace: "alpha", what: "namespace" });
        assert.equal((all.structuredContent as any).unitsDeleted, 1);
        assert.deepEqual(await ids(), []);
        assert.equal((await memory.stats("alpha")).units, 0);

        const noId = await mcp.call("forget", { namespace: "alpha", what: "session" });
        assert.equal(noId.isError, true);
        assert.match(textOf(noId), /needs the session id/);
      } finally {
        await mcp.close();
      }
    });
  });

  it("bad input is a tool error with a clear message, and nothing is stored", async () => {
    await withMemory(async (memory) => {
      const mcp = await connect(memory, LOCAL_PRINCIPAL);
      try {
        const s = (await mcp.call("remember", { namespace: "alpha", ...CHAT })).structuredContent as any;
        const before = await snapshot(memory, "alpha");
        const cases: Array<[string, Record<string, unknown>, RegExp]> = [
          ["remember", { namespace: "alpha" }, /turns/],
          ["remember", { namespace: "alpha", turns: [] }, /at least one turn/],
          ["remember", { namespace: "alpha", turns: [{ text: "no speaker" }] }, /speaker/],
          ["remember", { namespace: "alpha", turns: [{ speaker: "Ana", text: "fine" }, { speaker: "Ana", text: "   " }] }, /turns\[1\].*empty/],
          ["remember", { namespace: "alpha", turns: [{ speaker: "Ana", text: "x", time: "not a date" }] }, /turns\[0\] › time.*cannot read the date/],
          ["remember", { namespace: "alpha", sessionTime: "2023-13-45", turns: [{ speaker: "Ana", text: "x" }] }, /sessionTime/],
          ["remember", { namespace: "alpha", sessionId: s.sessionId, turns: [{ speaker: "Ana", text: "ok" }, { speaker: "Ana", text: "x".repeat(64_001) }] }, /64/],
          ["remember", { namespace: "bad namespace!", turns: [{ speaker: "Ana", text: "x" }] }, /namespace/],
          ["recall", { namespace: "alpha", query: "" }, /query is empty/],
          ["recall", { namespace: "alpha", query: "x", k: 0 }, /k/],
          ["recall", { namespace: "alpha", query: "x", questionDate: "someday" }, /questionDate/],
          ["recall", { namespace: "alpha", query: "x", validAt: "someday" }, /validAt/],
          ["ask", { namespace: "alpha" }, /question/],
          ["forget", { namespace: "alpha", what: "everything" }, /what/],
        ];
        for (const [tool, args, message] of cases) {
          const result = await mcp.call(tool, args);
          assert.equal(result.isError, true, `${tool} ${JSON.stringify(args).slice(0, 80)} must fail`);
          assert.match(textOf(result), message, `${tool} ${JSON.stringify(args).slice(0, 80)}`);
        }
        assert.equal(await snapshot(memory, "alpha"), before, "nothing stored by any bad call");
        assert.equal((await memory.stats()).namespaces, 1);
      } finally {
        await mcp.close();
      }
    });
  });
});

describe("MCP tools: concurrent writers", () => {
  it("8 agents appending to one session at once (each its own server, a slow embedder in between) lose and duplicate nothing", async () => {
    await withMemory(async (memory) => {
      // A real embedder (WASM, HTTP) yields between reading the session and writing it back: that is where appends could race.
      const slow = {
        ...memory.embedder,
        embed: async (texts: readonly string[]) => {
          await new Promise((resolve) => setTimeout(resolve, 5));
          return memory.embedder.embed(texts);
        },
      };
      const shared = new Memory({ store: memory.store, embedder: slow });
      const owner = await connect(shared, LOCAL_PRINCIPAL);
      const first = (await owner.call("remember", { namespace: "alpha", turns: [{ speaker: "Ana", text: "turn zero" }] })).structuredContent as any;
      const agents = await Promise.all(Array.from({ length: 8 }, () => connect(shared, LOCAL_PRINCIPAL)));
      try {
        const results = await Promise.all(
          agents.map((agent, i) => agent.call("remember", { namespace: "alpha", sessionId: first.sessionId, turns: [{ speaker: "Ana", text: `appended number ${i}` }] })),
        );
        for (const r of results) assert.equal(r.isError, undefined, textOf(r));
        const units = await memory.list({ namespace: "alpha", sessionId: first.sessionId });
        assert.equal(units.length, 9, "turn zero and all eight appends");
        assert.equal(new Set(units.map((u) => u.provenance.turnIds[0])).size, 9);
      } finally {
        await Promise.all([owner, ...agents].map((a) => a.close()));
      }
    });
  });
});

/** Counts every store call, to show a refused call never reaches the store. */
function spyOn(store: MemoryStore): { store: MemoryStore; calls: string[] } {
  const calls: string[] = [];
  const spy = new Proxy(store, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        calls.push(String(prop));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store: spy, calls };
}

describe("MCP tools: tenant isolation", () => {
  it("a principal for ns-a gets FORBIDDEN for every tool on ns-b, before any store call, and ns-b is unchanged", async () => {
    await withMemory(async (memory) => {
      const owner = await connect(memory, LOCAL_PRINCIPAL);
      const b = (await owner.call("remember", { namespace: "ns-b", ...CHAT })).structuredContent as any;
      await owner.call("remember", { namespace: "ns-a", turns: [{ speaker: "Ana", text: "I moved to Lisbon last August." }] });
      await owner.close();
      const before = await snapshot(memory, "ns-b");

      const { store, calls } = spyOn(memory.store);
      const spied = new Memory({ store, embedder: memory.embedder });
      const mcp = await connect(spied, ONLY_A);
      try {
        const probes: Array<[string, Record<string, unknown>]> = [
          ["remember", { namespace: "ns-b", turns: [{ speaker: "Eve", text: "planted" }] }],
          ["remember", { namespace: "ns-b", sessionId: b.sessionId, turns: [{ speaker: "Eve", text: "appended" }] }],
          ["recall", { namespace: "ns-b", query: "support group" }],
          ["ask", { namespace: "ns-b", question: "What did Caroline do?" }],
          ["forget", { namespace: "ns-b", what: "unit", id: b.unitIds[0] }],
          ["forget", { namespace: "ns-b", what: "session", id: b.sessionId }],
          ["forget", { namespace: "ns-b", what: "namespace" }],
        ];
        for (const [tool, args] of probes) {
          const result = await mcp.call(tool, args);
          assert.equal(result.isError, true, `${tool} on ns-b must be refused`);
          assert.match(textOf(result), /^FORBIDDEN: this caller may not .* namespace "ns-b"/);
          // The same words for a namespace that does not exist: the refusal says nothing about ns-b's data.
          const ghost = await mcp.call(tool, { ...args, namespace: "ns-ghost" });
          assert.equal(textOf(ghost), textOf(result).replace('"ns-b"', '"ns-ghost"'));
        }
        assert.deepEqual(calls, [], "refused calls never reach the store");

        // ids of another namespace do not reach across either
        const crossId = await mcp.call("forget", { namespace: "ns-a", what: "unit", id: b.unitIds[0] });
        assert.equal(crossId.isError, true);
        assert.match(textOf(crossId), /NOT_FOUND/);
        const crossSession = await mcp.call("forget", { namespace: "ns-a", what: "session", id: b.sessionId });
        assert.match(textOf(crossSession), /NOT_FOUND/);
        const own = (await mcp.call("recall", { namespace: "ns-a", query: "support group Caroline Lisbon", k: 50 })).structuredContent as any;
        assert.ok(own.memories.every((m: any) => !b.unitIds.includes(m.unitId)), "recall in ns-a never returns ns-b units");
        assert.equal(await snapshot(memory, "ns-b"), before);
      } finally {
        await mcp.close();
      }
    });
  });

  it("a read-only key can recall and ask but not remember or forget; a write key cannot forget a namespace", async () => {
    await withMemory(async (memory) => {
      const owner = await connect(memory, LOCAL_PRINCIPAL);
      const a = (await owner.call("remember", { namespace: "ns-a", ...CHAT })).structuredContent as any;
      await owner.close();
      const before = await snapshot(memory, "ns-a");

      const reader = await connect(memory, READ_A);
      try {
        assert.equal((await reader.call("recall", { namespace: "ns-a", query: "support group" })).isError, undefined);
        assert.equal((await reader.call("ask", { namespace: "ns-a", question: "What did Melanie paint?" })).isError, undefined);
        for (const [tool, args] of [
          ["remember", { namespace: "ns-a", turns: [{ speaker: "Eve", text: "x" }] }],
          ["forget", { namespace: "ns-a", what: "unit", id: a.unitIds[0] }],
          ["forget", { namespace: "ns-a", what: "session", id: a.sessionId }],
          ["forget", { namespace: "ns-a", what: "namespace" }],
        ] as const) {
          const result = await reader.call(tool, args);
          assert.equal(result.isError, true, `read key: ${tool} ${JSON.stringify(args)}`);
          assert.match(textOf(result), /FORBIDDEN/);
        }
      } finally {
        await reader.close();
      }
      assert.equal(await snapshot(memory, "ns-a"), before);

      const writer = await connect(memory, WRITE_A);
      try {
        const ns = await writer.call("forget", { namespace: "ns-a", what: "namespace" });
        assert.match(textOf(ns), /FORBIDDEN: this caller may not administer/);
        assert.equal(await snapshot(memory, "ns-a"), before);
        assert.equal((await writer.call("forget", { namespace: "ns-a", what: "unit", id: a.unitIds[0] })).isError, undefined, "write may delete a unit");
      } finally {
        await writer.close();
      }
    });
  });
});
