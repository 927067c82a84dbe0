import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { createHostOriginPolicy, refuseHostOrOrigin } from "./host-origin-guard.js";

const request = (headers: Record<string, string>) => new Request("http://127.0.0.1/v1/namespaces", { headers });
const verdict = (policy: ReturnType<typeof createHostOriginPolicy>, headers: Record<string, string>) => refuseHostOrOrigin(request(headers), policy)?.code ?? "ok";

describe("Host/Origin allow-list", () => {
  it("answers loopback names and the bound address, any port; refuses every other Host", () => {
    const policy = createHostOriginPolicy({ boundHost: "192.168.1.10" });
    for (const host of ["127.0.0.1:8787", "localhost:8787", "LOCALHOST", "[::1]:8787", "192.168.1.10:8787", "localhost.:1"]) assert.equal(verdict(policy, { host }), "ok", host);
    for (const host of ["evil.example:8787", "127.0.0.1.evil.example", "192.168.1.11:8787", "localhost.evil.example", "[::2]:8787"]) assert.equal(verdict(policy, { host }), "HOST_NOT_ALLOWED", host);
  });

  it("refuses a foreign browser Origin, and 'null', even with an allowed Host; requests without Origin are unaffected", () => {
    const policy = createHostOriginPolicy({ boundHost: "127.0.0.1" });
    assert.equal(verdict(policy, { host: "127.0.0.1:8787" }), "ok");
    assert.equal(verdict(policy, { host: "127.0.0.1:8787", origin: "http://localhost:3000" }), "ok");
    assert.equal(verdict(policy, { host: "127.0.0.1:8787", origin: "https://evil.example" }), "ORIGIN_NOT_ALLOWED");
    assert.equal(verdict(policy, { host: "127.0.0.1:8787", origin: "null" }), "ORIGIN_NOT_ALLOWED");
  });

  it("takes more hosts and origins, or * for any", () => {
    const policy = createHostOriginPolicy({ boundHost: "127.0.0.1", allowedHosts: ["Memory.Example.com"], allowedOrigins: ["https://agent.example.com/"] });
    assert.equal(verdict(policy, { host: "memory.example.com:443", origin: "https://agent.example.com" }), "ok");
    assert.equal(verdict(policy, { host: "other.example.com" }), "HOST_NOT_ALLOWED");
    const open = createHostOriginPolicy({ allowedHosts: ["*"], allowedOrigins: ["*"] });
    assert.equal(verdict(open, { host: "anything.example", origin: "https://anywhere.example" }), "ok");
  });

  it("a wildcard bind answers this machine's own addresses", () => {
    const policy = createHostOriginPolicy({ boundHost: "0.0.0.0" });
    assert.equal(verdict(policy, { host: "127.0.0.1:8787" }), "ok");
    assert.equal(verdict(policy, { host: "evil.example" }), "HOST_NOT_ALLOWED");
  });

  it("quotes a long Host back cut to 200 characters", () => {
    const err = refuseHostOrOrigin(request({ host: "h".repeat(10_000) }), createHostOriginPolicy());
    assert.ok(err && err.message.length < 400, err?.message.length.toString());
  });
});
