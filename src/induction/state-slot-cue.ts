import { PLURAL } from "../language/state-patterns.js";

/**
 * Which state a question asks about: "where does she live" → residence, "what
 * is his job" → job or employer, "who is she dating" → partner, "what does he
 * drive" → car, "how many beehives" → number of beehives. The slot names are
 * those language/extract-states.ts gives statements, so a question can be
 * answered from the statements of that slot (valid now, or valid then).
 *
 * The question must ask for the state's value: a slot word alone is not
 * enough. "What are the breeds of Audrey's dogs?", "What is Jon working on
 * opening?" or "Which cars does Dave like?" are about the dogs, the work, the
 * cars, and their answer is no statement of the slot: answered from the
 * slot's statements, they cost LoCoMo D@1 0.022 (0.422 → 0.444).
 */
const SLOT_QUESTIONS: Array<[RegExp, string[]]> = [
  // "Does Ana still live in Berlin?", "Do I still work at Monzo?": a yes-or-no question about the value is one about the slot.
  [/\bwhere\b[^?]*\b(?:live|lives|living|lived|reside|resides|resided|based)\b|\b(?:which|what) (?:city|town|country|village|part of town|neighbou?rhood|area|suburb)\b[^?]*\b(?:live|lives|living|lived|based)\b|\bhome ?town\b|^\s*(?:do|does|did|is|are)\s+(?:\S+\s+){1,3}?(?:still\s+)?(?:live|living)\s+in\b/i, ["residence"]],
  [
    /\b(?:what|which)(?:['’]s|\s+(?:is|was|are|were))\s+\S+\s+(?:job|jobs|profession|occupation|position|role|employer)\b|\bdo(?:es)?\s+(?:\S+\s+){0,4}do\s+for\s+(?:a\s+)?(?:living|work)\b|\bwhere\s+(?:does|did|do)\s+(?:\S+\s+){1,4}?work\b|\bwhat\s+(?:job|work)\s+(?:does|did|do)\b|^\s*(?:do|does|did|is|are)\s+(?:\S+\s+){1,3}?(?:still\s+)?(?:work|working)\s+(?:at|for)\b/i,
    ["job", "employer"],
  ],
  [/\bwho\b[^?]*\b(?:dating|partner|boyfriend|girlfriend|husband|wife|married to|engaged to|seeing)\b/i, ["partner"]],
  [/\bwhat\s+(?:pets?|animals?|dogs?|cats?)\b[^?]*\b(?:have|has|had|own|owns|keep|keeps)\b|\b(?:does|did|do)\s+\S+\s+have\s+(?:a\s+|any\s+)?(?:pets?|dogs?|cats?)\b/i, ["pet"]],
  [/\bwhat\s+(?:car|cars|vehicle|kind of car)\b[^?]*\b(?:drive|drives|drove|have|has|had|own|owns|ride|rides)\b|\bwhat\s+(?:does|did)\s+\S+\s+(?:ride or )?drive\b/i, ["car"]],
  [/\b(?:eat|eats|eating|ate)\s+(?:meat|fish)\b|\b(?:vegetarian|vegan|pescatarian)\b|\bdiet\b/i, ["diet", "eats meat", "eats fish"]],
  [/\bwhat\s+(?:hobby|hobbies|pastime)\b/i, ["hobby"]],
];

export interface StateSlotCue {
  slots: string[];
  evidence: string;
}

const HOW_MANY_MODIFIED = new RegExp(`\\bhow many (?:[a-z]+ )?${PLURAL}\\b(?<!\\b(?:does|is|was|has))`, "i");
const HOW_MANY = new RegExp(`\\bhow many ${PLURAL}\\b`, "i");

export function findStateSlot(query: string): StateSlotCue | null {
  const count = HOW_MANY_MODIFIED.exec(query) ?? HOW_MANY.exec(query);
  if (count) return { slots: [`number of ${count[1]!.toLowerCase()}`, `${count[1]!.toLowerCase()} done`], evidence: count[0] };
  const favourite = /\bfavou?rite ([a-z]+)\b/i.exec(query);
  if (favourite) return { slots: [`favourite ${favourite[1]!.toLowerCase()}`], evidence: favourite[0] };
  for (const [re, slots] of SLOT_QUESTIONS) {
    const m = re.exec(query);
    if (m) return { slots, evidence: m[0] };
  }
  return null;
}
