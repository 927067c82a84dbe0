import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { isLoopbackHost } from "./is-loopback-host.js";

describe("isLoopbackHost", () => {
  it("knows loopback from everything else", () => {
    for (const h of ["127.0.0.1", "127.1.2.3", "localhost", "::1", "[::1]", "LOCALHOST"]) assert.equal(isLoopbackHost(h), true, h);
    for (const h of ["0.0.0.0", "::", "192.168.0.1", "10.0.0.1", "example.com", "128.0.0.1", "localhost.evil.com"]) assert.equal(isLoopbackHost(h), false, h);
  });
});
