import { stemmer } from "stemmer";

// Python's string.punctuation: the official code strips ASCII punctuation
// only, so curly quotes and dashes survive normalisation there and here.
const ASCII_PUNCTUATION = new Set("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~");
// Python's `regex` treats \b as Unicode-aware; JS \b is ASCII-only even with
// /u, so word boundaries are spelled out with Unicode classes.
const ARTICLES = /(?<![\p{L}\p{N}\p{M}_])(?:a|an|the|and)(?![\p{L}\p{N}\p{M}_])/gu;
// Python's str.split() also splits on these, which \s does not cover.
const PY_WHITESPACE = /[\s\x1c-\x1f\x85]+/u;

function pySplit(text: string): string[] {
  return text.split(PY_WHITESPACE).filter((t) => t.length > 0);
}

/** Official `normalize_answer`: commas go first, then lower → punctuation → articles → whitespace. */
function normalizeLocomo(s: string): string {
  const noCommas = s.replaceAll(",", "");
  const lowered = noCommas.toLowerCase();
  let noPunct = "";
  for (const ch of lowered) if (!ASCII_PUNCTUATION.has(ch)) noPunct += ch;
  return pySplit(noPunct.replace(ARTICLES, " ")).join(" ");
}

/**
 * Official `f1_score`: stemmed multiset overlap. The `stemmer` package is the
 * original Porter (1980) algorithm, NLTK's PorterStemmer defaults to its
 * NLTK_EXTENSIONS mode; they disagree on a few conflations (e.g. "dying"/"die",
 * "carefully"/"careful"), which can move rare scores slightly.
 */
function locomoTokenF1(prediction: string, gold: string): number {
  const pred = pySplit(normalizeLocomo(prediction)).map((w) => stemmer(w));
  const ref = pySplit(normalizeLocomo(gold)).map((w) => stemmer(w));
  const counts = new Map<string, number>();
  for (const t of ref) counts.set(t, (counts.get(t) ?? 0) + 1);
  let same = 0;
  for (const t of pred) {
    const c = counts.get(t) ?? 0;
    if (c > 0) {
      same++;
      counts.set(t, c - 1);
    }
  }
  if (same === 0) return 0;
  const precision = same / pred.length;
  const recall = same / ref.length;
  return (2 * precision * recall) / (precision + recall);
}

const ADVERSARIAL_PHRASES = ["no information available", "not mentioned"];

/**
 * QA F1 as LoCoMo's task_eval/evaluation.py (`eval_question_answering`)
 * computes it. `gold` may be a number because some LoCoMo answers are JSON
 * numbers, which the official code passes through str(). Category 5 ignores
 * the gold answer and checks for an abstention phrase.
 */
export function officialLocomoF1(prediction: string, gold: string | number, category: number): number {
  const answer = String(gold);
  switch (category) {
    case 1: {
      const preds = prediction.split(",").map((p) => p.trim());
      const golds = answer.split(",").map((g) => g.trim());
      let sum = 0;
      for (const g of golds) sum += Math.max(...preds.map((p) => locomoTokenF1(p, g)));
      return sum / golds.length;
    }
    case 2:
    case 4:
      return locomoTokenF1(prediction, answer);
    case 3:
      return locomoTokenF1(prediction, (answer.split(";")[0] ?? "").trim());
    case 5: {
      const lowered = prediction.toLowerCase();
      return ADVERSARIAL_PHRASES.some((p) => lowered.includes(p)) ? 1 : 0;
    }
    default:
      throw new RangeError(`unknown LoCoMo category ${category}`);
  }
}

function simpleTokens(text: string): Set<string> {
  return new Set(
    text
      .toLowerCase()
      .replace(/[.,!?]/g, " ")
      .split(/\s+/)
      .filter((t) => t.length > 0),
  );
}

/**
 * Token-set F1 of the SimpleMem/Mem0 harness, the one behind the paper's
 * numbers: no stemming, no article removal, repeated tokens count once, same
 * rule for every category. 0 when either side has no tokens (both empty
 * included), as that harness does.
 */
export function simpleMemF1(prediction: string, gold: string | number): number {
  const pred = simpleTokens(prediction);
  const ref = simpleTokens(String(gold));
  if (pred.size === 0 || ref.size === 0) return 0;
  let common = 0;
  for (const t of pred) if (ref.has(t)) common++;
  if (common === 0) return 0;
  const precision = common / pred.size;
  const recall = common / ref.size;
  return (2 * precision * recall) / (precision + recall);
}
