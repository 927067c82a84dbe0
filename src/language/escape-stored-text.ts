import { findDelimiterBrackets, type DelimiterBracket } from "./delimiter-skeleton.js";
import { checkArgs } from "../model/check-args.js";

/**
 * The one escaping every stored string goes through before it reaches an
 * evidence pack, a tool's text or a prompt: speaker names, participants,
 * session and turn ids, place, entities, topic, content. Stored text is
 * data; whoever wrote it must not be able to close the `<memories>` block,
 * start a line of their own (a forged session header, a `[n]` memory, a
 * "SYSTEM:" line) or hide characters a reader cannot see.
 *
 * In order:
 *  1. lone UTF-16 surrogates become U+FFFD (they cannot be encoded);
 *  2. invisible characters go: zero-width, bidi controls, tag characters,
 *     variation selectors, soft hyphens (Unicode's Default_Ignorable_Code_Point
 *     and Bidi_Control) — before and after step 3, which can produce some;
 *  3. NFKC: fullwidth `＜／ｍ＞`, small forms, mathematical letters and the
 *     like become the plain characters they are read as;
 *  4. every line break (\r, \n, \v, \f, U+0085, U+2028, U+2029) and every
 *     other control character becomes a space: a stored string is one line;
 *  5. anything that reads as the delimiter has its brackets replaced by
 *     parentheses: `</memories>` becomes `(/memories)`. "Reads as" is decided
 *     on a skeleton of the text (delimiter-skeleton.ts): decomposed, marks
 *     dropped, look-alike letters (Cyrillic `і`, small capital `ᴍ`, `İ`, `0`)
 *     read as Latin ones, entities and percent-encodings decoded layer by
 *     layer, separators between the letters skipped, and every angle-bracket
 *     look-alike (`‹ « 〈 《 ≪`) read as `<`/`>`. Only the brackets change (the
 *     whole `&lt;` or `%253C` when encoded); the word and every other
 *     character stay as written, so `a < b` and "my memories" read as before.
 *
 * Idempotent: escaping an escaped string changes nothing (each step runs to
 * its fixed point, and a parenthesis never reads as a bracket).
 */
export function escapeStoredText(text: string): string {
  checkArgs("escapeStoredText", { text: [text, "string"] });
  let out = visibleOneLine(text);
  // Defusing one bracket can expose another (`<</memories>`): go on until nothing reads as a delimiter. Each round replaces at least one non-parenthesis character by a parenthesis, so it ends.
  // At the edges too: an escaped string is joined to others, and `x <` before `memories` must not read as a delimiter.
  for (let found = findDelimiterBrackets(out, EDGES); found.length > 0; found = findDelimiterBrackets(out, EDGES)) out = defuse(out, found);
  return out;
}

/**
 * A line made of escaped strings and the renderer's own words: two escaped
 * fields side by side (`… m` + `emories> …`) can still read as a delimiter
 * together, so a renderer runs the bracket defusing once more over each
 * whole line it writes. Its own words hold no delimiter, so only such joins
 * change.
 */
export function defuseJoinedDelimiters(line: string): string {
  let out = line;
  for (let found = findDelimiterBrackets(out); found.length > 0; found = findDelimiterBrackets(out)) out = defuse(out, found);
  return out;
}

/** Steps 1–4, repeated until stable: stripping an invisible character can let NFKC compose what it separated. */
function visibleOneLine(text: string): string {
  let out = text;
  for (let round = 0; round < 8; round++) {
    const next = out.replace(LONE_SURROGATE, "\uFFFD").replace(INVISIBLE, "").normalize("NFKC").replace(INVISIBLE, "").replace(CONTROLS, " ");
    if (next === out) break;
    out = next;
  }
  return out;
}

const EDGES = { atEdges: true };

function defuse(text: string, brackets: readonly DelimiterBracket[]): string {
  let out = "";
  let at = 0;
  for (const b of [...brackets].sort((x, y) => x.start - y.start)) {
    // Two brackets read from one encoded run share its range: replace it once.
    if (b.start < at) continue;
    out += text.slice(at, b.start) + (b.kind === "open" ? "(" : ")");
    at = b.end;
  }
  return out + text.slice(at);
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Bidi_Control}]/gu;
/** C0 (line feed, carriage return, vertical tab, form feed, ...), DEL, C1 (U+0085 next line, ...), line and paragraph separators. */
const CONTROLS = /[\u0000-\u001F\u007F-\u009F\u2028\u2029]+/g;
