/**
 * Finds what a reader could take for the evidence delimiter (`<memories>`,
 * `</memories>`) however it is disguised, by comparing on a skeleton of the
 * text instead of on its characters. A regex over characters loses to the
 * next look-alike; the skeleton folds whole classes of disguise at once:
 *
 *  - every character is decomposed (NFKD), its combining marks dropped and
 *    lower-cased: `m̀`, `İ`, `Ｍ` read as `m`, `i`, `m`;
 *  - letters that look like m, e, o, r, i, s in other scripts and styles
 *    (Cyrillic, Greek, small capitals, Cherokee, Lisu, digits, `$`, `|`)
 *    read as those letters;
 *  - encodings are decoded, layer after layer: HTML entities (numeric and
 *    named, `&lang;`, `&amp;lt;`), percent-encoding (`%253C`), `\u003c`,
 *    `\x3c`, CSS `\3c`, `U+003C`;
 *  - spaces, punctuation and symbols between the letters, or between a
 *    bracket and the word, are dropped (`m·e·m`, `m_e`, `< / memories`);
 *    a symbol that may read as a letter (`|`, `!`, `$`) counts either way;
 *  - any angle bracket or look-alike (`‹ « 〈 ⟨ 《 ≪ ᐸ …`) reads as `<` or `>`.
 *
 * A match is a bracket-like character directly before the word (an opener:
 * `<memories`, `</memories`) or directly after it (a closer: `memories>`).
 * What comes back are the source ranges of those brackets, so the caller can
 * defuse exactly them and leave every other character as it was.
 */
export interface DelimiterBracket {
  kind: "open" | "close";
  /** UTF-16 range in the text given, covering the bracket or its whole encoding (`&lt;` is 4 long). */
  start: number;
  end: number;
}

export interface FindOptions {
  /**
   * Also a bracket that could form the delimiter with whatever a string is
   * joined to: an opener followed, up to the end, by nothing or the start of
   * the word (`x <`, `<mem`), a closer preceded, from the start, by nothing or
   * the end of the word (`> y`, `ories>`). Set when escaping one field of a
   * larger text: a pack joins fields with spaces and punctuation, which the
   * skeleton skips, so `<` at the end of one and `memories` at the start of
   * the next would read as one delimiter.
   */
  atEdges?: boolean;
}

export function findDelimiterBrackets(text: string, options: FindOptions = {}): DelimiterBracket[] {
  // No bracket, no delimiter: most stored strings have neither a bracket nor an encoding, and skip the work.
  if (!MAY_HOLD_BRACKET.test(text)) return [];
  const tokens = decodeAll(tokenize(text, 0, text.length));
  const kept: Token[] = [];
  let skeleton = "";
  for (const t of tokens) {
    const c = classify(t.c);
    if (c === "") continue;
    kept.push(t);
    skeleton += c;
  }
  const found: DelimiterBracket[] = [];
  for (const m of skeleton.matchAll(OPENS)) found.push({ kind: "open", start: kept[m.index]!.s, end: kept[m.index]!.e });
  for (const m of skeleton.matchAll(CLOSES)) found.push({ kind: "close", start: kept[m.index]!.s, end: kept[m.index]!.e });
  if (options.atEdges) {
    const open = OPENS_AT_END.exec(skeleton);
    if (open) found.push({ kind: "open", start: kept[open.index]!.s, end: kept[open.index]!.e });
    const close = CLOSES_AT_START.exec(skeleton);
    if (close) found.push({ kind: "close", start: kept[close.index]!.s, end: kept[close.index]!.e });
  }
  return found.sort((a, b) => a.start - b.start);
}

/** The skeleton the matching runs on (for tests and for reading a failure): letters, `<`, `>`, `#` for any other letter or digit. */
export function delimiterSkeleton(text: string): string {
  return decodeAll(tokenize(text, 0, text.length)).map((t) => classify(t.c)).join("");
}

/** One skeleton character and the source range it was read from. */
interface Token {
  c: string;
  s: number;
  e: number;
}

const OPENERS = new Set("<‹«〈⟨❬❮❰⧼˂ᐸ《⟪≪⦑⧀≺⊰ᑉ");
const CLOSERS = new Set(">›»〉⟩❭❯❱⧽˃ᐳ》⟫≫⦒⧁≻⊱ᑊ");
// `≮ ≯ ⊀ ⊁` decompose to a bracket and a combining mark; `& % \ +` start an encoding. A test checks every code point against this.
const MAY_HOLD_BRACKET = new RegExp(`[${[...OPENERS, ...CLOSERS].join("")}≮≯⊀⊁&%\\\\+]`, "u");

const MARKS = /\p{M}/gu;
const baseCache = new Map<string, string>();

/** A code point as it is read: decomposed, marks dropped, lower case (twice: lower-casing `İ` adds a mark). */
function base(ch: string): string {
  let b = baseCache.get(ch);
  if (b === undefined) {
    b = ch.normalize("NFKD").replace(MARKS, "").toLowerCase().normalize("NFKD").replace(MARKS, "");
    if (baseCache.size < 10_000) baseCache.set(ch, b);
  }
  return b;
}

/** Letters that read as one of the delimiter's (after NFKD, marks dropped, lower case). */
const LOOKS_LIKE: Record<string, string> = {
  m: "мᴍᎷꓟμɱ",
  e: "еєэεᴇɛҽꓰᎬ℮3",
  o: "оοσᴏօøɵꓳ߀०০੦૦๐໐0",
  r: "гᴦʀɾɼɽᎡꓣ",
  i: "іıιӏɪɩǀꓲᎥl1",
  s: "ѕꜱʂꓢᏚ5",
};
/** Symbols that may read as a letter, or as the separator they are: either reading is tried. */
const SYMBOL_LOOKS_LIKE: Record<string, string> = {
  e: "€",
  o: "°○◦",
  i: "!|¡∣│׀",
  s: "$",
};
const LETTER_OF = new Map<string, string>();
// Keyed by what the character reads as after base(): Cherokee capitals, for one, lower-case to other code points.
for (const [letter, chars] of Object.entries(LOOKS_LIKE)) for (const ch of chars) LETTER_OF.set(base(ch), letter);
for (const [letter, chars] of Object.entries(SYMBOL_LOOKS_LIKE)) for (const ch of chars) LETTER_OF.set(base(ch), letter.toUpperCase());

const WORD = [..."memories"].map((ch) => `[${ch}${ch.toUpperCase()}]`).join("[A-Z]*");
const OPENS = new RegExp(`<(?=[A-Z]*${WORD})`, "g");
const CLOSES = new RegExp(`(?<=${WORD}[A-Z]*)>`, "g");
const letters = (word: string) => [...word].map((ch) => `[${ch}${ch.toUpperCase()}][A-Z]*`).join("");
const PREFIXES = Array.from({ length: 8 }, (_, n) => letters("memories".slice(0, n))).join("|");
const SUFFIXES = Array.from({ length: 8 }, (_, n) => letters("memories".slice(8 - n))).join("|");
const OPENS_AT_END = new RegExp(`<(?=[A-Z]*(?:${PREFIXES})$)`);
const CLOSES_AT_START = new RegExp(`(?<=^[A-Z]*(?:${SUFFIXES}))>`);

/**
 * A skeleton character: a-z for a letter (or a digit read as one), A-Z for a
 * symbol that may read as a letter, `#` for any other letter or digit (it
 * breaks the word), `<`/`>`, or "" for what a reader skips over (spaces,
 * punctuation, symbols, unassigned and private-use characters).
 */
function classify(c: string): string {
  const mapped = LETTER_OF.get(c);
  if (mapped) return mapped;
  if (c >= "a" && c <= "z") return c;
  if (OPENERS.has(c)) return "<";
  if (CLOSERS.has(c)) return ">";
  return /[\p{L}\p{N}]/u.test(c) ? "#" : "";
}

function tokenize(text: string, s: number, e: number, into: Token[] = []): Token[] {
  for (let i = s; i < e; ) {
    const cp = text.codePointAt(i)!;
    const len = cp > 0xffff ? 2 : 1;
    for (const c of base(String.fromCodePoint(cp))) into.push({ c, s: i, e: i + len });
    i += len;
  }
  return into;
}

/** Deeper than any reader decodes; bounds the work on a hostile string. */
const MAX_LAYERS = 64;

function decodeAll(tokens: Token[]): Token[] {
  for (let layer = 0; layer < MAX_LAYERS; layer++) {
    const next = decodeLayer(tokens);
    if (next === null) return tokens;
    tokens = next;
  }
  return tokens;
}

const DECODABLE = new RegExp(
  [
    "&#x([0-9a-f]{1,6});?",
    "&#([0-9]{1,7});?",
    // At the end of the text the semicolon may come from what follows (a pack's "; ").
    "&([a-z][a-z0-9]{0,31})(?:;|$)",
    // Legacy entities browsers read without the semicolon.
    "&(lt|gt|amp|laquo|raquo)",
    // One percent-encoded character: an ASCII byte or one whole UTF-8 sequence.
    "(%[0-7][0-9a-f]|%[cd][0-9a-f]%[89ab][0-9a-f]|%e[0-9a-f](?:%[89ab][0-9a-f]){2}|%f[0-7](?:%[89ab][0-9a-f]){3})",
    "\\\\u\\{([0-9a-f]{1,6})\\}",
    "\\\\u([0-9a-f]{4})",
    "\\\\x([0-9a-f]{2})",
    "\\\\([0-9a-f]{1,6}) ?",
    "u\\+([0-9a-f]{4,6})",
  ].join("|"),
  "g",
);
const CODE_POINT_GROUPS: Record<number, number> = { 1: 16, 2: 10, 6: 16, 7: 16, 8: 16, 9: 16, 10: 16 };

/** HTML names a disguise would use; any other `&name;` reads as a separator. */
const NAMED: Record<string, string> = {
  lt: "<", gt: ">", lang: "⟨", rang: "⟩", langle: "⟨", rangle: "⟩", leftanglebracket: "⟨", rightanglebracket: "⟩",
  laquo: "«", raquo: "»", lsaquo: "‹", rsaquo: "›", amp: "&", percnt: "%", bsol: "\\", plus: "+", num: "#",
  imath: "ı", inodot: "ı", mu: "μ", epsi: "ε", epsilon: "ε", omicron: "ο", iota: "ι", sigma: "σ", oslash: "ø",
};
// `&egrave;`, `&Iuml;`, `&mopf;` (𝕞), `&sscr;`: a letter with an accent or in a mathematical style.
const NAMED_LETTER = /^([a-z])(grave|acute|circ|tilde|uml|ring|cedil|caron|dot|macr|breve|ogon|opf|scr|fr)$/;

function decodeLayer(tokens: Token[]): Token[] | null {
  // Astral characters take one unit here, so string indices stay token indices; no encoding contains one.
  const str = tokens.map((t) => (t.c.length === 1 ? t.c : "\uE000")).join("");
  let out: Token[] | null = null;
  let copied = 0;
  for (const m of str.matchAll(DECODABLE)) {
    const decoded = decodeMatch(m);
    if (decoded === null) continue;
    out ??= [];
    for (let i = copied; i < m.index; i++) out.push(tokens[i]!);
    const s = tokens[m.index]!.s;
    const e = tokens[m.index + m[0].length - 1]!.e;
    for (const c of base(decoded)) out.push({ c, s, e });
    copied = m.index + m[0].length;
  }
  if (out === null) return null;
  for (let i = copied; i < tokens.length; i++) out.push(tokens[i]!);
  return out;
}

function decodeMatch(m: RegExpMatchArray): string | null {
  for (const [group, radix] of Object.entries(CODE_POINT_GROUPS)) {
    const digits = m[Number(group)];
    if (digits !== undefined) return fromCodePoint(parseInt(digits, radix));
  }
  const name = m[3] ?? m[4];
  if (name !== undefined) return NAMED[name] ?? NAMED_LETTER.exec(name)?.[1] ?? " ";
  if (m[5] !== undefined) {
    try {
      return decodeURIComponent(m[5]);
    } catch {
      return null;
    }
  }
  return null;
}

function fromCodePoint(cp: number): string | null {
  if (!Number.isFinite(cp) || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return null;
  return String.fromCodePoint(cp);
}
