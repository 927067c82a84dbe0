import { RamemError } from "../model/errors.js";

const strict = new TextDecoder("utf-8", { fatal: true });

/**
 * Bytes → text, refusing invalid UTF-8 instead of turning it into U+FFFD
 * (which would then be stored as if the writer had meant it): the byte-level
 * half of the stored-text rule (model/stored-text.ts). The error names the
 * byte offset, and the line and column, of the first invalid sequence. A
 * UTF-8 byte order mark is dropped.
 */
export function decodeUtf8(bytes: Uint8Array, where: string): string {
  try {
    return strict.decode(bytes).replace(/^\uFEFF/, "");
  } catch {
    const offset = firstInvalidByte(bytes);
    let line = 1;
    let lineStart = 0;
    for (let i = 0; i < offset; i++) {
      if (bytes[i] === 0x0a) {
        line++;
        lineStart = i + 1;
      }
    }
    const byte = bytes[offset]?.toString(16).toUpperCase().padStart(2, "0") ?? "end of input";
    throw new RamemError("INVALID_UTF8", `invalid UTF-8 at byte ${offset} (line ${line}, column ${offset - lineStart + 1}: 0x${byte})`, {
      where,
      hint: "send or save the text as UTF-8 (invalid bytes are refused, not replaced); nothing was stored",
    });
  }
}

/** Offset of the first byte that does not start or continue a well-formed UTF-8 sequence (RFC 3629). */
export function firstInvalidByte(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    let need: number;
    let min = 0x80;
    let max = 0xbf;
    if (b < 0x80) need = 0;
    else if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      if (b === 0xe0) min = 0xa0; // overlong
      if (b === 0xed) max = 0x9f; // surrogates
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      if (b === 0xf0) min = 0x90; // overlong
      if (b === 0xf4) max = 0x8f; // above U+10FFFF
    } else return i;
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || c < (k === 1 ? min : 0x80) || c > (k === 1 ? max : 0xbf)) return i;
    }
    i += need + 1;
  }
  return bytes.length;
}
