/**
 * A question about the state that holds now: "where does she live now",
 * "is he still dating Sam", "how many videos have I completed so far", "my
 * most recent trip", "how long have I had my phone?", or a plain
 * present-tense question about a state ("what is his job?"). Such a question
 * is answered by the currently valid statement; a superseded one ("I live in
 * Lisbon" before "I moved to Porto") is history. A question with a past time
 * ("in 2022", "before he moved") asks for the state valid then instead, and
 * has no current-state cue.
 */
const NOW_WORDS = /\b(now|currently|current|still|anymore|any more|these days|nowadays|at the moment|right now|so far|most recent(?:ly)?|latest|at present)\b/i;
const PRESENT_QUESTION = /^\s*(?:where|what|who|which|how many|how much|how long|how often)\b[^?]*?\b(?:do|does|is|are|am|have|has)\b(?![^?]*\b(?:did|was|were|had|ago|last)\b)/i;
const YES_NO_PRESENT = /^\s*(?:do|does|is|are|am|have|has)\s+(?:I|you|he|she|they|we|\p{Lu}\p{Ll}+)\b(?![^?]*\b(?:did|was|were|had|ago|last)\b)/u;

/**
 * "How long have I been using…", "How long has she had…": the present perfect asks for a span that runs up to now,
 * so the newest statement of it holds ("a year into the Kobo now" over "I've been using it for two weeks") as
 * surely as after "now". Not when a clause places the span elsewhere ("…before I started at Google", "…when I
 * moved").
 */
const SPAN_UP_TO_NOW = /^\s*how long\s+(?:have|has)\b(?![^?]*\b(?:before|after|when|until|since|ago)\b)/i;

/**
 * "How many of the modules have I finished?": a part of a known whole, counted in the present perfect, is progress
 * up to now — the newest count holds ("ten done" over "four of the twelve"). A count without "of the" ("how many
 * books have I read?") is as often a sum over many memories, and stays a plain present-tense question.
 */
const PROGRESS_UP_TO_NOW = /^\s*how many of (?:the|my|his|her|their|our|your)\b[^?]*\b(?:have|has)\b(?![^?]*\b(?:before|after|when|until|since|ago|by)\b)/i;

/** The cue of a plain present-tense question: no word of it says "now". */
export const PRESENT_TENSE = "present tense";

const PAST_AUXILIARY = /\b(?:did|was|were|had|used to)\b/i;

export function findCurrentStateCue(query: string, hasPastTime: boolean): string | null {
  if (hasPastTime) return null;
  const now = NOW_WORDS.exec(query);
  if (now) return now[0];
  const span = SPAN_UP_TO_NOW.exec(query);
  if (span) return span[0].trim().toLowerCase();
  if (PROGRESS_UP_TO_NOW.test(query)) return "how many of … have";
  // The auxiliary leads the question capitalised; the pattern reads it in lowercase.
  // A past auxiliary anywhere asks of then: "what car did he have when he lived in Cape Town?"
  if (PAST_AUXILIARY.test(query)) return null;
  const present = PRESENT_QUESTION.exec(query) ?? YES_NO_PRESENT.exec(query.replace(/^\s*\p{Lu}/u, (c) => c.toLowerCase()));
  return present ? PRESENT_TENSE : null;
}
