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
 *  5. anything that reads as the delimiter — an angle bracket (or one of its
 *     look-alikes, `&lt;`, `\u003c`) before `memories` or after it, with spaces,
 *     slashes (`/`, `⁄`, `∕`, `\`), case changes, look-alike letters (Cyrillic
 *     `і`, `о`, digit `0`) or separators between the letters — has its brackets
 *     replaced by parentheses: `</memories>` becomes `(/memories)`.
 *
 * Idempotent: escaping an escaped string changes nothing.
 */
export function escapeStoredText(text: string): string {
  const visible = text.replace(LONE_SURROGATE, "\uFFFD").replace(INVISIBLE, "").normalize("NFKC").replace(INVISIBLE, "");
  const oneLine = visible.replace(CONTROLS, " ");
  return oneLine.replace(OPENS_DELIMITER, (_m, _open: string, rest: string) => `(${rest}`).replace(CLOSES_DELIMITER, (_m, rest: string) => `${rest})`);
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Bidi_Control}]/gu;
/** C0 (line feed, carriage return, vertical tab, form feed, ...), DEL, C1 (U+0085 next line, ...), line and paragraph separators. */
const CONTROLS = /[\u0000-\u001F\u007F-\u009F\u2028\u2029]+/g;

// Look-alikes that survive NFKC. Letters: Latin, Cyrillic and Greek homoglyphs, and the digits read as letters.
const LETTER: Record<string, string> = {
  m: "mм",
  e: "eеёєэ3",
  o: "oоο0օσ",
  r: "rгᴦ",
  i: "iіıιӏl1!|",
  s: "sѕ5$",
};
const BETWEEN_LETTERS = "[\\s._*~`'\"-]*";
const WORD = [..."memories"].map((ch) => `[${escapeClass(LETTER[ch]!)}]`).join(BETWEEN_LETTERS);
const OPENER = ["[<‹«〈⟨❬❮❰⧼˂ᐸ]", "&lt;?", "&#0*60;?", "&#x0*3c;?", "\\\\u0*3c", "\\\\x3c", "%3c"].join("|");
const CLOSER = ["[>›»〉⟩❭❯❱⧽˃ᐳ]", "&gt;?", "&#0*62;?", "&#x0*3e;?", "\\\\u0*3e", "\\\\x3e", "%3e"].join("|");
const SLASHES = "(?:[\\s/\\\\⁄∕⧸╱]|&sol;|&#0*47;|&#x0*2f;)*";
const OPENS_DELIMITER = new RegExp(`(${OPENER})(${SLASHES}${WORD})`, "giu");
const CLOSES_DELIMITER = new RegExp(`(${WORD}${SLASHES})(${CLOSER})`, "giu");

function escapeClass(chars: string): string {
  return chars.replace(/[\\\]\[^-]/g, "\\$&");
}
