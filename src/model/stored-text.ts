import { z } from "zod";

/**
 * The one rule for every string ramem stores (turn text, speaker, ids,
 * participants, captions, unit content and context): it is text, so no NUL
 * character (PostgreSQL cannot store it, C tools cut at it) and no lone
 * UTF-16 surrogate (no UTF-8 encoding exists for it, so the export and the
 * API's JSON would fail strict parsers such as jq). Such input is refused,
 * naming the field and the position, and nothing is stored; invalid UTF-8
 * bytes are refused where bytes are decoded (util/decode-utf8.ts).
 */
export interface IllFormedText {
  /** 0-based UTF-16 offset of the first offending character. */
  index: number;
  /** What it is, e.g. "a NUL character (U+0000)". */
  what: string;
}

const SUSPECT = /[\u0000\uD800-\uDFFF]/;

export function findIllFormedText(text: string): IllFormedText | null {
  // Almost every string has neither: one regex test, then the walk only for the rest.
  if (!SUSPECT.test(text)) return null;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0) return { index: i, what: "a NUL character (U+0000)" };
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
    }
    if (c >= 0xd800 && c <= 0xdfff) return { index: i, what: `a lone surrogate (U+${c.toString(16).toUpperCase()})` };
  }
  return null;
}

/** The message a refusal carries, the same on every face. */
export function describeIllFormedText(found: IllFormedText): string {
  return `contains ${found.what} at character ${found.index + 1}; stored text must be valid Unicode (no lone surrogates) without NUL characters`;
}

/** The rule as a check on a zod string schema (so every face that validates with zod names the field). */
export function storedText<T extends z.ZodString>(schema: T): T {
  return schema.superRefine((value, ctx) => {
    const found = findIllFormedText(value);
    if (found) ctx.addIssue({ code: "custom", message: describeIllFormedText(found) });
  }) as T;
}

/** A stored string with no other constraint. */
export const StoredText = storedText(z.string());
