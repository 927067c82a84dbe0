import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { MAX_FILTER_LIST } from "../../model/memory-filter.js";
import { LOCAL_PRINCIPAL } from "../auth/principal.js";
import { connect, withMemory } from "../mcp/testing/mcp-fixtures.js";
import { startTestServer, type TestServer } from "../testing/server-fixture.js";

/**
 * A filter of the documented maximum (in/nin lists of MAX_FILTER_LIST values)
 * is an ordinary request on every surface: on SQLite a chain of that many ORs
 * used to pass SQLite's expression depth limit and answer 500.
 */
describe("filters with the longest in/nin lists", () => {
  let t: TestServer;
  // Short values: a GET carries the filter in its URL, and Node caps the request line and headers at 16 KB.
  const numbers = (last: number) => [...Array.from({ length: MAX_FILTER_LIST - 1 }, (_, i) => 1000 + i), last];
  const words = (last: string) => [...Array.from({ length: MAX_FILTER_LIST - 1 }, (_, i) => `w${i}`), last];

  before(async () => {
    t = await startTestServer();
    const added = await t.call("POST", "/v1/namespaces/garden/messages", {
      json: { messages: [{ role: "user", content: "I repotted the fig tree." }], metadata: { topic: "plants", priority: 3 } },
    });
    assert.equal(added.status, 200, added.text);
    const other = await t.call("POST", "/v1/namespaces/garden/messages", { json: { messages: [{ role: "user", content: "The lemon tree needs sun." }], metadata: { topic: "weather", priority: 7 } } });
    assert.equal(other.status, 200, other.text);
  });
  after(() => t.stop());

  it("GET memories?filter= with in and nin of the maximum length is 200", async () => {
    const get = (filter: unknown) => t.call("GET", `/v1/namespaces/garden/memories?filter=${encodeURIComponent(JSON.stringify(filter))}`);
    const hit = await get({ "metadata.priority": { in: numbers(3) } });
    assert.equal(hit.status, 200, hit.text);
    assert.equal(hit.body.total, 1);
    const miss = await get({ "metadata.priority": { nin: numbers(3) } });
    assert.equal(miss.status, 200, miss.text);
    assert.equal(miss.body.total, 1);
  });

  it("POST recall with in and nin of the maximum length, on metadata and built-in fields, is 200", async () => {
    for (const filter of [{ "metadata.topic": { in: words("plants") } }, { "metadata.topic": { nin: words("weather") } }, { role: { in: words("user") } }, { sessionId: { nin: words("none") } }]) {
      const res = await t.call("POST", "/v1/namespaces/garden/recall", { json: { query: "fig tree", filter } });
      assert.equal(res.status, 200, `${JSON.stringify(filter).slice(0, 60)}: ${res.text.slice(0, 300)}`);
      assert.ok(res.body.hits.length > 0);
    }
  });

  it("MCP recall with an in list of the maximum length is no error", async () => {
    await withMemory(async (memory) => {
      const mcp = await connect(memory, LOCAL_PRINCIPAL);
      try {
        await mcp.call("remember", { namespace: "alpha", turns: [{ speaker: "Jon", text: "I went to a support group for runners." }], metadata: { project: "family" } });
        const res = await mcp.call("recall", { namespace: "alpha", query: "support group", filter: { "metadata.project": { in: words("family") } } });
        assert.equal(res.isError, undefined, JSON.stringify(res.content).slice(0, 300));
        assert.ok((res.structuredContent as { memories: unknown[] }).memories.length > 0);
      } finally {
        await mcp.close();
      }
    });
  });
});
