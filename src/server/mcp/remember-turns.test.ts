import { it } from "node:test";
import assert from "node:assert/strict";
import { RamemError } from "../../model/errors.js";
import { rememberTurns } from "./remember-turns.js";
import { CHAT, NOW, snapshot, withMemory } from "./testing/mcp-fixtures.js";

it("an append rewrites the session with every unit's correct vector (dense search finds each by its own content)", async () => {
  await withMemory(async (memory) => {
    const first = await rememberTurns(memory, { namespace: "n", ...CHAT }, () => NOW);
    await rememberTurns(memory, { namespace: "n", sessionId: first.sessionId, turns: [{ speaker: "Ben", text: "The chess club meets on Thursdays." }] }, () => NOW);
    await rememberTurns(memory, { namespace: "n", sessionId: first.sessionId, turns: [{ speaker: "Cy", text: "I bought a red kayak." }] }, () => NOW);
    const units = await memory.list({ namespace: "n" });
    assert.equal(units.length, 5);
    for (const u of units) {
      const [vector] = await memory.embedder.embed([u.content]);
      const [top] = await memory.store.searchDense("n", vector!, 1);
      assert.equal(top?.id, u.id, `the stored vector of ${u.content.slice(0, 30)} is its own`);
    }
    const session = await memory.store.getSession("n", first.sessionId);
    assert.deepEqual(session?.participants, ["Caroline", "Melanie", "Ben", "Cy"]);
    assert.equal(session?.endTime, NOW.toISOString(), "undated live turns are dated now and stretch the span");
  });
});

it("a bad turn anywhere in an append leaves the stored session exactly as it was", async () => {
  await withMemory(async (memory) => {
    const first = await rememberTurns(memory, { namespace: "n", ...CHAT }, () => NOW);
    const before = await snapshot(memory, "n");
    await assert.rejects(
      rememberTurns(memory, { namespace: "n", sessionId: first.sessionId, turns: [{ speaker: "Ben", text: "fine" }, { speaker: "Ben", text: "x", time: "31 February 2023" }] }),
      (err: unknown) => err instanceof RamemError && err.code === "BAD_INPUT" && /turns\[1\] › time/.test(err.where ?? ""),
    );
    assert.equal(await snapshot(memory, "n"), before);
  });
});
