/** Patterns the state rules share (extract-open-states.ts, extract-others-states.ts). */

/** A count as people say it: "4", "four", "a dozen", "a few". */
export const NUMBER = "(?:\\d[\\d,.]*|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|a hundred|a dozen|a couple(?: of)?|a few|several)";

/** Numbers people write as words, and their values (extract-states.ts reads counts by them; the abstain judgment writes quantities with them). */
export const NUMBER_WORD_VALUES: Readonly<Record<string, number>> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12, thirteen: 13,
  fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19, twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60,
  seventy: 70, eighty: 80, ninety: 90, hundred: 100,
};

/** How long something has lasted: "6 months", "the past six months", "about a year". */
export const DURATION = `(?:(?:the )?(?:past|last|first) )?(?:about |around |over |nearly |almost |exactly |roughly |more than |less than )?(?:${NUMBER}|a|an) (?:and a half )?(?:days?|weeks?|months?|years?|hours?)`;

/** Relations a speaker names people by. Plural ones ("my parents") are one subject. */
export const RELATION =
  "(?:older |younger |little |big |baby |best |eldest |oldest |youngest |twin |step)?(sister|brother|mom|mum|mother|dad|father|parents|son|daughter|wife|husband|partner|boyfriend|girlfriend|friend|cousin|aunt|uncle|grandma|grandmother|grandpa|grandfather|niece|nephew|boss|manager|roommate|flatmate|neighbou?r|colleague|coworker|co-worker|fianc[ée]e?|kids|children|in-laws)";

/**
 * Kin a speaker calls by the word alone, in English or in the family's own
 * language ("Oma moved into a care home", "Pappa is retiring in December"),
 * and the relation each names: "my grandmother" asks of whom the statements
 * call "Oma" or "Nan".
 */
export const KIN_WORDS: Readonly<Record<string, string>> = {
  dad: "father", daddy: "father", papa: "father", pappa: "father",
  mum: "mother", mom: "mother", mam: "mother", mummy: "mother", mommy: "mother", mama: "mother", mamma: "mother",
  grandad: "grandfather", granddad: "grandfather", grandpa: "grandfather", opa: "grandfather", nonno: "grandfather", abuelo: "grandfather", dziadek: "grandfather", morfar: "grandfather", farfar: "grandfather",
  grandma: "grandmother", granny: "grandmother", gran: "grandmother", nan: "grandmother", nana: "grandmother", oma: "grandmother", nonna: "grandmother", abuela: "grandmother", babcia: "grandmother", mormor: "grandmother", farmor: "grandmother",
};

/** A counted thing, one group: a plural, regular or not ("beehives", "grandchildren", "people"). */
export const PLURAL = "([a-z]+s|[a-z]*children|[a-z]*people|[a-z]*men|geese|mice|sheep|fish|deer|teeth|feet)";
