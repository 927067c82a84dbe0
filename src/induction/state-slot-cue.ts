/**
 * Which state a question asks about: "where does she live" → residence, "what
 * is his job" → job or employer, "who is she dating" → partner, "what does he
 * drive" → car, "how many beehives" → number of beehives. The slot names are
 * those language/extract-states.ts gives statements, so a question can be
 * answered from the statements of that slot (valid now, or valid then).
 */
const SLOT_WORDS: Array<[RegExp, string[]]> = [
  [/\b(live|lives|living|reside|resides|home town|based)\b/i, ["residence"]],
  [/\b(job|jobs|work|works|working|for a living|profession|career|position|role|employer)\b/i, ["job", "employer"]],
  [/\b(partner|dating|date|boyfriend|girlfriend|husband|wife|married|engaged|seeing|relationship)\b/i, ["partner"]],
  [/\b(pets?|dogs?|cats?|animals?)\b/i, ["pet"]],
  [/\b(drive|drives|driving|car|cars|vehicle)\b/i, ["car"]],
  [/\b(eat|eats|eating|diet|vegetarian|vegan|pescatarian|meat|fish)\b/i, ["diet", "eats meat", "eats fish"]],
  [/\b(hobby|hobbies|pastime|into these days)\b/i, ["hobby"]],
];

export interface StateSlotCue {
  slots: string[];
  evidence: string;
}

export function findStateSlot(query: string): StateSlotCue | null {
  const count = /\bhow many (?:[a-z]+ )?([a-z]+s)\b(?<!\b(?:does|is|was|has))/i.exec(query) ?? /\bhow many ([a-z]+s)\b/i.exec(query);
  if (count) return { slots: [`number of ${count[1]!.toLowerCase()}`, `${count[1]!.toLowerCase()} done`], evidence: count[0] };
  const favourite = /\bfavou?rite ([a-z]+)\b/i.exec(query);
  if (favourite) return { slots: [`favourite ${favourite[1]!.toLowerCase()}`], evidence: favourite[0] };
  for (const [re, slots] of SLOT_WORDS) {
    const m = re.exec(query);
    if (m) return { slots, evidence: m[0] };
  }
  return null;
}
