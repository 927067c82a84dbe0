import { Transform, type Readable } from "node:stream";
import { RamemError } from "../model/errors.js";
import { decodeUtf8 } from "../util/decode-utf8.js";

export type RequestId = string | number;

/**
 * `ramem mcp`'s stdin, a line at a time (stdio JSON-RPC is one message per
 * line): lines that are UTF-8 pass through unchanged; a line that is not is
 * held back — it would reach the SDK with U+FFFD in place of its bytes and be
 * stored so — and `onInvalid` gets the error and the request id a lenient
 * reading of the line finds (null if none), to answer it.
 */
export function utf8LinesOnly(input: Readable, onInvalid: (error: RamemError, id: RequestId | null) => void): Readable {
  let pending = Buffer.alloc(0);
  let lineNo = 0;
  const check = (line: Buffer): boolean => {
    lineNo++;
    try {
      decodeUtf8(line, `stdin line ${lineNo}`);
      return true;
    } catch (err) {
      if (!(err instanceof RamemError)) throw err;
      onInvalid(err, idOf(line));
      return false;
    }
  };
  const lines = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      pending = Buffer.concat([pending, chunk]);
      let end: number;
      while ((end = pending.indexOf(0x0a)) !== -1) {
        const line = pending.subarray(0, end + 1);
        pending = pending.subarray(end + 1);
        if (check(line)) this.push(line);
      }
      done();
    },
    flush(done) {
      if (pending.length > 0 && check(pending)) this.push(pending);
      done();
    },
  });
  return input.pipe(lines);
}

function idOf(line: Buffer): RequestId | null {
  try {
    const id = (JSON.parse(line.toString("utf8")) as { id?: unknown }).id;
    return typeof id === "string" || typeof id === "number" ? id : null;
  } catch {
    return null;
  }
}
