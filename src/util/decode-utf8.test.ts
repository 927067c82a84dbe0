import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { RamemError } from "../model/errors.js";
import { decodeUtf8, firstInvalidByte } from "./decode-utf8.js";

describe("decodeUtf8", () => {
  it("decodes UTF-8 (a BOM dropped) and refuses invalid bytes naming byte, line and column", () => {
    assert.equal(decodeUtf8(Buffer.from("\uFEFFZoë 🙂\nok"), "f"), "Zoë 🙂\nok");
    const bad = Buffer.concat([Buffer.from("line one\nab"), Buffer.from([0xff]), Buffer.from("cd")]);
    assert.throws(() => decodeUtf8(bad, "file.json"), (e: unknown) => {
      assert.ok(e instanceof RamemError);
      assert.equal(e.code, "INVALID_UTF8");
      assert.equal(e.where, "file.json");
      assert.equal(e.message, "invalid UTF-8 at byte 11 (line 2, column 3: 0xFF)");
      return true;
    });
  });

  it("firstInvalidByte agrees with the strict decoder on overlongs, surrogates, truncation and out-of-range", () => {
    const cases: Array<[number[], number]> = [
      [[0x41, 0xc0, 0x80], 1], // overlong NUL
      [[0xe0, 0x80, 0x80], 0], // overlong
      [[0xed, 0xa0, 0x80], 0], // encoded surrogate
      [[0xf4, 0x90, 0x80, 0x80], 0], // above U+10FFFF
      [[0x41, 0xe2, 0x82], 1], // truncated
      [[0xe2, 0x82, 0xac, 0x80], 3], // stray continuation
      [[0xf0, 0x9f, 0x99, 0x82], 4], // valid emoji
    ];
    for (const [bytes, at] of cases) {
      assert.equal(firstInvalidByte(Uint8Array.from(bytes)), at, bytes.map((b) => b.toString(16)).join(" "));
      assert.equal(at === bytes.length, (() => { try { new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(bytes)); return true; } catch { return false; } })());
    }
  });
});
