/**
 * Questions whose answer gathers evidence from several episodes: counts and
 * totals ("how many", "in total"), every occurrence ("each time", "all the"),
 * comparisons and orderings of two events ("which … first", "between … and").
 * Their evidence is spread over sessions, so retrieval must not spend the
 * whole budget on the one episode the query hits hardest. A cue, never a
 * condition: it rules nothing out.
 */
const AGGREGATE_CUES: RegExp[] = [
  /\bhow many\b/i,
  /\b(in )?total\b/i,
  /\baltogether\b/i,
  /\bcombined\b/i,
  /\ball (the|of)\b/i,
  /\b(each|every) time\b/i,
  /\bboth\b/i,
  /\bbetween\b[^?]*\band\b/i,
  /\baverage\b/i,
  /\bhow often\b/i,
  /\bdifferent\b/i,
  /\bin common\b/i,
  /\bwhich\b[^?]*\b(first|earlier|later|last)\b/i,
  /\b(first|earlier|later)\b[^?]*\bor\b/i,
];

/** The query text that marks it as gathering evidence from several episodes, or null. */
export function findAggregateCue(query: string): string | null {
  for (const cue of AGGREGATE_CUES) {
    const m = cue.exec(query);
    if (m) return m[0];
  }
  return null;
}
