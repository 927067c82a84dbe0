/**
 * States the speaker tells of other people: "My sister Ana lives in Berlin",
 * "Jon's new job is at Harborview", "my mom retired". The subject is the
 * person's name when the speaker gives one, else the relation as the speaker
 * names it ("Ines's sister"); when both are said, a `relation` statement
 * (subject Ana, value "ines's sister") lets the namespace resolve the one to
 * the other (anchoring/person-aliases.ts), so "where does my sister live?"
 * and "where does Ana live?" find the same statement.
 *
 * Only a handful of slots (where someone lives, works, with whom, retired):
 * the rules must not read "my sister is a nightmare" as a job.
 */
import type { StateStatement } from "../model/memory-unit.js";
import { DURATION, KIN_WORDS, RELATION } from "./state-patterns.js";

const RELATION_RE = new RegExp(`^${RELATION}$`, "i");

// Capitalised words that start sentences or name days, never a person.
const NOT_A_NAME = new Set(
  "I Me The This That These Those It We They He She You My Our Your His Her Their There Here And But So Then Now Also Actually Well Oh Yes No Hey Hi Hello Thanks Thank What Where When How Why Who Which Today Yesterday Tomorrow Monday Tuesday Wednesday Thursday Friday Saturday Sunday January February March April May June July August September October November December Mom Mum Dad Everyone Someone Nobody Anyway Btw Sadly Luckily Guess Speaking Apparently Honestly Finally Plus Just Still Since After Before If Because Although Though While Once".split(" "),
);
const NAME = "([A-Z][\\p{Ll}'’-]+(?: [A-Z][\\p{Ll}'’-]+)?)";
const PLACE = "([A-Z][\\p{L}'’-]+(?:[ -][A-Z][\\p{L}'’-]+){0,3})";
const ORG = "((?:the )?[A-Z][\\p{L}&'’.-]*(?: [A-Z&][\\p{L}&'’.-]*){0,4}|the [a-z][\\p{Ll}'’-]+(?: [a-z][\\p{Ll}'’-]+)?)";
/** Staying somewhere, not visiting: "still in", "been in", "settled in" ("is in Paris this weekend" is a visit). */
const STAYING = "(?:(?:still|now|currently|been|living|based|settled) )+in";
/** Kin a speaker calls by the word alone, capitalised as a name: "Dad", "Mum", "Grandma". */
const BARE_KIN = new RegExp(`^(?:${Object.keys(KIN_WORDS).map((w) => w[0]!.toUpperCase() + w.slice(1)).join("|")})$`);
/** A dwelling named by what it is ("flat", "houseshare"); after "new" it is a home one moved into ("her new flat in Leith"), a visit is none. */
const DWELLING = "(?:flat|apartment|house|place|home|studio|cottage|bungalow|condo|houseshare|flatshare)";
/** A home one moves into: "a flat in Nørrebro", "her new place in Leith", "De Lindehof, a care home in Haren". */
const HOME = `(?:[A-Z][\\p{L}'’-]+(?: [A-Z][\\p{L}'’-]+){0,2}, )?(?:a |an |the |her |his |their |my )?(?:new |shared |small |tiny |little |big |nice |care |nursing |retirement )*(?:${DWELLING}|room|dorm)`;
/** Who: "my (older) sister (Ana)", "Ana", "Ana's". Groups: relation, name after it, bare name. */
const WHO = `(?:\\b[Mm]y ${RELATION}(?:,? ${NAME})?|\\b${NAME})`;
const ADV = "(?:now |still |currently |finally |just |recently |officially |actually |also )*";
/** What "X is a … now" says that is no work: family, age, habits, judgements ("Tom's a grandad now", "a nightmare now"). */
const NOT_A_ROLE = /^(?:nightmare|mess|wreck|pain|joy|fan|father|mother|dad|mum|mom|parent|grandad|grandpa|grandma|granny|grandmother|grandfather|uncle|aunt|auntie|husband|wife|adult|teenager|toddler|baby|vegetarian|vegan|pescatarian|regular|member|local|convert|expert|pro|bit|lot|little|different person|new person|changed man|changed woman)\b/;

/** A role at a named place, two groups (the role, the place): "an accountant at Harcourt & Lyle", "a health visitor with the Northolt team". */
const ROLE_AT = `(?:a|an) ([a-z][a-z-]+(?: [a-z][a-z-]+)?) (?:at|for|with) ${ORG}`;

/** A role said to hold now, one group: "(proper |qualified )paramedic now". */
const JOB_NOW = "(?:proper |qualified |fully qualified |trained |certified |licensed |registered |full-time |part-time )?([a-z][a-z-]+(?: [a-z][a-z-]+)?) now\\b";

interface OthersRule {
  re: RegExp;
  read: (m: RegExpExecArray, at: number) => { slot: string; value: string; ends?: boolean; open?: boolean } | null;
}

/** A value that stands for the place named before the match ("moved there"), resolved with the turn's words before it. */
const THERE = "@there";

// Groups 1–3 are WHO's in every rule; the state's own groups follow.
const RULES: OthersRule[] = [
  // "my grandmother lives on her own in Groningen"
  { re: new RegExp(`${WHO} ${ADV}(?:lives|is living|has been living|has lived) (?:on (?:her|his|their) own |alone |by (?:herself|himself|themselves) )?in ${PLACE}`, "u"), read: (m) => ({ slot: "residence", value: m[4]! }) },
  { re: new RegExp(`${WHO} ${ADV}(?:moved|relocated|has moved) (?:back )?to ${PLACE}`, "u"), read: (m) => ({ slot: "residence", value: m[4]! }) },
  // "I'm back from Cardiff! Greta finally moved there in July": there is the place the turn named before
  { re: new RegExp(`${WHO} ${ADV}(?:moved|relocated|has moved) (?:back |up |down |over |out )?there\\b`, "u"), read: () => ({ slot: "residence", value: THERE }) },
  // "Signe has moved into a flat in Nørrebro", "Dad moved in with Chiara in Alba": where the new home is
  // (a clause joined by "and" shares its subject: "Signe is back from Berlin and has moved into a flat in Nørrebro")
  { re: new RegExp(`${WHO}(?: [^.,;:!?]{1,40}? and)? ${ADV}(?:has |have |just )*(?:moved|moving) (?:into ${HOME}|in with (?:[\\p{Lu}][\\p{L}'’-]+|(?:her|his|their|my|our) \\w+)) in ${PLACE}`, "u"), read: (m) => ({ slot: "residence", value: m[4]! }) },
  // "Khadija's new flat in Manchester": a new home somewhere is a move there
  { re: new RegExp(`${WHO}['’]s new ${DWELLING} in ${PLACE}`, "u"), read: (m) => ({ slot: "residence", value: m[4]! }) },
  // "Elodie's still in Leeds for now", "my brother's been in Cork since June", "Arjun's settled in Bristol": staying, not a visit ("Ana is in Paris this weekend")
  { re: new RegExp(`${WHO}(?:'s| is| has) ${STAYING} ${PLACE}`, "u"), read: (m) => ({ slot: "residence", value: m[4]! }) },
  { re: new RegExp(`${WHO}['’]s (?:new |current )?(?:job|position|role) is (?:at|with) ${ORG}`, "u"), read: (m) => ({ slot: "employer", value: m[4]! }) },
  { re: new RegExp(`${WHO} ${ADV}(?:works|is working) (?:at|for) ${ORG}`, "u"), read: (m) => ({ slot: "employer", value: m[4]! }) },
  // "my brother's still doing nights at the supermarket warehouse": shifts somewhere are work there
  { re: new RegExp(`${WHO}(?:'s| is) ${ADV}(?:doing|working|on) (?:nights|days|shifts|weekends|lates|earlies) (?:at|for) ${ORG}`, "u"), read: (m) => ({ slot: "employer", value: m[4]! }) },
  // "Josie's been with her boyfriend Anton for two years"
  { re: new RegExp(`${WHO}(?:'s| has) (?:been )?(?:with|seeing|dating) (?:her|his|their) (?:boyfriend|girlfriend|partner|fianc[ée]e?|husband|wife) ${NAME}`, "u"), read: (m) => ({ slot: "partner", value: m[4]! }) },
  // "Josie and Anton have split up": her partner ends
  { re: new RegExp(`${WHO} and ${NAME} (?:have |had |just |finally )*(?:split up|broken up|broke up|separated|divorced)`, "u"), read: () => ({ slot: "partner", value: "", ends: true }) },
  { re: new RegExp(`${WHO} ${ADV}(?:got|started|landed|took) (?:a |the )?(?:new )?job (?:at|with) ${ORG}`, "u"), read: (m) => ({ slot: "employer", value: m[4]! }) },
  { re: new RegExp(`${WHO} ${ADV}(?:works|is working) as (?:a |an )?([a-z][a-z-]+(?: [a-z][a-z-]+)?)\\b`, "u"), read: (m) => ({ slot: "job", value: m[4]! }) },
  // "my brother Chidi is an accountant at Harcourt & Lyle": a role at a named place is work ("my sister is a nightmare" names none)
  { re: new RegExp(`${WHO}(?:'s| is) ${ADV}${ROLE_AT}`, "u"), read: (m) => (NOT_A_ROLE.test(m[4]!) ? null : { slot: "job", value: m[4]! }) },
  // "Chidi handed in his notice", "my sister quit her job": the work that held ends
  { re: new RegExp(`${WHO} ${ADV}(?:has |had )?(?:(?:handed|put|given|gave) in (?:his|her|their) notice|(?:quit|left|lost) (?:his|her|their) job)\\b`, "u"), read: () => ({ slot: "job", value: "", ends: true }) },
  { re: new RegExp(`${WHO} ${ADV}(?:retired|has retired|is retired)\\b`, "u"), read: () => ({ slot: "job", value: "retired" }) },
  // "Yaw's loving the college job", "my sister is enjoying her new job": a job held now, named by what it is
  { re: new RegExp(`${WHO}(?:'s| is) ${ADV}(?:loving|enjoying|liking|settling into|settled into) (?:the|his|her|their) (new|[a-z][a-z-]+) job\\b`, "u"), read: (m) => (m[4] === "old" ? null : { slot: "job", value: `${m[4]!} job` }) },
  // "Fergus is a proper paramedic now": a role said to hold now ("my sister is a nightmare" says no "now")
  { re: new RegExp(`${WHO}(?:'s| is) (?:now |finally |officially )?(?:a|an) ${JOB_NOW}`, "u"), read: (m) => (NOT_A_ROLE.test(m[4]!) ? null : { slot: "job", value: m[4]! }) },
  // "my parents have been staying with me for nine months": an open attribute of theirs, as extract-open-states.ts reads the speaker's
  {
    re: new RegExp(`${WHO} (?:has|have|'ve|'s) (?:now |already )?been ((?:staying|living|working|studying|volunteering|training|learning|taking|playing|attending|using|doing|dating|seeing) [\\p{L}\\d' -]{1,40}?) for (${DURATION})`, "u"),
    read: (m) => ({ slot: m[4]!.toLowerCase().replace(/ (?:my|our|the|a|an) /g, " "), value: m[5]!, open: true }),
  },
  { re: new RegExp(`${WHO} ${ADV}(?:is|'s|has been) (?:dating|seeing|engaged to|married to) ${NAME}`, "u"), read: (m) => ({ slot: "partner", value: m[4]! }) },
];

/**
 * Where a person the turn already named lives, with whom, or what they now
 * are, told with a pronoun: "She's been in Leeds since uni", "she's still in
 * Leeds for now", "she moved up there" (there: the place the sentence named
 * before, "Elodie got the Glasgow job, she moved up there"), "she's been with
 * her boyfriend Anton", "he's a proper paramedic now", "she's a health
 * visitor with the Northolt team". Only wordings of
 * staying ("still", "been … in", "living in", "based in") or of a move: "she's
 * in Paris" may be a weekend.
 */
const PRONOUN_STATES: ReadonlyArray<{ re: RegExp; slot: string; value: (m: RegExpExecArray, sentence: string) => string | null }> = [
  { re: new RegExp(`\\b(?:[Ss]he|[Hh]e)(?:'s| is| has) ${STAYING} ${PLACE}`, "u"), slot: "residence", value: (m) => m[1]! },
  { re: new RegExp(`\\b(?:[Ss]he|[Hh]e) ${ADV}(?:moved|relocated|has moved) (?:back |up |down |over |out )?to ${PLACE}`, "u"), slot: "residence", value: (m) => m[1]! },
  { re: /\b(?:[Ss]he|[Hh]e) (?:\w+ )?(?:moved|relocated) (?:back |up |down |over |out )?there\b/u, slot: "residence", value: (m, sentence) => lastPlace(sentence.slice(0, m.index)) },
  // "She sent me a photo from her new flat in Manchester": a new home somewhere is a move there
  { re: new RegExp(`\\b(?:[Hh]er|[Hh]is) new ${DWELLING} in ${PLACE}`, "u"), slot: "residence", value: (m) => m[1]! },
  // "she's been with her boyfriend Anton for about two years"
  { re: new RegExp(`\\b(?:[Ss]he|[Hh]e)(?:'s| has) (?:been )?(?:with|seeing|dating) (?:her|his|their) (?:boyfriend|girlfriend|partner|fianc[ée]e?|husband|wife) ${NAME}`, "u"), slot: "partner", value: (m) => m[1]! },
  // "He's a proper paramedic now"
  { re: new RegExp(`\\b(?:[Ss]he|[Hh]e)(?:'s| is) (?:now |finally |officially )?(?:a|an) ${JOB_NOW}`, "u"), slot: "job", value: (m) => (NOT_A_ROLE.test(m[1]!) ? null : m[1]!) },
  // "She's a health visitor with the Northolt team now": a role at a named place, as "Chidi is an accountant at …"
  { re: new RegExp(`\\b(?:[Ss]he|[Hh]e)(?:'s| is) ${ADV}${ROLE_AT}`, "u"), slot: "job", value: (m) => (NOT_A_ROLE.test(m[1]!) ? null : m[1]!) },
];

/** Whether a capitalised run opens with a sentence word ("She", "Then") or a contraction of "I" ("I'm retired", "I've moved"). */
function isSentenceWord(name: string): boolean {
  const first = name.split(" ")[0]!;
  return NOT_A_NAME.has(first) || /^I['’]/.test(first);
}

/** A name that stands for someone other than the speaker: no sentence word, no relation word, not the speaker. */
function isOtherPersonName(name: string, speaker: string): boolean {
  return !isSentenceWord(name) && !RELATION_RE.test(name) && name.toLowerCase() !== speaker.toLowerCase();
}

/** The last capitalised word (run) of `text` that is no sentence word nor a person named before ("the Glasgow job" → Glasgow). */
function lastPlace(text: string): string | null {
  const runs = [...text.matchAll(new RegExp(PLACE, "gu"))].map((m) => m[1]!).filter((w) => !isSentenceWord(w));
  return runs.at(-1) ?? null;
}

/**
 * A person a pronoun of this sentence may stand for: a name the sentence
 * before it uses as a subject (not after "the", "in", "to"…, and followed by
 * a verb: "Elodie got the Glasgow job, she…"), else the other person the turn
 * told of (`turnPerson`, asked only then).
 */
function pronounPerson(before: string, speaker: string, turnPerson: () => string | null): string | null {
  // Followed by a verb, not a preposition: "Bit of both. … she's been with…" names no one.
  const subjects = [...before.matchAll(new RegExp(`(?<!\\b(?:the|a|an|in|to|at|from|of|for|near|by|on) )\\b${NAME}(?:['’]s)? (?!(?:of|in|on|at|to|for|from|by|as|than|the|a|an|or)\\b)[a-z]`, "gu"))]
    .map((m) => withoutOpeningWord(namePart(m[1]!)))
    .filter((n) => isOtherPersonName(n, speaker));
  return subjects.at(-1) ?? turnPerson();
}

/**
 * Whom the other speaker's turn just asked about, for a pronoun of the answer
 * to stand for: "Any news from Elodie?" → Elodie, "How's your sister?" → the
 * answering speaker's sister. The last such name or relation of the turn.
 */
export function askedPerson(asked: string | undefined, speaker: string): string | null {
  if (!asked) return null;
  // A name asked after as a person ("news from Elodie", "how's Tom", "Ana doing"), not a place ("How was Lisbon?").
  const asPerson = new RegExp(`\\b[Yy]our ${RELATION}\\b|\\b(?:news (?:from|of|about) |heard from |[Hh]ow(?:'s| is) |[Ww]hat about |with )${NAME}|\\b${NAME}(?:['’]s)? (?:doing|getting on|keeping|up to)\\b`, "gu");
  const found = [...asked.matchAll(asPerson)]
    .map((m) => (m[1] ? `${speaker}'s ${m[1].toLowerCase()}` : namePart(m[2] ?? m[3]!)))
    .filter((n) => isOtherPersonName(n, speaker));
  return found.at(-1) ?? null;
}

/** "And Kasia", "Then Bronwen": a sentence's opening word before a name is no part of it. */
function withoutOpeningWord(name: string): string {
  return / /.test(name) && isSentenceWord(name) ? name.slice(name.indexOf(" ") + 1) : name;
}

/** A name without the possessive the name pattern takes in ("She's" → "She", "Ana's" → "Ana"). */
function namePart(name: string): string {
  return name.replace(/['’]s$/, "");
}

/**
 * A home or a role told of a person with he or she (PRONOUN_STATES): the
 * person is the one the turn named as a subject before the pronoun ("Fergus
 * qualified! He's a proper paramedic now"), else `turnPerson`, the other
 * person the turn last stated something of ("My cousin Elodie came to stay.
 * She's been in Leeds since uni"). None known: nothing (a pronoun alone names no one).
 */
export function extractPronounStates(sentence: string, before: string, speaker: string, turnPerson: () => string | null, slotsTaken: ReadonlySet<string>): StateStatement[] {
  const out: StateStatement[] = [];
  for (const rule of PRONOUN_STATES) {
    if (slotsTaken.has(rule.slot) || out.some((st) => st.slot === rule.slot)) continue;
    const m = rule.re.exec(sentence);
    if (!m) continue;
    const person = pronounPerson(`${before} ${sentence.slice(0, m.index)}`, speaker, turnPerson);
    const raw = rule.value(m, sentence);
    if (!person || !raw || raw === person) continue;
    const value = clean(raw);
    if (value === "") continue;
    out.push({ subject: person, slot: rule.slot, value, additive: false, ends: false, evidence: m[0].trim() });
  }
  return out;
}

const TRAILING = /\s+(?:now|since|for|last|this|in|on|and|with|after|before)\b.*$/i;

function clean(value: string): string {
  return value.replace(TRAILING, "").replace(/[.,!?;:]+$/, "").replace(/^(the|a|an)\s+/i, "").replace(/['’]s$/, "").trim().toLowerCase();
}

/**
 * The subject a rule's WHO groups name, and the `relation` statement when a
 * name and a relation are both said. Null when the "name" is a sentence word.
 */
function subjectOf(m: RegExpExecArray, speaker: string): { subject: string; relation: string | null } | null {
  const relation = m[1] ? `${speaker}'s ${m[1].toLowerCase()}` : null;
  let name = m[2] ?? m[3];
  if (name) name = withoutOpeningWord(name);
  // "Dad moved in with Chiara": a parent or grandparent called by kin alone is the speaker's.
  if (name && !m[1] && BARE_KIN.test(name)) return { subject: `${speaker}'s ${name.toLowerCase()}`, relation: null };
  if (name && isSentenceWord(name)) return relation && !m[3] ? { subject: relation, relation: null } : null;
  if (name && RELATION_RE.test(name)) return null;
  if (name) return { subject: name, relation };
  return relation ? { subject: relation, relation: null } : null;
}

/** Other people's states in one sentence of `speaker` (a plan or question already ruled out by the caller). */
export function extractOthersStates(sentence: string, speaker: string, before = ""): StateStatement[] {
  const out: StateStatement[] = [];
  for (const rule of RULES) {
    const m = rule.re.exec(sentence);
    if (!m) continue;
    const who = subjectOf(m, speaker);
    const read = rule.read(m, m.index);
    if (!who || !read) continue;
    // The speaker is no other person ("Ines moved to Porto" said by Ines is her own state; the first-person rules read it).
    if (who.subject.toLowerCase() === speaker.toLowerCase()) continue;
    const value = clean(read.value === THERE ? (lastPlace(`${before} ${sentence.slice(0, m.index)}`) ?? "") : read.value);
    if (value === "" && !read.ends) continue;
    out.push({ subject: who.subject, slot: read.slot, value, additive: false, ends: read.ends ?? false, evidence: m[0].trim(), ...(read.open ? { open: true } : {}) });
    if (who.relation) out.push(relationStatement(who.subject, who.relation, m[0].trim()));
  }
  return out;
}

/** "my sister Ana" anywhere in a sentence: Ana is the speaker's sister, a state that never ends (additive). */
const NAMED_RELATION = new RegExp(`\\b[Mm]y ${RELATION},? ${NAME}`, "u");

export function extractRelations(sentence: string, speaker: string): StateStatement[] {
  const m = NAMED_RELATION.exec(sentence);
  if (!m || isSentenceWord(m[2]!) || RELATION_RE.test(m[2]!)) return [];
  return [relationStatement(m[2]!, `${speaker}'s ${m[1]!.toLowerCase()}`, m[0].trim())];
}

function relationStatement(name: string, relation: string, evidence: string): StateStatement {
  return { subject: name, slot: "relation", value: relation.toLowerCase(), additive: true, ends: false, evidence };
}
