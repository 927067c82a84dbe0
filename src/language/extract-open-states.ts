/**
 * Open-world states: a statement that gives a value to something of the
 * speaker's, whatever that thing is — a device and how long it has been used
 * ("I've been using my Fitbit Charge 3 for 6 months"), a record ("my 5k
 * personal best is 25:50"), a count or an amount so far ("I've tried four
 * Korean restaurants", "I've saved $4,000 so far", "I've been to the gym
 * three times this week"), a schedule ("my yoga class moved to Thursdays"),
 * a plan or tier ("I upgraded to the family plan"). The slot is the
 * statement's own words for the thing, normalised (attributeOf), and marked
 * `open`: two statements are one key when those words agree (attribute-key.ts).
 *
 * Only what reads as a state: present or perfect tense, or a past verb of
 * progress with a count ("I just completed 50 episodes"). "I ran 5 miles
 * today" is an event, and a plan or a question states nothing.
 */
import nlp from "compromise";
import type { StateStatement } from "../model/memory-unit.js";
import { DURATION, NUMBER, RELATION } from "./state-patterns.js";

const RELATION_WORD = new RegExp(`^${RELATION}$`, "i");

const MONEY = "(?:[$€£]\\s?\\d[\\d,.]*(?:\\s?(?:k|K|million|thousand))?|\\d[\\d,.]*\\s?(?:dollars|euros|pounds|bucks))";
const CLOCK = "(?:\\d{1,2}:\\d{2}(?::\\d{2})?)";
const QUANTITY = `(?:${MONEY}|${CLOCK}|(?:about |around |over |nearly |almost |exactly |roughly |just over |just under )?${NUMBER}(?:\\s?%)?)`;
const UNIT = "(?:days?|weeks?|months?|years?|hours?|minutes?|mins?|seconds?|miles?|km|kilometers?|kilometres?|pounds?|lbs?|kg|kilos?|dozen|times|sessions|pages|reps|sets|steps|cups?|glasses|servings|calories)";
/** A group one belongs to: up to three words before the kind of group ("climbing club", "Tuesday book group"). */
const GROUP = "(?:[\\p{L}\\d'’-]+ ){0,3}?(?:club|group|gym|team|choir|band|society|league|association|circle|committee|crew|orchestra|ensemble)";
/** A title: capitalised words, the small words between them ("The Hidden Life of Trees"). */
const TITLE = "(?:[Tt]he |[Aa]n? )?[A-Z][\\p{L}\\d'’-]*(?: (?:[A-Z][\\p{L}\\d'’-]*|of|the|and|a|in|on|to|for)){0,6}";
/** A day of the week, or several ("Mondays and Thursdays", "Tuesday evenings"). */
const WEEKDAY = "(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day";
const STARTS_WITH_WEEKDAY = new RegExp(`^${WEEKDAY}`, "i");
const DAY = `${WEEKDAY}s?(?: (?:evenings?|mornings?|afternoons?|nights?))?`;
const DAYS = `${DAY}(?:(?:,| and| &|, and) ${DAY})*`;
const ADV = "(?:now |just |already |finally |recently |currently |so far |officially |still |also |actually )*";
/** A thing's words: up to five of them, lowercase or a product's capitalised name ("Fitbit Charge 3"). */
const WORDS = "((?:[\\p{L}\\d][\\p{L}\\d'’&+-]*)(?: [\\p{L}\\d][\\p{L}\\d'’&+-]*){0,5}?)";
const PROGRESS_VERB =
  "(tried|completed|finished|watched|read|visited|seen|done|attended|played|cooked|baked|made|written|sold|collected|run|ran|hiked|climbed|earned|saved|raised|lost|gained|spent|paid|booked|taken|won|logged|knitted|painted|planted|built|published|recorded|reviewed|applied to|submitted|volunteered)";
/** Where a value ends: punctuation (not a clock's colon), a dash, or a word that starts what follows ("…$1,450 a month", "…three so far", "…1:58 from Bath"). */
const END = "(?=[.,!?;)]|:(?!\\d)|$|\\s[-–—(]|\\s(?:so far|now|already|in total|total|this|for|on|at|in|from|since|after|before|during|when|while|thanks|and|but|which|lately|recently|to date|a|an|per|each|every|so|because|right|these|at the moment|by now|yet|last|today|tonight)\\b)";
const PROGRESS_MARKER = /\b(so far|now|already|in total|total|to date|this (?:week|month|year|season|semester)|these past|lately|recently|up to|just)\b/i;

interface OpenRead {
  attribute: string;
  value: string;
  ends?: boolean;
}

interface OpenRule {
  re: RegExp;
  read: (m: RegExpExecArray, sentence: string, before: string) => OpenRead | null;
}

const RULES: OpenRule[] = [
  // "my 5k personal best is 25:50", "my rent is now $1,450", "my yoga class is on Tuesdays", "my personal best time of 25:50"
  {
    re: new RegExp(`\\b(?:[Mm]y|[Oo]ur) (?:new |current |latest |old )?${WORDS} (?:is now|is still|is currently|now is|is|'s|has been|stands at|remains|are|are now) (?:at |up to |down to )?(${QUANTITY}(?: ${UNIT})?|on ${DAYS}|on [\\w ]{2,30}?|[\\p{L}\\d$][\\p{L}\\d'’&$,.+ -]{0,40}?)${END}`, "u"),
    read: (m) => ({ attribute: m[1]!, value: m[2]! }),
  },
  { re: new RegExp(`\\b(?:[Mm]y|[Oo]ur) (?:new |current )?${WORDS} of (${MONEY}|${CLOCK}|\\d[\\d,.]*(?: ${UNIT})?)\\b`, "u"), read: (m) => ({ attribute: m[1]!, value: m[2]! }) },
  // "the Spanish group's still on Wednesdays", "my choir is on Thursday evenings now": a meeting's day (also of "the" thing: the speaker's schedule)
  {
    re: new RegExp(`\\b(?:[Mm]y|[Oo]ur|[Tt]he) ${WORDS}(?:'s| is| are) (?:still |now |always |usually )*(?:on|every) (${DAYS})`, "u"),
    read: (m) => ({ attribute: m[1]!, value: m[2]! }),
  },
  // "my dentist appointment got moved to Thursday at 10am", "my class was changed to Mondays", "the Spanish group has moved to Wednesdays"
  {
    re: new RegExp(`\\b(?:[Mm]y|[Oo]ur|[Tt]he) ${WORDS} (?:got |was |has been |has |is being |is )?(?:moved|changed|switched|pushed|rescheduled|bumped|shifted) (?:back |up )?to (${DAYS}|[\\w: ]{2,40}?)(?=[.,!?;]|\\s(?:and|but|so|because|instead|starting|from)\\b|$)`, "u"),
    // "the …" moved is the speaker's only as a schedule ("the Spanish group has moved to Wednesdays"), not "the bakery moved to Main Street".
    read: (m) => (/^the\b/i.test(m[0]) && !STARTS_WITH_WEEKDAY.test(m[2]!) && !/^\d/.test(m[2]!) ? null : { attribute: m[1]!, value: m[2]! }),
  },
  // "I've been using my Fitbit Charge 3 for 6 months", "I've had my Kindle for two years", "sticking to my routine for 4 weeks now"
  {
    re: new RegExp(`\\b(?:I(?:'ve| have) (?:been )?${ADV})?((?:using|doing|sticking to|following|wearing|driving|riding|playing|learning|practicing|practising|taking|running|attending|training|studying|working on|working at|volunteering at|going to|had|owned|used|known|kept) (?:my |the |a |an |our )?${WORDS}) for (${DURATION})`, "u"),
    read: (m) => ({ attribute: m[1]!, value: m[3]! }),
  },
  // "for sticking to my daily tidying routine - it's already been 3 weeks!"
  {
    re: new RegExp(`\\b((?:using|doing|sticking to|following|wearing|learning|practicing|practising|taking|attending|training for|studying|working on) (?:my |the |a |an |our )?${WORDS})\\s?[-–—,:;]+\\s?it(?:'s| has| is) (?:already |now |officially |been )*(?:been )?(${DURATION})`, "u"),
    read: (m) => ({ attribute: m[1]!, value: m[3]! }),
  },
  // "I've tried four different ones so far", "I've completed 30 videos", "I've saved $4,000", "I just completed 50 episodes"
  {
    re: new RegExp(`\\bI(?:'ve| have)? ${ADV}${PROGRESS_VERB} (?:a total of |about |over |around |exactly |nearly |almost )?(${QUANTITY})(?: (?:different|new|more|other|separate|whole|full|entire))?(?: (?!(?:so far|now|already|in total|this|lately|recently|to date|and|but|at|in|on|for|from|with|to|by)\\b)${WORDS})?${END}`, "iu"),
    read: (m, sentence) => {
      const perfect = /\bI(?:'ve| have)\b/i.test(m[0]);
      const money = new RegExp(`^${MONEY}$`, "u").test(m[2]!);
      if (!perfect && !money && !PROGRESS_MARKER.test(sentence)) return null;
      const thing = m[3] ?? "";
      return { attribute: `${thing} ${m[1]!.toLowerCase()}${placeAfter(sentence, m)}`.trim(), value: m[2]! };
    },
  },
  // "we've got 20 dozen stocked up in the fridge right now", "I have 14 plants at home now": a count held now
  {
    re: new RegExp(`\\b(?:I|[Ww]e)(?:'ve got| have got|'ve| have| own| keep| still have) ${ADV}(?:got )?(${QUANTITY})(?: (${UNIT}))?(?: (?:of )?(?!(?:${UNIT}|stocked|stored|left|saved|sitting|lined|ready|set|up|in|at|on|so far|now|right|at the moment|this|and|but)\\b)${WORDS})?(?:${END}|(?=\\s(?:stocked|stored|left|sitting|saved|waiting)\\b))`, "u"),
    read: (m, sentence, before) => {
      const rest = sentence.slice(m.index + m[0].length);
      if (!HELD_NOW.test(rest) && !HELD_NOW.test(m[0])) return null;
      const thing = m[3] ?? countedNoun(before + " " + sentence.slice(0, m.index));
      return thing ? { attribute: thing, value: m[2] ? `${m[1]} ${m[2]}` : m[1]! } : null;
    },
  },
  // "we have a lot stocked up in the fridge - 30 dozen at the moment!": the count told after a dash, of the thing before it
  {
    re: new RegExp(`\\s[-–—:]\\s*(?:about |around |exactly |just |over )?(${NUMBER}|\\d[\\d,.]*)(?: (${UNIT}))? (?:at the moment|right now|currently|now|so far|in total|and counting)\\b`, "u"),
    read: (m, sentence, before) => {
      const thing = countedNoun(before + " " + sentence.slice(0, m.index));
      return thing ? { attribute: thing, value: m[2] ? `${m[1]} ${m[2]}` : m[1]! } : null;
    },
  },
  // "I got pre-approved for $350,000 from Wells Fargo", "I was quoted $1,200 for the repair": an amount granted or asked of one
  {
    re: new RegExp(`\\bI (?:got|was|have been|'ve been|had been|just got) ${ADV}((?:pre-)?(?:approved|quoted|offered|charged|billed|fined|reimbursed|awarded|granted|refunded|paid|owed))(?: for| an?| a total of)? (${MONEY})`, "u"),
    read: (m, sentence) => ({ attribute: `${m[1]}${placeAfter(sentence, m)}`, value: m[2]! }),
  },
  // "I've been to the gym three times this week"
  {
    re: new RegExp(`\\bI(?:'ve| have) ${ADV}been to (?:the |my )?${WORDS} (${NUMBER}|once|twice) times?\\b`, "iu"),
    read: (m) => ({ attribute: `visits to ${m[1]!}`, value: m[2]! }),
  },
  // "I'm currently on episode 10 of the Science series", "I'm on chapter 12"
  {
    re: new RegExp(`\\bI(?:'m| am) ${ADV}on (episode|chapter|level|page|week|day|lesson|book|season|module|unit|volume|step) (\\d+)((?: of (?:the )?[\\p{L}\\d' -]{2,40}?)?)(?=[.,!?;]|$|\\s(?:and|but|now|so)\\b)`, "u"),
    read: (m) => ({ attribute: `${m[1]}${m[3] ?? ""}`, value: m[2]! }),
  },
  // "I recently set a personal best time in a charity 5K run with a time of 27:12"
  {
    re: new RegExp(`\\bI(?:'ve| have)? ${ADV}(?:set|hit|got|achieved|reached|beat|ran|broke) (?:a |my |the )?(?:new )?(personal best(?: time)?|personal record|PB|PR|best time|record|high score)((?: (?:in|for|on|at) (?:a |the |my )?[\\p{L}\\d' -]{2,40}?)?) (?:with a time of|of|at|with|in) (${QUANTITY}(?: ${UNIT})?)${END}`, "u"),
    read: (m) => ({ attribute: `${m[1]}${m[2] ?? ""}`, value: m[3]! }),
  },
  // "my recent family trip to Hawaii", "my last job at the bank": the latest of something, which the next one replaces
  {
    re: new RegExp(`\\b[Mm]y (?:most )?(recent|latest|last) ((?:[a-z][a-z-]+ ){0,2}(?:trip|vacation|holiday|visit|getaway|purchase|order|project|race|concert|job|move|read|book|show|game))(?: was)? (?:to|in|at|with|of) (?:the )?([A-Z][\\p{L}'’-]*(?: [A-Z][\\p{L}'’-]*){0,3})`, "u"),
    read: (m) => ({ attribute: `${m[1]} ${m[2]}`.replace(/^(?:latest|last)\b/, "recent"), value: m[3]! }),
  },
  // "I upgraded to the family plan", "I switched my phone plan to unlimited"
  {
    re: new RegExp(`\\bI(?:'ve| have)? ${ADV}(?:switched|upgraded|downgraded|changed|moved) (?:my ${WORDS} )?(?:over )?to (?:the |a |an )?([\\p{L}\\d][\\p{L}\\d'’&+ -]{1,30}?(?: plan| tier| subscription| membership| package| version)?)(?=[.,!?;]|$|\\s(?:and|but|now|so|because|last|this|instead|for)\\b)`, "u"),
    read: (m) => {
      const value = m[2]!;
      const head = /\b(plan|tier|subscription|membership|package|version)$/i.exec(value)?.[1];
      // "the family plan" alone: the plan one is on ("plan" alone is "my plan is to…").
      const attribute = m[1] ?? (head ? `${head} subscribed` : undefined);
      // "I moved to Porto" is a residence, read by the named slots.
      return attribute ? { attribute, value: head && !m[1] ? value.slice(0, -head.length).trim() || value : value } : null;
    },
  },
  // "new 10k best: 49:30!", "a new personal best of 25:50": the record told as news ("my 10k best is 47:10" is the first rule's)
  {
    re: new RegExp(`\\b[Nn]ew ((?:[\\p{L}\\d-]+ ){0,2}(?:personal best|PB|PR|best|record)(?: time)?)[:,]? (?:of |is |at )?(${CLOCK}|${QUANTITY}(?: ${UNIT})?)${END}`, "u"),
    read: (m) => ({ attribute: m[1]!.replace(/ time$/, ""), value: m[2]! }),
  },
  // "I'm reading The Overstory", "I finished The Overstory and started Piranesi", "I just started reading Piranesi": the book one is on
  {
    re: new RegExp(`\\b(?:I(?:'m| am) ${ADV}(?:re-)?reading|I(?:'ve| have)? ${ADV}started reading|(?:finished|done with) [^.;!?]{1,60}? and (?:just |now )?started(?: reading)?) (${TITLE})`, "u"),
    read: (m) => ({ attribute: "book reading", value: m[1]!.replace(/^(?:the|an?) /i, "").replace(/(?: (?:of|the|and|a|in|on|to|for))+$/, "") }),
  },
  // "I prefer oat milk these days", "I now prefer window seats to aisle ones": keyed by the preferred thing's head word
  // ("preferred milk"), so "I prefer almond milk now" replaces it and "I prefer tea" is another key.
  {
    re: new RegExp(`\\bI ${ADV}(?:really |much |usually |definitely |generally )?prefer (?!(?:to|not|it|that|this|them|him|her|you|when|if|being|having|doing|going)\\b)(?:the |a |an |my )?([a-z][\\p{Ll}'’-]*(?: [a-z][\\p{Ll}'’-]*){0,3}?)(?=[.,!?;]|$|\\s(?:to|over|than|these days|now|nowadays|anyway|instead|for|when|because|but|and|at|in|on|with|since)\\b)`, "u"),
    read: (m) => ({ attribute: `preferred ${m[1]!.split(" ").at(-1)}`, value: m[1]! }),
  },
  // "I joined the climbing club", "I'm a member of the book group now"; "I left the choir": a membership, one key per
  // group (joining a second club adds one), ended by leaving.
  {
    re: new RegExp(`\\bI(?:'ve| have|'m| am)? ${ADV}(joined|signed up (?:for|to|with)|became a member of|(?:a )?member of|left|quit|dropped out of) (?:the |a |an |my |our )?(?:local )?(${GROUP})\\b`, "u"),
    read: (m) => ({ attribute: `member of ${m[2]!.toLowerCase()}`, value: "member", ...(/^(?:left|quit|dropped)/.test(m[1]!) ? { ends: true } : {}) }),
  },
  // "I cancelled my Netflix subscription", "I let my gym membership lapse"
  {
    re: new RegExp(`\\bI(?:'ve| have)? ${ADV}(?:cancelled|canceled|ended|stopped|dropped|let go of) my ${WORDS} (subscription|membership|plan|lease|contract|classes|lessons)\\b`, "u"),
    read: (m) => ({ attribute: `${m[1]} ${m[2]}`, value: "", ends: true }),
  },
];

/** Words no attribute is made of alone: "my point is", "my guess is", "my bad". */
const NOT_AN_ATTRIBUTE = /^(point|guess|question|questions|idea|ideas|advice|issue|problem|concern|worry|hope|fear|goal|plan|plans|dream|bet|bad|fault|pleasure|mind|head|heart|god|gosh|day|week|weekend|morning|night|life|thing|things|way|turn|name|opinion|thought|thoughts|feeling|reason|answer|suggestion|favou?rite|fav|understanding|experience|situation|schedule|list|budget|family|friend|friends|sister|brother|mom|mum|dad|mother|father|parents|son|daughter|wife|husband|partner|boyfriend|girlfriend|boss|manager|kids|children|dog|cat|car|job|home|house|apartment|flat|place)$/i;
const NOT_A_VALUE = /^(something|anything|nothing|everything|someone|anyone|everyone|somewhere|one of|part of|all|it|that|this|so|very|really|too|mostly|pretty|quite|rather|fairly|basically|a bit|a little|kind of|sort of|a|an|the|my|not|just|also|still|such|going|being|getting|kind|sort|like|what|how|why|because|about|more|less|amazing|great|good|fine|okay|ok|bad|terrible|awesome|nice|busy|crazy|wild|hard|tough|interesting|different|important|perfect)\b/i;
const DETERMINERS = /^(?:the|a|an|my|our|your|his|her|their|this|that|these|those|new|current|latest|old)\s+/i;

/** "the Downtown Farmers Market" after "I earned $420 at": the place is part of what is counted. */
function placeAfter(sentence: string, m: RegExpExecArray): string {
  const rest = sentence.slice(m.index + m[0].length);
  const at = /^\s+(?:at|in|on|for|from) (?:the |my )?((?:[A-Z][\p{L}'’-]*\s?){1,4})/u.exec(rest);
  return at ? ` at ${at[1]!.trim()}` : "";
}

/** The attribute's words, normalised: lower case, no determiners, "ones" resolved to what the turn counted. */
export function attributeOf(raw: string, before: string): string | null {
  let words = raw.trim().toLowerCase().replace(/[’]/g, "'").replace(/\s+/g, " ");
  while (DETERMINERS.test(words)) words = words.replace(DETERMINERS, "");
  // "using my fitbit", "episode of the science series": possessives and articles inside say nothing of the key.
  words = words.replace(/ (?:my|our|the|a|an|your|his|her|their) /g, " ");
  // "four different ones", "three of them": the thing counted is named earlier in the turn.
  if (/^(?:ones|of them)\b/.test(words)) {
    const antecedent = lastCountedThing(before);
    if (!antecedent) return null;
    words = words.replace(/^(?:ones|of them)/, antecedent);
  }
  words = words.replace(/[.,!?;:]+$/, "").trim();
  // "my sister Ana is …", "my husband's name is …": another person, read by extract-others-states.ts or not at all.
  if (RELATION_WORD.test(words.split(" ")[0]!.replace(/'s$/, ""))) return null;
  if (words === "" || NOT_AN_ATTRIBUTE.test(words) || words.split(" ").length > 8) return null;
  return words;
}

/** The last plural noun (with one modifier) before "ones": "Korean restaurants" in "have you tried any good Korean restaurants…?". */
function lastCountedThing(before: string): string | null {
  const plurals = [...before.matchAll(/\b((?:[A-Za-z][a-z-]+ )?[a-z]{3,}s)\b/g)].map((m) => m[1]!.toLowerCase());
  const found = plurals.reverse().find((p) => !/\b(?:ones|times|things|days|weeks|months|years|was|is|has|does|this|yes|thanks|us|its|his|hers|yours|ours|always|sometimes|perhaps|plus)$/.test(p));
  return found?.replace(/^(?:any|some|good|great|the|many|few|more|other|different|new) /, "") ?? null;
}

/** A count said to hold now: "stocked up", "left", "at the moment" — not "I have 2 questions". */
const HELD_NOW = /\b(?:stocked|in stock|stored|left|in the (?:fridge|freezer|pantry|garage|cellar|closet)|at home|at the moment|right now|currently|now|in total|in my collection|so far)\b/i;

/** The head noun of the last plural before a bare count: "eggs" in "some of our fresh eggs – we've got 20 dozen". */
function countedNoun(before: string): string | null {
  return lastCountedThing(before)?.split(" ").at(-1) ?? null;
}

function cleanValue(value: string): string | null {
  // "on Tuesday evenings" and "moved to Tuesday evenings" give one value.
  const said = value.trim().replace(/[.,!?;:]+$/, "").replace(/\s+/g, " ").toLowerCase();
  const v = said.startsWith("on ") && STARTS_WITH_WEEKDAY.test(said.slice(3)) ? said.slice(3) : said;
  if (v === "" || NOT_A_VALUE.test(v) || v.split(" ").length > 7 || isCondition(v)) return null;
  return v;
}

/**
 * Whether a value tells how a thing is rather than what it is: a comparison
 * ("my news is smaller"), a degree ("completely ruined"), or a condition with
 * its circumstance ("my phone is dead by 3pm every day"). Such a "value" of
 * "phone" answered "What phone am I using now?" with the old phone as the
 * valid one. A single word stays ("my favourite colour is blue", "my plan is
 * cancelled"), as does a quantity.
 */
function isCondition(value: string): boolean {
  if (/\d/.test(value)) {
    // A number is a value ("25:50", "$1,450"), unless it is only the circumstance's time ("dead by 3pm").
    if (!/^[a-z]+ (?:by|at|after|before|around|from|until) /.test(value)) return false;
  }
  const terms = (nlp(value).terms().json() as Array<{ terms: Array<{ tags: string[] }> }>).map((t) => new Set(t.terms[0]?.tags ?? []));
  const first = terms[0];
  if (!first || first.has("Noun") || first.has("Value")) return false;
  if (first.has("Comparative")) return true;
  if (first.has("Adverb")) return !terms.some((t) => t.has("Noun"));
  return first.has("Adjective") && terms.length > 1 && terms[1]!.has("Preposition");
}

/** The open-world states of one sentence of `speaker` (plans and questions already ruled out); `before` is the turn up to the sentence. */
export function extractOpenStates(sentence: string, speaker: string, before: string): StateStatement[] {
  const out: StateStatement[] = [];
  const seen = new Set<string>();
  for (const rule of RULES) {
    const m = rule.re.exec(sentence);
    if (!m) continue;
    const read = rule.read(m, sentence, before);
    if (!read) continue;
    const attribute = attributeOf(read.attribute, before + " " + sentence.slice(0, m.index));
    const value = read.ends ? "" : cleanValue(read.value);
    if (!attribute || value === null || seen.has(attribute)) continue;
    seen.add(attribute);
    out.push({ subject: speaker, slot: attribute, value, additive: false, ends: read.ends ?? false, evidence: m[0].trim(), open: true });
  }
  return out;
}
