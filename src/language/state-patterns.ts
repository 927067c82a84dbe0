/** Patterns the state rules share (extract-open-states.ts, extract-others-states.ts). */

/** A count as people say it: "4", "four", "a dozen", "a few". */
export const NUMBER = "(?:\\d[\\d,.]*|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|a hundred|a dozen|a couple(?: of)?|a few|several)";

/** How long something has lasted: "6 months", "the past six months", "about a year". */
export const DURATION = `(?:(?:the )?(?:past|last|first) )?(?:about |around |over |nearly |almost |exactly |roughly |more than |less than )?(?:${NUMBER}|a|an) (?:and a half )?(?:days?|weeks?|months?|years?|hours?)`;

/** Relations a speaker names people by. Plural ones ("my parents") are one subject. */
export const RELATION =
  "(?:older |younger |little |big |baby |best |eldest |oldest |youngest |twin |step)?(sister|brother|mom|mum|mother|dad|father|parents|son|daughter|wife|husband|partner|boyfriend|girlfriend|friend|cousin|aunt|uncle|grandma|grandmother|grandpa|grandfather|niece|nephew|boss|manager|roommate|flatmate|neighbou?r|colleague|coworker|co-worker|fianc[ée]e?|kids|children|in-laws)";

/** A counted thing, one group: a plural, regular or not ("beehives", "grandchildren", "people"). */
export const PLURAL = "([a-z]+s|[a-z]*children|[a-z]*people|[a-z]*men|geese|mice|sheep|fish|deer|teeth|feet)";
