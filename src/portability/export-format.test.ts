import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { decodeEmbedding, encodeEmbedding } from "./export-format.js";

describe("embedding encoding", () => {
  it("float32 vectors survive the encoding bit for bit", () => {
    const v = new Float32Array([0.1, -3.4028234663852886e38, 1e-45, 0, -0, 0.333333343267]);
    assert.deepEqual(decodeEmbedding(encodeEmbedding(v)), v);
  });

  it("a byte count that is not a whole number of floats decodes to nothing (the size check then refuses it)", () => {
    assert.equal(decodeEmbedding("AAAA").length, 0);
  });
});
