import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { get as httpGet } from "node:http";
import { startTestServer, type TestServer } from "../testing/server-fixture.js";

/** /ui on a real server, over a build of two files made here (the real build is the browser test's). */
describe("the inspector's static files at /ui", () => {
  let t: TestServer;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "ramem-ui-"));
    mkdirSync(join(dir, "assets"));
    writeFileSync(join(dir, "index.html"), "<!doctype html><title>inspector</title><script type=module src=./assets/app-1.js></script>");
    writeFileSync(join(dir, "assets", "app-1.js"), "console.log('ui')");
    t = await startTestServer({ keys: [{ role: "read", namespaces: ["a"] }], server: { ui: dir } });
  });
  after(async () => {
    await t.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("serves the page without a key (it holds no data), with a CSP that allows only this origin", async () => {
    const r = await t.call("GET", "/ui/");
    assert.equal(r.status, 200);
    assert.match(r.text, /<title>inspector<\/title>/);
    assert.match(r.headers.get("content-type")!, /text\/html/);
    assert.match(r.headers.get("content-security-policy")!, /default-src 'self'; script-src 'self'/);
    assert.equal(r.headers.get("x-frame-options"), "DENY");
    assert.equal(t.server.uiUrl, `${t.server.url}/ui/`);
  });

  it("/ui redirects to /ui/; hashed assets are served as JavaScript and cached for good", async () => {
    const r = await fetch(`${t.server.url}/ui`, { redirect: "manual" });
    assert.equal(r.status, 308);
    assert.equal(r.headers.get("location"), "/ui/");
    const js = await t.call("GET", "/ui/assets/app-1.js");
    assert.equal(js.status, 200);
    assert.match(js.headers.get("content-type")!, /text\/javascript/);
    assert.match(js.headers.get("cache-control")!, /immutable/);
  });

  it("only the build's files: unknown paths and escapes are 404", async () => {
    assert.equal((await t.call("GET", "/ui/assets/missing.js")).status, 404);
    assert.equal((await t.call("GET", "/ui/%2e%2e/%2e%2e/package.json")).status, 404);
    assert.equal((await t.call("GET", "/ui/..%2f..%2fpackage.json")).status, 404);
  });

  it("checks Host and Origin like every route", async () => {
    // fetch cannot set Host; a raw request can, as a browser on a rebound DNS name sends it.
    const status = (headers: Record<string, string>) =>
      new Promise<number>((resolve, reject) => httpGet({ host: "127.0.0.1", port: t.server.port, path: "/ui/", headers }, (res) => (res.resume(), resolve(res.statusCode ?? 0))).on("error", reject));
    assert.equal(await status({ host: "evil.example" }), 403);
    assert.equal(await status({ host: `127.0.0.1:${t.server.port}`, origin: "https://evil.example" }), 403);
    assert.equal(await status({ host: `127.0.0.1:${t.server.port}` }), 200);
  });

  it("a server whose UI was never built says how to build it (503), and ui: false leaves /ui out", async () => {
    const unbuilt = await startTestServer({ server: { ui: join(dir, "nowhere") } });
    const off = await startTestServer({ server: { ui: false } });
    try {
      const r = await unbuilt.call("GET", "/ui/");
      assert.equal(r.status, 503);
      assert.match(r.text, /npm run build/);
      assert.equal((await off.call("GET", "/ui/")).status, 404);
      assert.equal(off.server.uiUrl, null);
    } finally {
      await unbuilt.stop();
      await off.stop();
    }
  });
});
