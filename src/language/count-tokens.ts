import { createRequire } from "node:module";

// o200k_base is the GPT-4o / GPT-4.1 tokenizer, the backbones the paper
// reports; loaded by path so the count does not depend on the package's
// default encoding.
//
// Loaded on the first count, not on import: reading its merge table is about
// half a second, which every process that imports the library paid (a CLI
// command that never renders an evidence pack, each test file) whether it
// counted a token or not. The package's CommonJS build is the same code as
// its ES module build; require() keeps the count synchronous.
type CountO200k = (text: string, options: { disallowedSpecial: Set<string> }) => number;
let countO200k: CountO200k | null = null;

// The library throws on text that contains "<|endoftext|>" and the like by
// default; conversation data may quote such strings, and for a budget count
// they are just text.
const NO_SPECIAL_TOKENS = { disallowedSpecial: new Set<string>() };

/** Number of o200k_base (GPT-4o) tokens in `text`, with no chat framing. */
export function countTokens(text: string): number {
  countO200k ??= (createRequire(import.meta.url)("gpt-tokenizer/encoding/o200k_base") as { countTokens: CountO200k }).countTokens;
  return countO200k(text, NO_SPECIAL_TOKENS);
}
