import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { startTestServer, GARDEN, type TestServer } from "../testing/server-fixture.js";

/**
 * Input the model refuses, on REST: metadata keys that name JavaScript object
 * internals (a JSON body makes "__proto__" an own key, which a copy would drop
 * silently), and session ids of dots only (which a URL resolves away). Each is
 * a 400 naming the field, and nothing is stored.
 */
describe("REST refuses reserved metadata keys and session ids of dots", () => {
  let t: TestServer;
  let before_: string;
  const snapshot = async () => JSON.stringify([(await t.call("GET", "/v1/namespaces/garden/export")).text.replace(/"exportedAt":"[^"]+"/, ""), (await t.call("GET", "/v1/namespaces")).body]);
  const raw = (method: string, path: string, body: string) => t.call(method, path, { body, headers: { "content-type": "application/json" } });

  before(async () => {
    t = await startTestServer();
    assert.equal((await t.call("PUT", "/v1/namespaces/garden/sessions/s1", { json: GARDEN })).status, 200);
    before_ = await snapshot();
  });
  after(() => t.stop());

  const turn = '{"speaker": "Ann", "text": "hello"}';
  const cases: Array<[string, string, string, string, RegExp]> = [
    ["__proto__ in a session's metadata", "PUT", "/v1/namespaces/garden/sessions/s2", `{"startTime": "2023-01-01T00:00:00Z", "turns": [${turn}], "metadata": {"__proto__": {"x": 1}}}`, /__proto__.*reserved/],
    ["__proto__ holding a string", "PUT", "/v1/namespaces/garden/sessions/s2", `{"startTime": "2023-01-01T00:00:00Z", "turns": [${turn}], "metadata": {"__proto__": "x"}}`, /__proto__.*reserved/],
    ["constructor in a turn's metadata", "PUT", "/v1/namespaces/garden/sessions/s2", `{"startTime": "2023-01-01T00:00:00Z", "turns": [{"speaker": "Ann", "text": "hi", "metadata": {"constructor": 1}}]}`, /constructor.*reserved/],
    ["prototype nested in messages' metadata", "POST", "/v1/namespaces/garden/messages", `{"messages": [{"role": "user", "content": "hi"}], "metadata": {"a": {"prototype": 1}}}`, /a\.prototype.*reserved/],
    ["__proto__ in appended turns' metadata", "POST", "/v1/namespaces/garden/sessions/s1/turns", `{"turns": [${turn}], "metadata": {"__proto__": {"x": 1}}}`, /__proto__.*reserved/],
    ["a session id of one dot in a body", "POST", "/v1/namespaces/garden/messages", `{"messages": [{"role": "user", "content": "hi"}], "sessionId": "."}`, /only dots/],
    ["a session id of two dots in a body", "POST", "/v1/namespaces/garden/messages", `{"messages": [{"role": "user", "content": "hi"}], "sessionId": ".."}`, /only dots/],
    ["a session id of dots in the path (escaped)", "PUT", "/v1/namespaces/garden/sessions/%2E%2E%2E", `{"startTime": "2023-01-01T00:00:00Z", "turns": [${turn}]}`, /only dots/],
  ];
  for (const [name, method, path, body, detail] of cases) {
    it(`${name}: 400, nothing stored`, async () => {
      const res = await raw(method, path, body);
      assert.equal(res.status, 400, res.text);
      assert.equal(res.body.code, "VALIDATION_FAILED", res.text);
      assert.match(res.body.detail, detail);
      assert.equal(await snapshot(), before_);
    });
  }
});
