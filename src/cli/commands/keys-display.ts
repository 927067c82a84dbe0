import { RamemError } from "../../model/errors.js";

/**
 * Characters a terminal does not show as themselves: C0 and C1 controls
 * (a line break splits a table row; ESC starts an escape sequence that can
 * recolour, move the cursor or retitle the window), DEL, the Unicode line and
 * paragraph separators, and the bidirectional controls (which reorder what
 * follows them, so a name can display as another).
 */
const UNSHOWABLE = /[\u0000-\u001F\u007F-\u009F\u2028\u2029\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/;
const UNSHOWABLE_ALL = new RegExp(UNSHOWABLE.source, "g");

const SHORT: Readonly<Record<string, string>> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/**
 * A stored string as a terminal line may print it: each unshowable character
 * as a visible escape (\n, \t, \x1b, \u202e), and a backslash doubled so an
 * escape can be told from a name that spells one. `--json` output stays raw
 * JSON (JSON.stringify escapes controls itself).
 */
export function terminalText(text: string): string {
  return text.replace(/\\/g, "\\\\").replace(UNSHOWABLE_ALL, (c) => {
    const code = c.charCodeAt(0);
    return SHORT[c] ?? (code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`);
  });
}

/** A new key's name: refused when it holds a character a terminal cannot show (see UNSHOWABLE). */
export function checkKeyName(name: string): void {
  const found = UNSHOWABLE.exec(name);
  if (found) {
    throw new RamemError("INVALID_KEY", `the key name holds ${terminalText(found[0])} (U+${found[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}) at character ${found.index + 1}; a key name is one line of visible text`, {
      where: "--name",
      hint: 'pass a plain label, e.g. --name "support-bot"',
    });
  }
}
