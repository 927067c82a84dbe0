import { test } from "node:test";
import assert from "node:assert/strict";
import { readUseLiteFiles } from "./read-use-lite-files.js";
import { createUseLiteTokenizer } from "./use-lite-tokenizer.js";

interface PackageModel {
  tokenizer: { encode(text: string): number[] };
}

// The package's own tokenizer, the reference: its class is not exported, but
// the model wrapper builds one from a vocabulary and needs no graph for it.
async function packageTokenizer(vocabulary: unknown): Promise<PackageModel["tokenizer"]> {
  const { EmbeddingsModel } = (await import("@energetic-ai/embeddings")) as unknown as { EmbeddingsModel: new (data: unknown) => PackageModel };
  return new EmbeddingsModel({ vocabulary, model: null }).tokenizer;
}

const FIXED = [
  "",
  " ",
  "  two  spaces  ",
  "Caroline went to a LGBTQ support group yesterday (7 May 2023).",
  "I ran my second half marathon in Sentosa — it was so hot!",
  "Ｆｕｌｌｗｉｄｔｈ and ﬁ ligatures (NFKC)",
  "naïve café, crème brûlée; São Paulo; Zürich",
  "emoji 😀😀 in a row ✨ and a snowman ☃",
  "中文字符和日本語のテキスト",
  "unknown \u0300 combining and \u{1F9EA} astral",
  "tabs\tand\nnewlines\r\nstay",
  "a".repeat(300),
  // Spelled like the reserved entries, which are never matched.
  "<s>",
  "</s> and extra_token_id_1",
];

test("use-lite tokenizer: the package's ids on fixed texts and 400 random ones", async () => {
  const { vocabulary } = readUseLiteFiles();
  const ours = createUseLiteTokenizer(vocabulary);
  const theirs = await packageTokenizer(vocabulary);
  for (const text of FIXED) assert.deepEqual(ours.encode(text), theirs.encode(text), JSON.stringify(text));
  // Random texts from vocabulary pieces, spaces, punctuation and symbols the vocabulary lacks.
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const extras = [" ", " ", ",", ".", "!", "?", "'", "😀", "ß", "é", "\u0301", "漢", "\u{1D400}", "  ", "-", "1999"];
  for (let t = 0; t < 400; t++) {
    const parts: string[] = [];
    const length = 1 + Math.floor(next() * 40);
    for (let p = 0; p < length; p++) {
      parts.push(next() < 0.7 ? vocabulary[6 + Math.floor(next() * (vocabulary.length - 6))]![0].replace(/\u2581/g, " ") : extras[Math.floor(next() * extras.length)]!);
    }
    const text = parts.join("");
    assert.deepEqual(ours.encode(text), theirs.encode(text), JSON.stringify(text));
  }
});

test("use-lite tokenizer: a long text gives the package's ids (the walk is linear, not a copy per position)", async () => {
  const { vocabulary } = readUseLiteFiles();
  const ours = createUseLiteTokenizer(vocabulary);
  const theirs = await packageTokenizer(vocabulary);
  const text = Array.from({ length: 200 }, (_, i) => `Sentence ${i} talks about the trip to Lisbon and the museum we visited.`).join(" ");
  const ids = ours.encode(text);
  assert.ok(ids.length > 2000, `${ids.length} ids`);
  assert.deepEqual(ids, theirs.encode(text));
});

test("use-lite tokenizer: the first 128 ids of a long text, found from a prefix, are the whole text's", async () => {
  const { vocabulary } = readUseLiteFiles();
  const ours = createUseLiteTokenizer(vocabulary);
  const theirs = await packageTokenizer(vocabulary);
  const words = ["walk", "😀😀", "Zürich", "unknown☃☃", "marathon", "—", "a", "naïve", "\u{1D400}x", "extraordinarily"];
  let seed = 11;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const texts = [
    // Long enough to be cut, with unknown symbols and emoji on both sides of any cut.
    ...Array.from({ length: 6 }, () => Array.from({ length: 1500 }, () => words[Math.floor(next() * words.length)]!).join(next() < 0.5 ? " " : "  ")),
    // No space after the prefix: nothing to cut at, the whole text decides.
    `${"word ".repeat(900)}${"x".repeat(3000)}`,
    // Few ids per symbol: a cut prefix holds too few ids, the whole text decides.
    `${"😀".repeat(5000)} tail`,
  ];
  for (const text of texts) {
    const expected = theirs.encode(text).slice(0, 128);
    assert.deepEqual(ours.encode(text, 128), expected);
    assert.deepEqual(ours.encode(text).slice(0, 128), expected);
  }
});
