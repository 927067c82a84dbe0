/**
 * Rewrites first-person references to the speaker's name, so that a unit read
 * on its own still says who did what ("I went" → "Caroline went").
 *
 * Only the forms whose rewrite keeps the sentence grammatical are touched
 * (contractions and the be/have/will/would auxiliaries, possessives, "I" before
 * a past-tense-looking verb). Present-tense "I love" stays, because
 * "Caroline love" reads wrong and the unit is already speaker-attributed.
 */
const REWRITES: Array<[RegExp, (s: string) => string]> = [
  [/\bI'm\b|\bI am\b/g, (s) => `${s} is`],
  [/\bI've\b|\bI have\b/g, (s) => `${s} has`],
  [/\bI'll\b|\bI will\b/g, (s) => `${s} will`],
  [/\bI'd\b|\bI would\b/g, (s) => `${s} would`],
  [/\bI was\b/g, (s) => `${s} was`],
  [/\bI (\w+ed|went|got|saw|made|took|had|did|found|felt|met|ran|gave|bought|came|began|started|tried|won|lost|left|heard|read|wrote|said|thought|knew|became|joined|visited|painted|kept|built|spent|taught|told|put|sold|drove|flew|swam)\b/g, (s) => `${s} $1`],
  [/\b[Mm]y\b/g, (s) => `${s}'s`],
  [/\bmine\b/g, (s) => `${s}'s`],
];

export function resolveFirstPerson(text: string, speaker: string): string {
  let out = text;
  for (const [pattern, replace] of REWRITES) {
    out = out.replace(pattern, (_m, ...groups) => {
      const verb = typeof groups[0] === "string" ? groups[0] : "";
      return replace(speaker).replace("$1", verb);
    });
  }
  return out;
}
