/**
 * Statements of a state about the speaker — where they live, where or as what
 * they work, who they are with, what pets and car they have, what they eat,
 * their favourites, how many of something they have or have done — found by
 * rules, keyed by (subject, slot). A later statement of the same slot with
 * another value supersedes an earlier one (retrieval/validity.ts derives the
 * validity intervals); an additive slot (a second pet) supersedes nothing, and
 * an ending statement ("I sold my car", "we broke up") closes its slot.
 *
 * The named slots read the first person: "I moved to Porto" is about the
 * speaker; what the speaker says of others is read by a few narrower rules
 * (extract-others-states.ts). Plans ("I'm moving next month", "I will")
 * state no state yet — a plan's own clause only, and a possessive in it
 * still holds ("my cat Pistache will stay with the neighbours"). A bare
 * count that answers the other speaker's "how many … now?" states it.
 */

import type { StateStatement } from "../model/memory-unit.js";
import { extractOpenStates } from "./extract-open-states.js";
import { askedPerson, extractOthersStates, extractPronounStates, extractRelations } from "./extract-others-states.js";
import { NUMBER_WORD_VALUES, PLURAL } from "./state-patterns.js";
export type { StateStatement };

const PLACE = "([A-Z][\\p{L}'’-]+(?:[ -][A-Z][\\p{L}'’-]+){0,3})";
const NAME = "([A-Z][\\p{L}'’-]+)";
const ROLE = "([a-z][a-z-]+(?: [a-z][a-z-]+){0,3}?)(?=[,.!?;:]| at\\b| in\\b| for\\b| now\\b| since\\b| with\\b|$)";
const ORG = "((?:the )?[A-Z][\\p{L}&'’.-]*(?: [A-Z&][\\p{L}&'’.-]*){0,4})";
const ANIMAL = "(dog|cat|puppy|kitten|rabbit|bunny|parrot|budgie|hamster|guinea pig|turtle|tortoise|horse|snake|lizard|beagle|labrador|poodle|terrier|retriever|spaniel|collie|tabby)";
const BRAND = "(?:VW|Volkswagen|Fiat|Honda|Toyota|Hyundai|Ford|BMW|Audi|Kia|Mazda|Nissan|Renault|Peugeot|Tesla|Volvo|Subaru|Skoda|Seat|Opel|Chevrolet|Mini|Jeep|Suzuki|Yamaha|Vespa)";
const VEHICLE = "(car|truck|bakkie|pickup|pick-up|suv|van|motorbike|motorcycle|scooter|tesla|toyota|honda|ford|bmw|subaru|volkswagen|audi|mazda|kia|hyundai|prius|civic|corolla)";
const COUNT = "(\\d+(?:\\.\\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)";
/** Up to two describing words between a count and what it counts ("nine private students", "two rescue greyhounds"). */
const DESCRIBED = "(?:(?!(?:and|or|of|more|other|hundred|thousand|million|dozen)\\b)[a-z][a-z-]* ){0,2}?";
const NOW = "(?:now |currently |finally |just |recently |officially |actually |still |also )*";
/**
 * After a name read as a workplace: the name is no noun's modifier ("training for the Leeds half marathon", "working
 * for the Google interview"). A lower-case word right after it must be a function word or an adverb ("at Monzo now",
 * "at the BBC as a producer", "at Ridgeway remotely").
 */
const NOT_A_MODIFIER = "(?![\\p{L}&'’.-])(?! (?!(?:in|on|at|as|since|for|and|but|so|or|with|now|until|from|to|this|that|last|next|every|because|while|when|where|which|who|full|part|right|again|too|anymore|already|these|nowadays|though|if|then|after|before|during|over|near|by|instead|yet|still|is|was|are|were|has|have|had|will|would|can|could|and|a|an|the|my|our|me|us|it|you|i|we|they|he|she|not|also|just|full-time|part-time)\\b)[a-z][a-z'’-]*(?<!ly)\\b)";

/** A home named by what it is (a residence in lower case needs one of these words). */
const DWELLING = "(?:flat|apartment|house|studio|place|cottage|loft|houseboat|bungalow|two-bed|one-bed|maisonette|bedsit)";

interface Rule {
  re: RegExp;
  /** Holds whatever the sentence plans ("my cat Pistache will stay with the neighbours" still says the cat is mine). */
  stative?: boolean;
  /** Read over the whole turn, not one clause ("Meet Tango! He's my dog now."). */
  wholeTurn?: boolean;
  /** Slot and value from the match; null drops the match. */
  read: (m: RegExpExecArray) => Omit<StateStatement, "subject" | "evidence"> | null;
}

const set = (slot: string, value: string | undefined, additive = false) => (value ? { slot, value: clean(value), additive, ends: false } : null);
const end = (slot: string, value = "", additive = false) => ({ slot, value: clean(value), additive, ends: true });

/** The job a status says: working for oneself is "freelance" however it is said; no work is "unemployed". */
const JOB_STATUS: Record<string, string> = { freelancing: "freelance", freelance: "freelance", "self-employed": "self-employed", unemployed: "unemployed", "out of work": "unemployed", "between jobs": "unemployed" };

const RULES: Rule[] = [
  // residence
  { re: new RegExp(`\\b(?:I|[Ww]e)(?:'ve| have)? ${NOW}(?:moved|relocated) (?:back )?to ${PLACE}`, "u"), read: (m) => set("residence", m[1]) },
  { re: new RegExp(`\\bI(?:'m| am) ${NOW}living in ${PLACE}`, "u"), read: (m) => set("residence", m[1]) },
  { re: new RegExp(`\\b(?:I|[Ww]e) ${NOW}live in ${PLACE}`, "u"), read: (m) => set("residence", m[1]) },
  { re: new RegExp(`\\b[Ww]e(?:'re| are) ${NOW}living in ${PLACE}`, "u"), read: (m) => set("residence", m[1]) },
  // "I live in a flat in Schwabing now", "we're renting a house in Ghent"
  { re: new RegExp(`\\b(?:I|[Ww]e)(?:'re|'m| am| are)? ${NOW}(?:live|living|rent|renting) (?:in )?(?:a|an|the|our|my) (?:new |small |tiny |big |little |lovely )?(?:flat|apartment|house|studio|place|cottage|room|loft|condo|townhouse) in ${PLACE}`, "u"), read: (m) => set("residence", m[1]) },
  { re: new RegExp(`\\b(?:I|[Ww]e)(?:'ve| have) been living in ${PLACE}`, "u"), read: (m) => set("residence", m[1]) },
  { re: new RegExp(`\\b[Mm]y (?:new |own |whole |little )?(?:home|apartment|flat|house|place) in ${PLACE}`, "u"), read: (m) => set("residence", m[1]) },
  { re: new RegExp(`\\bI(?:'ve| have) lived in ${PLACE}`, "u"), read: (m) => set("residence", m[1]) },
  { re: new RegExp(`\\b(?:years|months|winters|summers) living in ${PLACE}`, "u"), read: (m) => set("residence", m[1]) },
  // The speaker's ("I'm so settled in Berlin", "we've finally settled in Leeds", "Settled in Porto now"), not "Arjun's settled in Bristol".
  { re: new RegExp(`(?:\\b(?:I|[Ww]e)(?:['’]m|['’]re| am| are|['’]ve| have)?|^|[.!?] ) ?(?:(?:now|finally|all|so|pretty|really|nicely|well|got|been|getting|fully|quite) )*[Ss]ettled in ${PLACE}`, "u"), read: (m) => set("residence", m[1]) },
  // The speaker's lease ("the lease in Leith is signed", "renewed our lease in Porto"), not "he's renewed his lease in Toronto".
  { re: new RegExp(`(?<!\\b(?:his|her|their|[\\p{Lu}][\\p{L}'’-]+['’]s) )\\blease\\b[^.!?]*?\\bin ${PLACE}`, "u"), read: (m) => set("residence", m[1]) },
  { re: /\b(?:I|[Ww]e)(?:'ve| have)? (?:just |recently |finally )?(?:moved|relocated) here\b|\b(?:I|[Ww]e)(?:'ve| have) been living here\b/u, read: () => set("residence", "@here") },
  // A home named by what it is and where, in lower case, moved into: "we're out of the bakery flat and into a place by the canal", "I moved into a bigger flat near the river" (not "I walked into a place near the station")
  { re: new RegExp(`\\b(?:I|[Ww]e)\\b[^.!?]{0,40}?\\b(?:moved |moving |and )into (?:a|an|the|our|my) (?:new |bigger |smaller |little |tiny |lovely )?(${DWELLING}(?: (?:by|near|on|above|off|next to|overlooking|opposite) (?:the |a )?[a-z][a-z'’ -]{2,30}?)?)(?=[.,!?;]|$|\\s(?:and|but|so|with|which|now|where)\\b)`, "u"), read: (m) => set("residence", m[1]) },
  // "the radiator in our flat above the bakery": the home the speaker has, with where it is
  { re: new RegExp(`\\b(?:[Oo]ur|[Mm]y) (?:new |little |tiny )?(${DWELLING} (?:by|near|above|off|next to|overlooking|opposite) (?:the |a )?[a-z][a-z'’-]+(?: (?!(?:has|have|had|is|was|were|are|gave|and|but|so|with|which|where|that)\\b)[a-z][a-z'’-]+)?)\\b`, "u"), read: (m) => set("residence", m[1]) },
  // job
  { re: new RegExp(`\\bI ${NOW}(?:got|started|landed|accepted|took) (?:a |my |the )?(?:new )?(?:job|position|role) as (?:a |an )?${ROLE}`, "u"), read: (m) => set("job", m[1]) },
  { re: new RegExp(`\\bI ${NOW}(?:got|started|landed|accepted|took) (?:a |my |the )?(?:new )?(?:job|position) (?:at|with) ${ORG}`, "u"), read: (m) => set("employer", m[1]) },
  // "I accepted the BBC offer", "I've accepted the offer from Monzo", "I start at the BBC on Monday": a job taken.
  { re: new RegExp(`\\bI(?:'ve| have)? ${NOW}accepted (?:the |an? |their )?(?:job )?(?:offer (?:from|at) ${ORG}|${ORG.replace("((?:the )?", "((?:the )?(?!offer\\b)")} (?:job )?offer\\b)`, "u"), read: (m) => set("employer", m[1] ?? m[2]) },
  { re: new RegExp(`\\bI(?:'m| am)? (?:start|starting) (?:work |my new job |the new job )?(?:at|with) ${ORG}${NOT_A_MODIFIER}`, "u"), read: (m) => set("employer", m[1]) },
  { re: new RegExp(`\\bI(?:'m| am) ${NOW}working (?:as (?:a |an )?${ROLE}|(?:at|for) ${ORG})`, "u"), read: (m) => (m[1] ? set("job", m[1]) : set("employer", m[2])) },
  { re: new RegExp(`\\bI ${NOW}work (?:as (?:a |an )?${ROLE}|(?:at|for) ${ORG})`, "u"), read: (m) => (m[1] ? set("job", m[1]) : set("employer", m[2])) },
  // "I work at the café", "I started working at the library last month": a workplace in lower case.
  { re: new RegExp(`\\bI ${NOW}(?:work|started working|began working|'m working|am working|'ve been working|have been working) (?:(?:mornings|afternoons|evenings|nights|days|weekends|shifts|part-time|full-time|part time|full time) )?(?:at|for) (?:the|a|an) ([a-z][\\p{Ll}'’-]+(?: [a-z][\\p{Ll}'’-]+)?)(?=[,.!?;:]|\\s(?:last|this|next|since|in|on|for|with|and|now|near|downtown|across|part|full|again|these)\\b|$)`, "u"), read: (m) => set("employer", m[1]) },
  { re: new RegExp(`\\bI ${NOW}(?:became|got promoted to|was promoted to) (?:a |an |the )?${ROLE}`, "u"), read: (m) => set("job", m[1]) },
  // Working for oneself, or not at all: "I'm freelancing now", "I went freelance", "I'm between jobs".
  { re: new RegExp(`\\bI(?:'m| am) (?:now |currently |still |officially )*(${Object.keys(JOB_STATUS).join("|")})\\b`, "u"), read: (m) => set("job", JOB_STATUS[m[1]!]) },
  { re: /\bI(?:'ve| have)? (?:just |finally |recently )*(?:went|gone) (freelance|self-employed)\b/u, read: (m) => set("job", JOB_STATUS[m[1]!]) },
  // "I'm retired", "I retired last spring", "I've finally retired": the job's value, as "my mom retired" is hers.
  { re: /\bI(?:'m| am|'ve| have)? (?:now |finally |officially |just |recently )*(?:been )?retired\b(?! from)/u, read: () => set("job", "retired") },
  // "still baking at Four des Capucins", "I'm still teaching at Ridgeway": a workplace by the work done there.
  { re: new RegExp(`(?:\\bI(?:'m| am) |(?:^|\\b)[Ss]till )(?:still )?(?:working|baking|teaching|cooking|nursing|coding|serving|bartending|volunteering|waitressing|interning|lecturing|training) (?:at|for) ((?:the )?[A-Z][\\p{L}&'’.-]*(?: (?:[A-Z&][\\p{L}&'’.-]*|de|des|du|la|le|van|von|of)(?= [A-Z]|$|[ ,.!?;])){0,4})${NOT_A_MODIFIER}`, "u"), read: (m) => set("employer", m[1]!.replace(/ (?:de|des|du|la|le|van|von|of)$/, "")) },
  // "still teaching Year 2 at the primary school", "I'm working weekends at Harbour Books": the work done, what it
  // is done to, then where. Not "working out", "working on a mural": exercise and projects have no employer.
  { re: new RegExp(`(?:\\bI(?:'m| am) |(?:^|\\b)[Ss]till )(?:still |now |currently )?(?:working|teaching|baking|cooking|nursing|serving|bartending|volunteering|waitressing|lecturing) (?!(?:out|on|off|from|with|for|at|in|to|up|through|hard|late)\\b)(?:[\\p{L}\\p{N}'’-]+ ){1,3}?(?:at|for) (?:(?:the|a|an) ([a-z][\\p{Ll}'’-]+(?: [a-z][\\p{Ll}'’-]+)?)(?=[,.!?;:]|\\s(?:in|on|near|downtown|across|since|now|and|with|again)\\b|$)|${ORG})`, "u"), read: (m) => set("employer", m[1] ?? m[2]) },
  { re: new RegExp(`\\bI(?:'m| am) (?:now |currently |still )?(?:a|an) ${ROLE}`, "u"), read: (m) => (GENERIC_ROLE.test(m[1]!) ? null : set("job", m[1])) },
  // "I'm now head pastry chef at a hotel": a role without an article, said to hold now, at a workplace.
  { re: new RegExp(`\\bI(?:'m| am) (?:now|currently) (?:the )?${ROLE} (?:at|for) (?:a|an|the|[A-Z])`, "u"), read: (m) => (isRole(m[1]!) ? set("job", m[1]) : null) },
  // "the hotel just made me executive pastry chef", "they promoted me to team lead"
  { re: new RegExp(`\\b(?:made|named|appointed|promoted) me (?:to |as )?(?:the |their |our )?${ROLE}`, "u"), read: (m) => (isRole(m[1]!) ? set("job", m[1]) : null) },
  // "still head chef at the hotel"; "still working out at the gym" is something done, not a role.
  { re: /(?:^|\b)[Ss]till (?:a |an |the )?([a-z][a-z-]+(?: [a-z][a-z-]+)?) (?:at|in) (?:the|a|an) /u, read: (m) => (GENERIC_ROLE.test(m[1]!) || /^\w+ing\b/.test(m[1]!) ? null : set("job", m[1])) },
  { re: new RegExp(`\\b(?:years|months) as (?:a |an |the )?${ROLE}`, "u"), read: (m) => set("job", m[1]) },
  { re: new RegExp(`\\bI(?:'ve| have) been (?:a |an |the )${ROLE}`, "u"), read: (m) => (GENERIC_ROLE.test(m[1]!) ? null : set("job", m[1])) },
  { re: new RegExp(`\\bI (?:start|started|began) (?:work |working )?as (?:a |an |the )?${ROLE}`, "u"), read: (m) => set("job", m[1]) },
  { re: /\b(?:now )?I (?:own|run|opened) (?:a |an |my own |our own )([a-z]+(?: [a-z]+)?)\b/u, read: (m) => set("job", `own ${m[1]}`) },
  { re: /\b(?:[Rr]unning|opened) (?:my|our) own ([a-z]+)\b/u, read: (m) => set("job", `own ${m[1]}`) },
  // "I quit the Musikschule", "I handed in my notice at Harcourt & Lyle": the workplace that ended, named.
  { re: new RegExp(`\\bI (?:just |finally |recently |officially )*(?:quit (?:my job (?:at|with) )?|(?:handed in|put in|gave in|gave) (?:my )?notice (?:at|to) )${ORG}`, "u"), read: (m) => end("employer", m[1]) },
  { re: /\bI (?:just |finally |recently |officially )*(?:handed|put|gave) in my notice\b(?! (?:at|to) [A-Z])/u, read: () => end("job") },
  { re: /\bI (?:just |finally |recently )*(?:quit|left|lost) (?:my job|the (?:pub|firm|school|company|office|restaurant|café|cafe|clinic|bank|agency|studio|hospital|shop|bakery|hotel|factory|lab|salon|store|supermarket|warehouse|newspaper|startup|practice|museum|library|theatre|theater|brewery|kitchen|bar|garage|workshop))\b/u, read: () => end("job") },
  // partner
  { re: new RegExp(`\\b[Mm]y (?:new )?(?:boyfriend|girlfriend|partner|husband|wife|fianc[ée]e?),? ${NAME}`, "u"), read: (m) => set("partner", m[1]), stative: true },
  { re: new RegExp(`\\bI(?:'m| am|'ve been| have been) ${NOW}(?:dating|seeing|engaged to|married to) ${NAME}`, "u"), read: (m) => set("partner", m[1]) },
  { re: new RegExp(`\\bI ${NOW}(?:started dating|married|got engaged to|got married to) ${NAME}`, "u"), read: (m) => set("partner", m[1]) },
  { re: new RegExp(`\\bI ${NOW}broke up with ${NAME}`, "u"), read: (m) => end("partner", m[1]) },
  { re: /\b(?:[Ww]e|I) (?:just |finally |recently )*(?:broke up|split up|got divorced)\b/u, read: () => end("partner") },
  { re: new RegExp(`\\b${NAME} and I (?:have been|'ve been|are|just) (?:together|engaged|married|moved in together|dating)`, "u"), read: (m) => set("partner", m[1]) },
  { re: new RegExp(`\\b${NAME} and I (?:just )?moved in together`, "u"), read: (m) => set("partner", m[1]) },
  { re: new RegExp(`\\bI(?:'ve| have) (?:started seeing|met) someone[.!,]?\\s*(?:(?:His|Her) name is )?${NAME}`, "u"), read: (m) => set("partner", m[1]) },
  { re: new RegExp(`\\b${NAME} proposed\\b`, "u"), read: (m) => set("partner", m[1]) },
  { re: /\b(?:[Ss]he|[Hh]e)(?:'s| has) been my (?:girlfriend|boyfriend|partner|wife|husband)\b/u, read: () => set("partner", "@partner") },
  // pets: additive
  { re: new RegExp(`\\b(?:I|[Ww]e) ${NOW}(?:adopted|got|rescued|brought home) (?:a |an |another )?(?:new )?(?:[A-Za-z-]+ ){0,2}${ANIMAL}(?:[^.!?]*?(?:named|called) ${NAME})?`, "u"), read: (m) => set("pet", m[2] ?? m[1], true) },
  { re: new RegExp(`\\b[Mm]eet ${NAME}\\b[^]{0,120}?\\bmy (?:new )?${ANIMAL}\\b`, "u"), read: (m) => set("pet", m[1], true), wholeTurn: true },
  { re: new RegExp(`\\b${NAME}, my (?:little |new |old )?${ANIMAL}\\b`, "u"), read: (m) => (MONTH.test(m[1]!) ? null : set("pet", m[1], true)), stative: true },
  { re: new RegExp(`\\b(?:I|[Ww]e) (?:had to )?(?:rehomed|rehome|gave away|give away) (?:my |our )?(?:${ANIMAL} )?${NAME}`, "u"), read: (m) => end("pet", m[2] ?? m[1], true) },
  { re: new RegExp(`\\b[Mm]y ${ANIMAL}(?:,? ${NAME},?)? (?:died|passed away|ran away)\\b`, "u"), read: (m) => end("pet", m[2] ?? m[1], true) },
  { re: new RegExp(`\\b(?:I|[Ww]e) (?:had to )?(?:rehome|rehomed|gave away|give away) (?:my |our )?${ANIMAL}(?: ${NAME})?`, "u"), read: (m) => end("pet", m[2] ?? m[1], true) },
  { re: new RegExp(`\\b[Mm]y ${ANIMAL},? ${NAME}`, "u"), read: (m) => set("pet", m[2], true), stative: true },
  // car
  { re: new RegExp(`\\bI ${NOW}(?:bought|got|leased|drive) (?:a |an |my )?(?:new |used |second-hand )?((?:[A-Z][\\w-]* )*${VEHICLE}\\w*(?: [A-Z0-9][\\w-]*)*)`, "iu"), read: (m) => set("car", m[1]) },
  // "I sold the Golf and bought a second-hand Toyota Hilux": the new one is the state the turn leaves.
  { re: new RegExp(`\\bI (?:sold|traded in|got rid of|scrapped) [^.!?]{1,60}? and (?:then |finally )?(?:bought|got|leased) (?:a |an )?(?:new |used |second-hand )?((?:[A-Z][\\w-]* )*${VEHICLE}\\w*(?: [A-Z0-9][\\w-]*)*)`, "u"), read: (m) => set("car", m[1]) },
  { re: new RegExp(`\\bI ${NOW}sold my (?:old )?${VEHICLE}\\b`, "iu"), read: () => end("car") },
  { re: new RegExp(`\\bI ${NOW}sold (?:the|my) (?:old )?((?:${BRAND} )?[A-Z][\\w-]*)\\b`, "u"), read: (m) => end("car", m[1]) },
  { re: new RegExp(`\\b[Mm]y (?:old |new |trusty )?(${BRAND}(?: [A-Z0-9][\\w-]*)*)`, "u"), read: (m) => set("car", m[1]) },
  { re: new RegExp(`\\b(?:bought|got|drive|leased) (?:a |an |my )?(?:new |used |second-hand |electric )?(${BRAND}(?: [A-Z0-9][\\w-]*)*)`, "u"), read: (m) => set("car", m[1]) },
  { re: new RegExp(`\\bbought (?:a |an )(?:[\\w-]+ ){0,2}(?:car|truck|bakkie|van|motorbike|motorcycle|scooter),? (?:a |an )?(${BRAND}(?: [A-Z0-9][\\w-]*)*)`, "u"), read: (m) => set("car", m[1]) },
  // diet
  { re: /\bI(?:'m| am) (?:now |currently |officially |actually )*(?:a |an )?(vegetarian|vegan|pescatarian)\b/u, read: (m) => set("diet", m[1]) },
  { re: /\b(?:I(?:'ve| have) been|[Ss]till|years|months|[Nn]ow) (?:a |an )?(vegetarian|vegan|pescatarian)\b/u, read: (m) => set("diet", m[1]) },
  { re: /\b(vegetarian|vegan|pescatarian) for good\b/iu, read: (m) => set("diet", m[1]) },
  { re: /\bI (?:no longer|don't|do not|stopped|quit|gave up) eat(?:ing)? ([a-z]+)/u, read: (m) => set(`eats ${m[1]}`, "no") },
  { re: /\bI(?:'ve| have)? (?:started|begun) eating ([a-z]+) again\b/u, read: (m) => set(`eats ${m[1]}`, "yes") },
  // favourites
  { re: /\bmy (?:new |current |all-time )*favou?rite ([a-z][\w -]{1,30}?) (?:is|these days is|right now is|now is|has to be) ([^.,!?;]+)/iu, read: (m) => set(`favourite ${m[1]!.toLowerCase()}`, m[2]) },
  { re: /\b[Mm]y (?:new |current |all-time )*favou?rite ([a-z][\w -]{1,30}?), (?!(?:I|We|You|He|She|They|It|There)\b|I['’])([A-Z][^.,!?;]+)/u, read: (m) => set(`favourite ${m[1]!.toLowerCase()}`, m[2]) },
  { re: /\b([\p{L}][\p{L}'’ -]{1,40}?), (?:it|they)(?:'s|'re| is| are) (?:still )?my (?:new )?favou?rite ([a-z]+)\b/u, read: (m) => set(`favourite ${m[2]}`, lastWords(m[1]!, 4)) },
  { re: /\bthe ([a-z][\w -]{2,30}) is (?:still )?my (drink|band|dish|food|coffee|song|show|book|game|sport|team)\b/u, read: (m) => set(`favourite ${m[2]}`, m[1]) },
  { re: /\b(?:They|It)(?:'s|'re| is| are) (?:still )?my (?:new )?favou?rite ([a-z]+)\b/u, read: (m) => set(`favourite ${m[1]}`, "@subject") },
  // hobbies: several at once (additive); quitting one ends it
  { re: /\bI(?:'ve| have) been doing ([a-z]+) (?:every|for|since|twice|three|on)\b/u, read: (m) => set("hobby", m[1], true) },
  { re: /\bI(?:'ve| have) (?:started|taken up|picked up) ([a-z]+)(?: instead)?\b/u, read: (m) => (NOT_A_HOBBY.test(m[1]!) ? null : set("hobby", m[1], true)) },
  { re: /\bI (?:quit|gave up|stopped) ([a-z]+)\b/u, read: (m) => (/^(my|the|a|an|eating|smoking|it|that|this)$/.test(m[1]!) ? null : end("hobby", m[1], true)) },
  // counts
  { re: new RegExp(`\\b(?:I|we)(?:(?:'ve| have) ${NOW}got| ${NOW}have(?: got)?) ${COUNT} ${DESCRIBED}${PLURAL}\\b`, "iu"), read: (m) => (GENERIC_COUNTED.has(m[2]!.toLowerCase()) ? null : set(`number of ${m[2]!.toLowerCase()}`, String(numberOf(m[1]!)))) },
  // "between work and the two kids", "our three dogs": the family's own, counted ("the three dogs" may be anyone's)
  { re: new RegExp(`\\b(?:(?:[Mm]y|[Oo]ur) ${COUNT} ((?:grand)?(?:kids|children|sons|daughters)|dogs|cats|pets)|[Tt]he ${COUNT} ((?:grand)?(?:kids|children)))\\b`, "u"), read: (m) => set(`number of ${(m[2] ?? m[4])!.toLowerCase()}`, String(numberOf((m[1] ?? m[3])!))), stative: true },
  // "I'm down to seven students", "the vet is dropping him to 1.5 units": a count changed to a new value
  { re: new RegExp(`\\b(?:that makes|that's|so that's|(?:(?:dropp|lower|reduc|rais|increas|bump|cutt)(?:ed|ing) (?:(?:him|her|it|them|me|us) )?|cut (?:(?:him|her|it|them|me|us) )?)?(?:down |up |back )?to) ${COUNT} ${DESCRIBED}${PLURAL}\\b`, "iu"), read: (m) => (GENERIC_COUNTED.has(m[2]!.toLowerCase()) ? null : set(`number of ${m[2]!.toLowerCase()}`, String(numberOf(m[1]!)))) },
  { re: new RegExp(`\\bI(?:'ve| have) ${NOW}(?:completed|finished|watched|read|tried|visited|run|taken|done) ${COUNT} (?:different )?([a-z]+)\\b`, "iu"), read: (m) => (GENERIC_COUNTED.has(m[2]!.toLowerCase()) ? null : set(`${m[2]!.toLowerCase()} done`, String(numberOf(m[1]!)))) },
];

// "I'm a bit tired", "still the best": not a job.
const GENERIC_ROLE = /^(bit|lot|little|big|huge|fan|mess|wreck|best|same|one|way|good|great|long|new|few|mom|mum|dad|parent|mother|father|believer|member|morning person|night owl)\b/;
const MONTH = /^(January|February|March|April|May|June|July|August|September|October|November|December)$/;
const NOT_A_HOBBY = /^(seeing|dating|working|looking|thinking|feeling|going|to|a|an|the|my|eating|using|taking|getting|making|trying|planning|learning)$/;
const GENERIC_COUNTED = new Set(["ones", "times", "of", "more", "or", "and", "days", "weeks", "months", "years", "hours", "minutes", "seconds", "things", "questions", "ideas", "options", "thoughts", "tips", "friends", "words"]);
// "I'm moving next month", "I will", "I'm going to", "I plan to": a plan states no state yet.
const PLAN = /\b(going to|gonna|will|plan(?:ning)? to|(?:I'm|I am|we're|we are) (?:thinking|considering) (?:of|about)|hope to|want to|might|probably|next (?:week|month|year|spring|summer|autumn|fall|winter))\b|'ll\b/i;
const TRAILING = /\b(now|so far|these days|right now|again|currently|anymore|lately|recently|too|instead)\b.*$/i;


/** A role's head word is a person's: "head pastry chef", "team lead" — not "happy" or "busy" ("it made me happy"). */
const ROLE_HEAD = /(?:er|or|ist|ian|ant|ent|chef|nurse|cook|lead|head|principal|clerk|officer|captain|coach|intern|apprentice|owner|director|associate|analyst|architect|pilot|chief|partner|editor|engineer|assistant)$/;
function isRole(role: string): boolean {
  return !GENERIC_ROLE.test(role) && ROLE_HEAD.test(role);
}

function numberOf(word: string): number {
  return /^\d+(?:\.\d+)?$/.test(word) ? Number(word) : (NUMBER_WORD_VALUES[word.toLowerCase()] ?? Number.NaN);
}

function clean(value: string): string {
  return value
    .replace(TRAILING, "")
    .replace(/[.,!?;:]+$/, "")
    .replace(/^(the|a|an)\s+/i, "")
    .replace(/['’]s$/, "")
    .replace(/\s+/g, " ")
    .trim()
    .toLowerCase();
}

function lastWords(text: string, n: number): string {
  return text.trim().split(/\s+/).slice(-n).join(" ");
}

// What "here", "she" and "they" stand for, from elsewhere in the same turn.
const PLACE_IN_TURN = new RegExp(`\\b(?:from|in|to) ${PLACE}`, "u");
const PARTNER_IN_TURN = new RegExp(`\\b${NAME} and I\\b`, "u");
const NAMED_THING_BEFORE = /([A-Z][\p{L}'’-]+(?: [A-Z][\p{L}'’-]+)*)[^A-Z]*$/u;

function resolve(value: string, turn: string, before: string): string | null {
  if (value === "@here") return PLACE_IN_TURN.exec(turn)?.[1]?.toLowerCase() ?? null;
  if (value === "@partner") return PARTNER_IN_TURN.exec(turn)?.[1]?.toLowerCase() ?? null;
  if (value === "@subject") {
    const m = NAMED_THING_BEFORE.exec(before);
    return m && !/^(And|But|So|They|It|Actually|Also)$/.test(m[1]!) ? m[1]!.toLowerCase() : null;
  }
  return value;
}

/** A question that restates what the speaker did ("remember when I…?", "did I tell you that I…?"). */
const RESTATED = /\b(?:remember|recall) (?:when|that|how) (?=(?:I|we)\b)|\b(?:did I|have I) (?:tell|told|mention|mentioned) (?:you )?(?:that )?(?=(?:I|we)\b)/;

/**
 * A count asked for in the turn before ("How many hives do you have now?")
 * and given bare in this one ("Eleven!", "About 20 now."): the answer states
 * the count, as "I have eleven hives" would.
 */
const ASKED_COUNT = new RegExp(`\\bhow many (?:[a-z]+ )?${PLURAL}\\b([^?]*)\\?`, "i");
const BARE_COUNT = new RegExp(`^(?:(?:oh|um|well|hmm|haha|ha|yes|yeah|so|now|just|about|around|exactly|currently|still)[,!.]?\\s+)*${COUNT}\\b(?:\\s+(?:now|so far|at the moment|right now|currently|in total|total))?\\s*[.!]`, "iu");

function answeredCount(text: string, speaker: string, askedBefore: string | undefined): StateStatement | null {
  if (!askedBefore) return null;
  const found = ASKED_COUNT.exec(askedBefore);
  // Of the one answering: "…do you have?", or elliptical ("How many hives now?"); not "how many people came?".
  const asked = found && (/\byour?\b/i.test(found[2]!) || found[2]!.trim().split(/\s+/).filter(Boolean).length <= 2) ? found : null;
  const given = asked ? BARE_COUNT.exec(text.trim()) : null;
  if (!asked || !given) return null;
  const thing = asked[1]!.toLowerCase();
  const n = numberOf(given[1]!);
  if (GENERIC_COUNTED.has(thing) || Number.isNaN(n)) return null;
  return { subject: speaker, slot: `number of ${thing}`, value: String(n), additive: false, ends: false, evidence: `${asked[0].trim()} — ${given[0].trim()}` };
}

/**
 * The state statements of one turn by `speaker`, each slot once (the first
 * statement of it in the turn): the named slots first; a sentence none of
 * them reads may still give a value to something of the speaker's (open-world,
 * extract-open-states.ts); what the speaker says of other people follows
 * (extract-others-states.ts). A question or a plan states nothing, save a
 * possessive ("my cat Pistache will stay…"). `askedBefore` is the turn before
 * when another speaker said it: a bare answer states what it asked ("How
 * many hives do you have now?" — "Eleven!").
 */
/** The other person the turn's statements so far were last about (a name, not a relation), for a pronoun to stand for. */
function otherPerson(out: readonly StateStatement[], speaker: string): string | null {
  const other = out.filter((st) => st.subject.toLowerCase() !== speaker.toLowerCase() && !/'s /.test(st.subject)).at(-1);
  return other?.subject ?? null;
}

export function extractStates(text: string, speaker: string, askedBefore?: string): StateStatement[] {
  const out: StateStatement[] = [];
  // Each key's place in `out`.
  const seen = new Map<string, number>();
  const add = (st: StateStatement) => {
    // An additive slot may hold several values in one turn ("I quit pottery, I've started bouldering").
    const key = `${st.subject.toLowerCase()}\u0000${st.slot}${st.additive ? `\u0000${st.value}` : ""}`;
    const earlier = seen.get(key);
    // "I left the bakery! I'm now head pastry chef at a hotel": the value the turn ends on is its state.
    if (earlier !== undefined && out[earlier]!.ends && !st.ends && !st.additive) {
      out[earlier] = st;
      return true;
    }
    if (earlier !== undefined) return false;
    seen.set(key, out.length);
    out.push(st);
    return true;
  };
  let offset = 0;
  // Clauses, not sentences: "My sister lives in Berlin, and I want to visit her" states one thing and plans another.
  for (const whole of text.split(/(?<=[.!?])\s+|\n+|;\s+|,\s+(?=(?:and|but|so)\s+(?:I|we|my|our|they|he|she|it|you)\b)/i)) {
    const at = text.indexOf(whole, offset);
    offset = at >= 0 ? at + whole.length : offset;
    // "…remember when I got pre-approved for $400,000?" asks nothing: it restates a fact, which is read alone.
    const restated = RESTATED.exec(whole);
    const sentence = restated ? whole.slice(restated.index) : whole;
    const sentenceAt = Math.max(0, at) + (restated?.index ?? 0);
    // A plan in the sentence states nothing by verb, but a possessive still holds ("my cat Pistache will stay with the neighbours").
    const planned = PLAN.test(sentence);
    let named = false;
    for (const rule of RULES) {
      if (rule.wholeTurn || (planned && !rule.stative)) continue;
      const m = rule.re.exec(sentence);
      if (!m) continue;
      const read = rule.read(m);
      if (!read) continue;
      const value = resolve(read.value, text, text.slice(0, sentenceAt + m.index));
      if (value === null || (value === "" && !read.ends)) continue;
      named = add({ subject: speaker, ...read, value, evidence: m[0].trim() }) || named;
    }
    if (planned || (/\?\s*$/.test(sentence) && !restated)) continue;
    const before = text.slice(0, sentenceAt);
    if (!named) for (const st of extractOpenStates(sentence, speaker, before)) add(st);
    const others = [...extractOthersStates(sentence, speaker, before), ...extractRelations(sentence, speaker)];
    for (const st of others) add(st);
    // "She's been in Leeds since uni", "He's a proper paramedic now": of the person this turn last named or told of.
    // Else of the person the other speaker just asked about ("Any news from Elodie?" — "She's still in Leeds").
    for (const st of extractPronounStates(sentence, before, speaker, () => otherPerson(out, speaker) ?? askedPerson(askedBefore, speaker), new Set(others.map((o) => o.slot)))) add(st);
  }
  // Rules over the turn, and a bare answer to the count asked before: after the clauses', so a clause's own reading wins.
  for (const rule of RULES) {
    if (!rule.wholeTurn) continue;
    const m = rule.re.exec(text);
    const read = m ? rule.read(m) : null;
    if (m && read && read.value !== "") add({ subject: speaker, ...read, evidence: m[0].trim() });
  }
  const answer = answeredCount(text, speaker, askedBefore);
  if (answer) add(answer);
  return out;
}
