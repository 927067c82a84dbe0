/**
 * USE-lite's sentencepiece tokenizer, the one in @energetic-ai/embeddings
 * (lib/tokenizer.ts, Apache-2.0, itself from tfjs-models), rewritten to run in
 * linear time. The package's version copies the rest of the text at every
 * position (`symbols.slice(i)`) to look up the pieces starting there, which
 * is quadratic in the text: on LongMemEval's assistant turns (~1,000
 * characters) it took 40–54 % of embedding once the graph ran natively. This
 * one walks the same trie from an offset and keeps every rule of the
 * original, quirks included, so the ids are the package's ids
 * (use-lite-tokenizer.test.ts compares them):
 * - NFKC, then "▁" before the text and in place of every space;
 * - the first 6 vocabulary entries are reserved and never matched;
 * - a position no piece starts at yields the unknown piece (id 0, score 0,
 *   one symbol), and runs of unknown pieces collapse to one;
 * - the best segmentation maximises the summed score; ties go to the piece
 *   seen last (pieces ending at a position are visited by start, ascending);
 *   a score of exactly 0 counts as "not reached yet";
 * - the walk back steps by the piece's length in UTF-16 units, as the
 *   original does, while the walk forward counts code points.
 */

export type UseLiteVocabulary = ReadonlyArray<readonly [string, number]>;

export interface UseLiteTokenizer {
  /**
   * The text's ids; with `maxTokens`, its first `maxTokens` ids, which on a
   * long text are found from a prefix (see PREFIX_SYMBOLS) instead of the
   * whole text — the same ids.
   */
  encode(text: string, maxTokens?: number): number[];
}

const SEPARATOR = "\u2581";
const RESERVED_SYMBOLS = 6;

interface TrieNode {
  children: Map<string, TrieNode>;
  /** The vocabulary id of the piece ending here, or -1. */
  id: number;
  score: number;
  /** The piece's length in code points. */
  symbols: number;
}

const newNode = (): TrieNode => ({ children: new Map(), id: -1, score: 0, symbols: 0 });

/**
 * A long text's first ids come from its first ~PREFIX_SYMBOLS symbols, cut
 * just before a "▁". That gives the ids the whole text would, when the
 * vocabulary is such that no piece holds "▁" past its first symbol (so every
 * segmentation has a boundary before each "▁" and the best path up to it is
 * the prefix's own), "▁" alone is a piece (so the piece at the cut is never
 * the unknown one, and no run of unknowns is merged across it), and no piece
 * holds an astral character (so the walk back, which steps by UTF-16 length,
 * lands on the cut). USE-lite's vocabulary is; the tokenizer checks it once.
 * Without the cut a 1 MB text took 0.8 s and ~360 MB of heap to tokenize,
 * for the 128 ids the graph reads.
 */
const PREFIX_SYMBOLS = 4096;

export function createUseLiteTokenizer(vocabulary: UseLiteVocabulary): UseLiteTokenizer {
  const root = newNode();
  for (let id = RESERVED_SYMBOLS; id < vocabulary.length; id++) {
    const [piece, score] = vocabulary[id]!;
    let node = root;
    let symbols = 0;
    for (const symbol of piece) {
      let child = node.children.get(symbol);
      if (!child) node.children.set(symbol, (child = newNode()));
      node = child;
      symbols++;
    }
    // A later duplicate overwrites an earlier one, as in the original trie.
    node.id = id;
    node.score = score;
    node.symbols = symbols;
  }

  const cutsAtSeparators =
    (root.children.get(SEPARATOR)?.id ?? -1) >= 0 &&
    vocabulary.slice(RESERVED_SYMBOLS).every(([piece]) => !piece.slice(1).includes(SEPARATOR) && Array.from(piece).length === piece.length);

  const segment = (symbols: readonly string[]): number[] => {
    const n = symbols.length;
    // Pieces ending at each position, in the order the original visits them.
    const endingAt: Array<Array<{ start: number; id: number; score: number }>> = Array.from({ length: n + 1 }, () => []);
    for (let start = 0; start < n; start++) {
      let node = root.children.get(symbols[start]!);
      let matched = false;
      for (let i = start; i < n && node; i++) {
        if (node.id >= 0) {
          endingAt[start + node.symbols]!.push({ start, id: node.id, score: node.score });
          matched = true;
        }
        node = i + 1 < n ? node.children.get(symbols[i + 1]!) : undefined;
      }
      if (!matched) endingAt[start + 1]!.push({ start, id: 0, score: 0 });
    }
    const best = new Float64Array(n + 1);
    const words = new Int32Array(n + 1);
    for (let end = 0; end <= n; end++) {
      const pieces = endingAt[end]!;
      // The original keys pieces by start in an object and walks its keys,
      // which come out in ascending numeric order; pushes above are already
      // in that order, and one start has at most one piece per end.
      for (const piece of pieces) {
        const score = piece.score + best[piece.start]!;
        if (best[end] === 0 || score >= best[end]!) {
          best[end] = score;
          words[end] = piece.id;
        }
      }
    }
    const reversed: number[] = [];
    for (let at = n; at > 0; at -= vocabulary[words[at]!]![0].length) reversed.push(words[at]!);
    const ids: number[] = [];
    let previousUnknown = false;
    for (const id of reversed) {
      if (!(previousUnknown && id === 0)) ids.push(id);
      previousUnknown = id === 0;
    }
    return ids.reverse();
  };

  return {
    encode(text: string, maxTokens?: number): number[] {
      const normalized = text.normalize("NFKC");
      const input = normalized.length > 0 ? SEPARATOR + normalized.replace(/ /g, SEPARATOR) : normalized;
      const symbols = Array.from(input);
      if (maxTokens !== undefined && cutsAtSeparators && symbols.length > PREFIX_SYMBOLS) {
        const cut = symbols.indexOf(SEPARATOR, PREFIX_SYMBOLS);
        if (cut > 0) {
          const ids = segment(symbols.slice(0, cut));
          // A prefix this long nearly always holds enough ids; when not, the whole text decides.
          if (ids.length >= maxTokens) return ids.slice(0, maxTokens);
        }
      }
      const ids = segment(symbols);
      return maxTokens === undefined ? ids : ids.slice(0, maxTokens);
    },
  };
}
