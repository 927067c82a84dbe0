/**
 * English irregular verbs, each as its forms that no stemmer joins ("ran" and
 * "run", "bought" and "buy"). A question asks with the base form ("When did
 * Maya run her first marathon?") of what a memory told in the past ("I ran my
 * first marathon"). Forms a Porter stem already joins (baked, baking) and verbs
 * whose forms are one word (put, cut, quit) need no entry.
 */
const GROUPS = `run ran|go went gone|buy bought|eat ate eaten|see saw seen|meet met|take took taken|get got gotten|give gave given
make made|tell told|say said|find found|leave left|feel felt|keep kept|begin began begun|write wrote written|drive drove driven
fly flew flown|swim swam swum|sing sang sung|win won|lose lost|sell sold|build built|teach taught|catch caught|think thought
bring brought|fight fought|spend spent|send sent|lend lent|hold held|stand stood|wear wore worn|choose chose chosen
break broke broken|speak spoke spoken|wake woke woken|ride rode ridden|fall fell fallen|forget forgot forgotten|grow grew grown
know knew known|draw drew drawn|throw threw thrown|pay paid|sleep slept|sit sat|hear heard|lead led|feed fed|become became
come came|drink drank drunk|hang hung|dig dug|shoot shot|stick stuck|sweep swept|bend bent|light lit|bite bit bitten
hide hid hidden|shake shook shaken|steal stole stolen|freeze froze frozen|blow blew blown|tear tore torn|seek sought|weep wept`;

const FORMS = new Map<string, readonly string[]>();
for (const group of GROUPS.split(/[|\n]/)) {
  const forms = group.trim().split(" ");
  for (const form of forms) FORMS.set(form, forms);
}

/** Every form of the irregular verb `word` is one of ("ran" → run, ran), or null for any other word. */
export function irregularForms(word: string): readonly string[] | null {
  return FORMS.get(word.toLowerCase()) ?? null;
}
