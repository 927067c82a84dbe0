import { describe, it, after, before } from "node:test";
import assert from "node:assert/strict";
import { startTestServer, session, type TestServer } from "../testing/server-fixture.js";

/**
 * 8 writers at once on one namespace: four ingest their own sessions, four
 * append to one shared session. Afterwards every turn is there exactly once.
 */
describe("concurrent writers to one namespace", () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ embedDelayMs: 3 });
  });
  after(() => t.stop());

  it("8 parallel writers lose and duplicate nothing", async () => {
    const rounds = 3;
    const writers = Array.from({ length: 8 }, (_, w) => async () => {
      for (let r = 0; r < rounds; r++) {
        if (w < 4) {
          const res = await t.call("PUT", `/v1/namespaces/busy/sessions/w${w}-r${r}`, {
            json: session("2023-03-01T10:00:00Z", [[`Writer${w}`, `writer ${w} round ${r} first`], [`Writer${w}`, `writer ${w} round ${r} second`]]),
          });
          assert.equal(res.status, 200, res.text);
        } else {
          const res = await t.call("POST", "/v1/namespaces/busy/sessions/shared/turns", {
            json: { startTime: "2023-03-01T09:00:00Z", turns: [{ speaker: `Appender${w}`, text: `appender ${w} round ${r}` }] },
          });
          assert.equal(res.status, 200, res.text);
        }
      }
    });
    await Promise.all(writers.map((w) => w()));

    const units = (await t.call("GET", "/v1/namespaces/busy/memories?limit=1000")).body.memories as Array<{ id: string; content: string; provenance: { sessionId: string; turnIds: string[] } }>;
    assert.equal(units.length, 4 * rounds * 2 + 4 * rounds, "unit count");
    assert.equal(new Set(units.map((u) => u.id)).size, units.length, "duplicate unit ids");
    const shared = units.filter((u) => u.provenance.sessionId === "shared");
    assert.equal(shared.length, 4 * rounds, "appended turns");
    const expected = [];
    for (let w = 4; w < 8; w++) for (let r = 0; r < rounds; r++) expected.push(`appender ${w} round ${r}`);
    assert.deepEqual(shared.map((u) => /appender \d round \d/.exec(u.content)?.[0]).sort(), expected.sort());
    assert.deepEqual(
      shared.flatMap((u) => u.provenance.turnIds).sort(),
      Array.from({ length: 4 * rounds }, (_, i) => `shared:${i + 1}`).sort(),
      "turn ids of the shared session are 1..n, each once",
    );
    const stats = (await t.call("GET", "/v1/namespaces/busy/stats")).body;
    assert.equal(stats.sessions, 4 * rounds + 1);
    assert.equal(stats.units, units.length);
    const sharedSession = (await t.call("GET", "/v1/namespaces/busy/sessions/shared")).body;
    assert.equal(sharedSession.unitCount, 4 * rounds);
  });
});
