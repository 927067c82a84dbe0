import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { RamemError } from "../../model/errors.js";
import { parseFilter } from "../../model/memory-filter.js";
import { metadataWithEntities, namespaceOf, translateFilters } from "./entities.js";

const badFilter = (detail: RegExp) => (err: unknown) => err instanceof RamemError && err.code === "BAD_FILTER" && detail.test(err.message);

describe("Mem0 entity ids → ramem", () => {
  it("namespace: user_id, else agent_id, else the default; an id that cannot be a namespace names its field", () => {
    assert.equal(namespaceOf({ user_id: "alice", agent_id: "bot" }, "default", "body"), "alice");
    assert.equal(namespaceOf({ agent_id: "bot", run_id: "r1" }, "default", "body"), "bot");
    assert.equal(namespaceOf({ run_id: "r1" }, "default", "body"), "default");
    assert.throws(() => namespaceOf({ user_id: "a b" }, "default", "query"), (err: unknown) => err instanceof RamemError && err.code === "BAD_NAMESPACE" && /^query\.user_id: "a b" cannot be a namespace/.test(err.message));
  });

  it("metadata keeps agent_id, run_id and app_id, null when absent (so a session's older ids are not inherited)", () => {
    assert.deepEqual(metadataWithEntities({ topic: "x", agent_id: "mine" }, { user_id: "alice", agent_id: "bot" }), { topic: "x", agent_id: "bot", run_id: null, app_id: null });
    assert.deepEqual(metadataWithEntities(undefined, { run_id: "r1" }), { agent_id: null, run_id: "r1", app_id: null });
  });

  it("filters: top-level and top-level-AND ids pick the namespace; the rest becomes ramem's filter language", () => {
    const t = translateFilters({ AND: [{ user_id: "alice" }, { agent_id: "bot" }, { created_at: { gte: "2024-01-01" } }], metadata: { topic: "moving" } }, {}, "body.filters");
    assert.deepEqual(t.ids, { user_id: "alice", agent_id: "bot" });
    assert.deepEqual(t.filter, { AND: [{ createdAt: { gte: "2024-01-01" } }, { "metadata.topic": "moving" }, { "metadata.agent_id": "bot" }] });
    parseFilter(t.filter); // ramem's own check accepts what the translation gives
    const run = translateFilters({ user_id: "alice", OR: [{ run_id: "r1" }, { app_id: { in: ["a", "b"] } }] }, {}, "f");
    assert.deepEqual(run.filter, { OR: [{ sessionId: "r1" }, { "metadata.app_id": { in: ["a", "b"] } }] });
    assert.deepEqual(translateFilters(undefined, { user_id: "alice", run_id: "r1" }, "f"), { ids: { user_id: "alice", run_id: "r1" }, filter: { sessionId: "r1" } });
    // agent_id alone is the namespace: no condition on it (every unit there is the agent's).
    assert.deepEqual(translateFilters({ agent_id: "bot" }, {}, "f"), { ids: { agent_id: "bot" }, filter: undefined });
  });

  it("refuses what one namespace cannot answer or ramem cannot filter on, naming the field", () => {
    assert.throws(() => translateFilters({ OR: [{ user_id: "a" }, { user_id: "b" }] }, {}, "body.filters"), badFilter(/^body\.filters\.OR\[0\]\.user_id: user_id names the ramem namespace/));
    assert.throws(() => translateFilters({ user_id: { in: ["a", "b"] } }, {}, "body.filters"), badFilter(/^body\.filters\.user_id: /));
    assert.throws(() => translateFilters({ user_id: "*" }, {}, "body.filters"), badFilter(/one request reads one ramem namespace/));
    assert.throws(() => translateFilters({ user_id: "a" }, { user_id: "b" }, "body.filters"), badFilter(/user_id is given twice/));
    assert.throws(() => translateFilters({ user_id: "a", categories: { in: ["x"] } }, {}, "body.filters"), badFilter(/^body\.filters\.categories: this server does not filter on "categories"/));
    assert.throws(() => translateFilters({ user_id: "a", agent_id: { ne: "*" } }, {}, "body.filters"), badFilter(/"\*" \(any value\) is not supported/));
  });
});
