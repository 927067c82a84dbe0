import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { Hono } from "hono";
import { RamemError } from "../../model/errors.js";
import { authMiddleware, authorize, type AuthEnv } from "./middleware.js";
import { LOCAL_PRINCIPAL } from "./principal.js";

const isCode = (code: string) => (err: unknown) => err instanceof RamemError && err.code === code;

describe("authorize", () => {
  const p = { keyId: "key_1", role: "write" as const, namespaces: ["a"] };
  it("lets a granted namespace and role through", () => {
    assert.doesNotThrow(() => authorize(p, "a", "read"));
    assert.doesNotThrow(() => authorize(p, "a", "write"));
    assert.doesNotThrow(() => authorize(LOCAL_PRINCIPAL, "anything", "admin"));
  });
  it("refuses another namespace (the same message whether or not it exists) and a higher role", () => {
    assert.throws(() => authorize(p, "b", "read"), (e: unknown) => isCode("FORBIDDEN")(e) && /may not access namespace "b"/.test((e as Error).message));
    assert.throws(() => authorize(p, "a", "admin"), (e: unknown) => isCode("FORBIDDEN")(e) && /role write; this call needs admin/.test((e as Error).message));
  });
});

describe("authMiddleware", () => {
  it("puts the principal on the context, and lets authenticate's refusal through as an error", async () => {
    const app = new Hono<AuthEnv>();
    app.use("*", authMiddleware(async (r) => {
      if (r.headers.get("authorization") !== "Bearer ok") throw new RamemError("UNAUTHORIZED", "no");
      return { keyId: "key_1", role: "read", namespaces: ["a"] };
    }));
    app.get("/", (c) => c.json(c.get("principal")));
    app.onError((err, c) => c.json({ code: (err as RamemError).code }, 401));
    const ok = await app.request("/", { headers: { authorization: "Bearer ok" } });
    assert.deepEqual(await ok.json(), { keyId: "key_1", role: "read", namespaces: ["a"] });
    const no = await app.request("/");
    assert.deepEqual([no.status, await no.json()], [401, { code: "UNAUTHORIZED" }]);
  });
});
