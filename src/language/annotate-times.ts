import { describeInterval, type MentionedTime } from "../model/time.js";

/**
 * "I went yesterday" → "I went yesterday (7 May 2023)": each relative time
 * expression the text mentions, resolved in place, so the words stay true
 * when read later. Absolute dates are left alone: they already say when.
 */
export function annotateTimes(text: string, mentionedTimes: readonly MentionedTime[]): string {
  let out = text;
  for (const m of mentionedTimes) {
    if (m.kind !== "relative") continue;
    const at = out.indexOf(m.text);
    if (at >= 0) out = `${out.slice(0, at + m.text.length)} (${describeInterval(m.interval)})${out.slice(at + m.text.length)}`;
  }
  return out;
}
