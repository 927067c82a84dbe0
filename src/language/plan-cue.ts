/**
 * Words that tell of something still to come, shared by time grounding (a
 * plan grounds its times forward), the anchorer (a unit that tells of a plan
 * is marked planned) and occurrence grounding (a plan is no occurrence).
 */

/** Tense and words that put what the sentence tells ahead of when it is said. */
const FUTURE =
  /\b(?:will|won't|shall|going to|gonna|plan(?:s|ning|ned)? to|next(?! to\b)|upcoming|coming up|hope to|hoping to|can't wait|cannot wait|looking forward|tomorrow|soon|intend to|about to)\b|['’]ll\b/i;

/**
 * The present progressive of a movement or undertaking is the English
 * arranged future ("I'm going back to Tokyo in May", "we're flying to Rome",
 * "she's starting school in September"); the past progressive ("I was
 * going") is not matched.
 */
const PROGRESSIVE_FUTURE =
  /(?:\b(?:am|is|are)|['’](?:m|re|s))\s+(?:\w+\s+)?(?:going|flying|heading|leaving|travel(?:l)?ing|moving|visiting|starting|coming|driving|taking|getting married|celebrating|hosting|attending|meeting|planning|preparing|organi[sz]ing)\b/i;

/**
 * An arrangement made before the event ("I booked a trip to Kyoto in May"):
 * the time it names is usually the event's, ahead — but it can be when the
 * booking was made ("I booked the tickets in January"). Time grounding takes
 * the nearer reading for these.
 */
const ARRANGED = /\b(?:booked|scheduled|reserved|signed up|registered|enrolled|bought tickets|got tickets)\b/i;

/** Broader: wishes and intentions ("I want to", "thinking about") are plans too, though they date nothing. */
const INTENDED = /\b(?:plan(?:s|ning|ned)?|thinking (?:about|of)|want(?:s)? to|would like to|at some point|not yet)\b/i;

/**
 * For a time only: any present progressive reads a time it names as ahead
 * ("I'm doing one in Leipzig in November", said in September: this November).
 * English uses the present progressive with a named time for what is arranged;
 * of what is going on now it says "since" or gives no time. Wider than
 * PROGRESSIVE_FUTURE, so it marks no unit as planned ("I'm training four
 * times a week" is no plan).
 */
const PRESENT_PROGRESSIVE = /(?:\b(?:am|is|are)|['’](?:m|re|s))\s+(?:\w+\s+)?(?!going\b|thinking\b|remembering\b|missing\b|looking\b|talking\b|telling\b|reading\b|watching\b|showing\b|sharing\b|posting\b|editing\b|sorting\b|writing\b)\w{2,}ing\b/i;
// Words of now or of a past the progressive looks back on ("photos from May"), and a past
// tense beside it: the time then belongs to that clause ("I received my visa on April 15th,
// so I'm feeling relieved"; "my knee is healing well, I heard on March 20th").
const TIME_OF_NOW = /\b(?:since|ago|last|already|so far|these days|lately|recently|still|from|now)\b|\b(?:was|were|had|did|got|went|bought|sold|paid|spent|saw|made|took|came|felt|heard|told|said|found|thought|began|left|ran|met|knew|gave|sent|won|lost|wrote|broke|chose|drove|flew|ate|drank|forgot|kept|brought|caught|taught|built|became|fell|sat|stood|woke|wore)\b|\b\w{3,}ed\b|['’]ve been|\bhave been|\bhas been/i;

/**
 * A weekday a thing is set for, in the present, or one it was moved to: "my
 * appointment is on Tuesday at 3pm", "it's this Friday", "the call got moved
 * to Thursday", "I have a meeting on Friday", a timetable's present ("my new
 * job starts Monday", "the course begins on Friday"). What is set for a weekday lies ahead; what happened on one is
 * told in the past ("I saw her on Tuesday"), which this does not match.
 */
const WEEKDAY = "(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?";
const SET_FOR_WEEKDAY = new RegExp(
  `(?:\\b(?:is|are)|['’](?:s|re))\\s+(?:now\\s+|still\\s+|also\\s+|always\\s+)?(?:on\\s+|this\\s+|next\\s+)?${WEEKDAY}\\b|\\b(?:moved|rescheduled|pushed(?:\\s+back)?|postponed|changed|switched|bumped)\\s+(?:back\\s+|up\\s+)?(?:to|until|till)\\s+(?:next\\s+|this\\s+)?${WEEKDAY}\\b|\\b(?:have|has|['’]ve got)\\s+(?:a|an|my|the|our|another)\\s+(?:[\\w-]+\\s+){0,2}?(?:on\\s+|this\\s+|next\\s+)${WEEKDAY}\\b|\\b(?:start|starts|begin|begins|open|opens|leave|leaves|arrive|arrives|depart|departs|launch|launches|kick off|kicks off)\\s+(?:on\\s+|this\\s+|next\\s+)?${WEEKDAY}\\b`,
  "i",
);

export type FutureCue = "future" | "arranged";

/** What a sentence says about the time of what it tells: ahead ("future"), probably ahead ("arranged"), or nothing (null). */
export function futureCueIn(sentence: string): FutureCue | null {
  if (FUTURE.test(sentence) || PROGRESSIVE_FUTURE.test(sentence)) return "future";
  return ARRANGED.test(sentence) ? "arranged" : null;
}

/** What a sentence says about the time it names: futureCueIn, or "future" for a present progressive that does not speak of now, or a weekday something is set for or moved to. */
export function timeCueIn(sentence: string): FutureCue | null {
  return futureCueIn(sentence) ?? (SET_FOR_WEEKDAY.test(sentence) || (PRESENT_PROGRESSIVE.test(sentence) && !TIME_OF_NOW.test(sentence)) ? "future" : null);
}

/** A text that tells of a plan, an arrangement or an intention rather than of something that happened. */
export function tellsOfPlan(text: string): boolean {
  return futureCueIn(text) !== null || INTENDED.test(text);
}
