import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { LOCAL_PRINCIPAL } from "../auth/principal.js";
import { connect, textOf, withMemory } from "./testing/mcp-fixtures.js";

/** The MCP face refuses what the model refuses: session ids of dots only, reserved metadata keys; nothing is stored. */
describe("MCP remember refuses session ids of dots and reserved metadata keys", () => {
  it("is an error naming the field, and stores nothing", async () => {
    await withMemory(async (memory) => {
      const mcp = await connect(memory, LOCAL_PRINCIPAL);
      try {
        // The SDK answers a schema failure as a protocol error, a tool's own refusal as isError: either refuses.
        const refusal = (args: Record<string, unknown>) =>
          mcp.call("remember", args).then(
            (r) => (r.isError ? textOf(r) : `accepted: ${textOf(r)}`),
            (e: unknown) => String(e),
          );
        const turns = [{ speaker: "Jon", text: "I went to a support group for runners." }];
        for (const sessionId of [".", ".."]) {
          assert.match(await refusal({ namespace: "alpha", turns, sessionId }), /only dots[\s\S]*sessionId/);
        }
        // As a JSON-RPC message arrives: JSON.parse makes "__proto__" an own key.
        const metadata = JSON.parse('{"__proto__": {"x": 1}, "project": "apollo"}') as Record<string, unknown>;
        assert.match(await refusal({ namespace: "alpha", turns, metadata }), /__proto__[\s\S]*reserved/);
        assert.deepEqual(await memory.store.listNamespaces(), []);
        const { tools } = await mcp.client.listTools();
        const remember = tools.find((t) => t.name === "remember")!;
        assert.equal((remember.inputSchema.properties as Record<string, { type?: string }>).metadata?.type, "object", JSON.stringify(remember.inputSchema.properties?.metadata));
      } finally {
        await mcp.close();
      }
    });
  });
});
