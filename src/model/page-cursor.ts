import { RamemError } from "./errors.js";
import { echoValue } from "./echo-value.js";

/**
 * The opaque page cursor of a unit listing: the library's getAll and REST's
 * GET …/memories give and take the same one, so a cursor from either pages
 * the other. It holds the offset of the next page; callers must not build one.
 */
export function encodeCursor(offset: number): string {
  return Buffer.from(JSON.stringify({ o: offset })).toString("base64url");
}

/** The offset a cursor stands for, else BAD_CURSOR located at `where` (the caller's name for the field). */
export function decodeCursor(cursor: string, where = "cursor"): number {
  try {
    const o = (JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as { o?: unknown }).o;
    if (typeof o === "number" && Number.isInteger(o) && o >= 0) return o;
  } catch {
    // fall through to the error
  }
  throw new RamemError("BAD_CURSOR", `${echoValue(String(cursor))} is not a page cursor`, { where, hint: "pass the nextCursor of the previous page, or leave cursor out for the first page" });
}

/** The cursor of the page after `listed` units read from `offset`, or null when that was the last page. */
export function nextCursorAfter(offset: number, listed: number, total: number): string | null {
  const next = offset + listed;
  return next < total && listed > 0 ? encodeCursor(next) : null;
}
