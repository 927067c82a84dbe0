// o200k_base is the GPT-4o / GPT-4.1 tokenizer, the backbones the paper
// reports; imported by path so the count does not depend on the package's
// default encoding.
import { countTokens as countO200k } from "gpt-tokenizer/encoding/o200k_base";

// The library throws on text that contains "<|endoftext|>" and the like by
// default; conversation data may quote such strings, and for a budget count
// they are just text.
const NO_SPECIAL_TOKENS = { disallowedSpecial: new Set<string>() };

/** Number of o200k_base (GPT-4o) tokens in `text`, with no chat framing. */
export function countTokens(text: string): number {
  return countO200k(text, NO_SPECIAL_TOKENS);
}
