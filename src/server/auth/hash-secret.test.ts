import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { hashSecret } from "./hash-secret.js";

describe("hashSecret", () => {
  it("is the SHA-256 hex of the secret", () => {
    assert.equal(hashSecret("rm_abc"), createHash("sha256").update("rm_abc").digest("hex"));
    assert.notEqual(hashSecret("rm_abc"), hashSecret("rm_abd"));
  });
});
