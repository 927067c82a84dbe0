/**
 * Rewrites first-person references to the speaker's name, so that a unit read
 * on its own still says who did what ("I went" → "Caroline went").
 *
 * Only forms whose rewrite keeps the sentence grammatical are touched
 * (contractions and the be/have/will/would auxiliaries, possessives, "I"
 * before a past-tense-looking verb, "me" as an object). And a rewrite is all
 * or nothing per turn: if any "I" or "myself" is left that cannot be
 * rewritten ("I love it", "so I quit"), the turn keeps its own words — a half
 * rewrite ("Jon started nursing school, so I quit the roastery") reads as two
 * people. The unit is speaker-attributed either way.
 */
const REWRITES: Array<[RegExp, (s: string) => string]> = [
  [/\bI'm\b|\bI am\b/g, (s) => `${s} is`],
  [/\bI've\b|\bI have\b/g, (s) => `${s} has`],
  [/\bI'll\b|\bI will\b/g, (s) => `${s} will`],
  // "I'd been", "I'd finished": had; otherwise "I'd" is "I would".
  [/\bI'd (?=been\b|\w+ed\b|gone\b|done\b|seen\b|had\b|known\b|never\b|already\b|just\b)/g, (s) => `${s} had `],
  [/\bI'd\b|\bI would\b/g, (s) => `${s} would`],
  [/\bI was\b/g, (s) => `${s} was`],
  [/\bI (\w+ed|went|got|saw|made|took|had|did|found|felt|met|ran|gave|bought|came|began|started|tried|won|lost|left|heard|read|wrote|said|thought|knew|became|joined|visited|painted|kept|built|spent|taught|told|put|sold|drove|flew|swam|can|could|should|might|must)\b/g, (s) => `${s} $1`],
  [/\b[Mm]y\b/g, (s) => `${s}'s`],
  [/\bmine\b/g, (s) => `${s}'s`],
  [/\bme\b/g, (s) => s],
];

/** First-person words no rule above can rewrite grammatically. */
const LEFT_OVER = /\bI\b|\bI'[a-z]+\b|\bmyself\b/;

export function resolveFirstPerson(text: string, speaker: string): string {
  let out = text;
  for (const [pattern, replace] of REWRITES) {
    out = out.replace(pattern, (_m, ...groups) => {
      const verb = typeof groups[0] === "string" ? groups[0] : "";
      return replace(speaker).replace("$1", verb);
    });
  }
  return LEFT_OVER.test(out) ? text : out;
}
