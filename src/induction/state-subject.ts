import { resolveSubject } from "../anchoring/derive-validity.js";
import { KIN_WORDS, RELATION } from "../language/state-patterns.js";

/**
 * Whose state a question asks about: "where does my sister live?" → the
 * asker's sister; "where does Ines's sister live?" → Ines's sister; "where
 * does Ana live?" → Ana; "how long have I been using…" → the asker. The
 * statements of that subject answer it (retrieval resolves a relation to a
 * name through the namespace's relation statements); without one, any
 * speaker's statement may.
 */
export interface StateSubject {
  /** The relation asked about ("sister"), of the asker or of `of`. */
  relation?: string;
  /** Whose relation: a name, when the question says ("Ines's sister"); absent: the asker's. */
  of?: string;
  /** A person named as the subject. */
  name?: string;
  /** The asker themself ("I", "my"). */
  self?: boolean;
  evidence: string;
}

const REL = RELATION.replace(/^\(\?:/, "(?:");
const MY_RELATION = new RegExp(`\\b(?:my|our) ${REL}\\b`, "i");
const NAMED_RELATION = new RegExp(`\\b([A-Z][\\p{Ll}'’-]+)['’]s? ${REL}\\b`, "u");
/** "my friend Josie", "Maren's cousin Elodie": the relation names whose; the name, who. */
const RELATION_THEN_NAME = new RegExp(`\\b(?:[Mm]y|[Oo]ur|[A-Z][\\p{Ll}'’-]+['’]s?) ${REL},? ([A-Z][\\p{Ll}'’-]+)\\b`, "u");
const SELF = /\b(?:I|I'm|I've|my|me|mine|we|our)\b/;

/** `knownPeople`: the namespace's people, so that "Ana" is a subject only when someone by that name is known. */
export function findStateSubject(query: string, knownPeople: readonly string[] = []): StateSubject | null {
  // A relation followed by a name asks about the named person: statements name them either way (the alias resolves).
  const relationThenName = RELATION_THEN_NAME.exec(query);
  if (relationThenName) return { name: relationThenName[2]!.replace(/['’]s$/, ""), evidence: relationThenName[0] };
  const mine = MY_RELATION.exec(query);
  if (mine) return { relation: mine[1]!.toLowerCase(), evidence: mine[0] };
  const theirs = NAMED_RELATION.exec(query);
  if (theirs) return { relation: theirs[2]!.toLowerCase(), of: theirs[1]!, evidence: theirs[0] };
  // A known person anywhere; else the asker when the question says I or my; else a capitalised word
  // not leading it (retrieval ignores a name no statement has as its subject: "Lisbon" in "was Lisbon fun?").
  const known = new Set(knownPeople.map((p) => p.toLowerCase().split(/\s+/)[0]));
  const names = [...query.matchAll(/\b([A-Z][\p{Ll}'’-]+)/gu)].map((m) => ({ name: m[1]!.replace(/['’]s$/, ""), at: m.index, evidence: m[0] }));
  const person = names.find((n) => known.has(n.name.toLowerCase()));
  if (person) return { name: person.name, evidence: person.evidence };
  const self = SELF.exec(query);
  if (self) return { self: true, evidence: self[0] };
  const named = names.find((n) => n.at > 0 && n.name !== "I");
  return named ? { name: named.name, evidence: named.evidence } : null;
}

/** One word per kin: "dad" and "father", "Oma" and "grandmother" are the same person's names. */
function sameKin(relation: string): (other: string) => boolean {
  const canonical = (word: string) => KIN_WORDS[word] ?? word;
  const wanted = canonical(relation.toLowerCase());
  return (other) => canonical(other) === wanted;
}

/**
 * Whether a statement's subject is the one asked about. `aliasOf` resolves
 * relations to names ("ines's sister" → "ana"); `speaker` is who said the
 * statement (the asker's own states are those their speaker states of
 * themself). No subject asked: any.
 */
export function isSubjectAsked(asked: StateSubject | null, subject: string, speaker: string, aliasOf: ReadonlyMap<string, string>): boolean {
  if (!asked) return true;
  const resolved = resolveSubject(subject, aliasOf);
  if (asked.relation) {
    // "my father" asks of whom the statements call "dad".
    const kin = sameKin(asked.relation);
    // Of a named person, or of whoever asks (the speaker of the statement, in a chat with one user).
    const owner = asked.of?.toLowerCase();
    const matches = (relation: string) => {
      const at = relation.lastIndexOf("'s ");
      return at >= 0 && kin(relation.slice(at + 3)) && (owner === undefined || relation.slice(0, at) === owner);
    };
    if (matches(subject.toLowerCase())) return true;
    return [...aliasOf].some(([relation, name]) => name === resolved && matches(relation));
  }
  if (asked.name) {
    const name = asked.name.toLowerCase();
    return resolved === name || resolved.split(/\s+/)[0] === name || (aliasOf.get(name) ?? "") === resolved;
  }
  return subject.toLowerCase() === speaker.toLowerCase();
}
