import type { SessionWithTurns, Turn } from "../../model/conversation.js";
import { seededRandom } from "../../util/seeded-random.js";

export interface GeneratedNamespace {
  namespace: string;
  sessions: SessionWithTurns[];
}

export interface GeneratedQuery {
  namespace: string;
  question: string;
  /** When the question is asked: after the namespace's last session. */
  questionDate: string;
}

export interface GeneratedCorpus {
  namespaces: GeneratedNamespace[];
  /** Questions about the first namespace (the one the scale bench times). */
  queries: GeneratedQuery[];
  turns: number;
}

export interface GenerateOptions {
  seed: number;
  /** Turns in all (the rule anchorer makes about one unit per turn), split evenly over the namespaces. */
  turns: number;
  namespaces: number;
  queries: number;
  turnsPerSession?: number;
}

const PEOPLE = ["Alice", "Bruno", "Chen", "Dana", "Emeka", "Farah", "Giulia", "Hiro", "Ines", "Jonas", "Kavya", "Luis", "Mira", "Nils", "Oona", "Pavel", "Quinn", "Rosa", "Sami", "Tamar", "Uma", "Viktor", "Wen", "Yusuf", "Zoe"];
const PLACES = ["Lisbon", "Porto", "Berlin", "Kyoto", "Austin", "Nairobi", "Montreal", "Oslo", "Seville", "Lyon", "Denver", "Melbourne", "Hanoi", "Cusco", "Tallinn", "Galway"];
const VENUES = ["the farmers market", "the climbing gym", "the old library", "the harbour", "the community garden", "the jazz bar", "the science museum", "the lake trail", "the night market", "the pottery studio", "the football ground", "the bakery on Elm Street"];
const ACTIVITIES = ["went hiking", "took a pottery class", "ran a half marathon", "played chess", "went birdwatching", "baked sourdough", "visited a gallery", "went kayaking", "volunteered at the shelter", "tried a new ramen place", "went to a concert", "painted a landscape", "fixed my bike", "planted tomatoes", "read a mystery novel", "watched a documentary about whales"];
const FEELINGS = ["exhausted but happy", "really proud", "a bit nervous", "so relaxed", "surprisingly calm", "thrilled", "homesick", "grateful"];
const JOBS = ["nurse", "software engineer", "teacher", "chef", "architect", "photographer", "accountant", "marine biologist", "librarian", "carpenter"];
const PETS = ["a beagle", "a grey cat", "two goldfish", "a parrot", "a rescue greyhound", "a rabbit"];
const HOBBIES = ["salsa dancing", "rock climbing", "knitting", "astronomy", "woodworking", "surfing", "calligraphy", "beekeeping"];
const RECURRING = ["book club", "yoga class", "choir rehearsal", "pub quiz", "five-a-side football", "language exchange"];
const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];
const TAILS: ReadonlyArray<(who: string, venue: string) => string> = [
  (who) => `Say hi to ${who} from me.`,
  (_, venue) => `We should meet at ${venue} soon.`,
  (who) => `${who} told me something similar last week.`,
  (_, venue) => `I haven't been to ${venue} in ages.`,
  (who, venue) => `${who} and I went to ${venue} once.`,
];
const REPLIES = ["That sounds wonderful, tell me more!", "Oh wow, how did that go?", "I'm so glad you did that.", "Was it as good as last time?", "That must have been a long day.", "Haha, that's so you.", "Did you take any pictures?", "I'd love to join next time."];

const DAY = 86_400_000;

/**
 * Seeded conversations that look like a person's chats over years: one owner
 * per namespace talking with friends, sessions about every day or two,
 * activities at places and venues with dates ("last Tuesday", "on 3 May"),
 * recurring events, and state changes (moves, jobs, pets, hobbies) that later
 * statements supersede. The same options give the same corpus, byte for byte.
 */
export function generateConversations(options: GenerateOptions): GeneratedCorpus {
  const rnd = seededRandom(options.seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const perSession = options.turnsPerSession ?? 20;
  const perNamespace = Math.max(1, Math.floor(options.turns / options.namespaces));
  const namespaces: GeneratedNamespace[] = [];
  const queries: GeneratedQuery[] = [];
  let turns = 0;
  for (let n = 0; n < options.namespaces; n++) {
    const namespace = `scale-${n}`;
    const owner = PEOPLE[n % PEOPLE.length]!;
    const friends = PEOPLE.filter((p) => p !== owner);
    const sessions: SessionWithTurns[] = [];
    let clock = Date.UTC(2019, 0, 1, 18, 0) + Math.floor(rnd() * 30) * DAY;
    const state = { city: pick(PLACES), job: pick(JOBS), pet: pick(PETS), hobby: pick(HOBBIES) };
    const said: Array<{ question: string; at: number }> = [];
    for (let s = 0, made = 0; made < perNamespace; s++) {
      clock += (1 + Math.floor(rnd() * 2)) * DAY + Math.floor(rnd() * 3_600_000);
      const friend = pick(friends);
      const start = new Date(clock).toISOString();
      const count = Math.min(perSession, perNamespace - made);
      const out: Turn[] = [];
      for (let t = 0; t < count; t++) {
        const ownerSpeaks = t % 2 === 0;
        const text = ownerSpeaks ? ownerLine(clock, state) : t % 4 === 1 ? `${pick(REPLIES)} ${pick(TAILS)(pick(PEOPLE), pick(VENUES))}` : friendLine();
        out.push({ id: `s${s}:t${t}`, speaker: ownerSpeaks ? owner : friend, text, time: new Date(clock + t * 60_000).toISOString() });
      }
      made += count;
      sessions.push({ session: { id: `s${s}`, namespace, startTime: start, endTime: new Date(clock + count * 60_000).toISOString(), participants: [owner, friend] }, turns: out });
      if (n === 0 && rnd() < 0.2) said.push({ question: questionFor(owner, friend, clock), at: clock });
    }
    turns += sessions.reduce((m, x) => m + x.turns.length, 0);
    if (n === 0) {
      const asked = new Date(clock + DAY).toISOString();
      const fixed = [`Where does ${owner} live now?`, `What is ${owner}'s job now?`, `What pet does ${owner} have?`, `Which hobby did ${owner} pick up most recently?`];
      for (let q = 0; q < options.queries; q++) {
        const question = q < fixed.length ? fixed[q]! : (said.length ? pick(said).question : `What did ${owner} do with ${pick(friends)}?`);
        queries.push({ namespace, question, questionDate: asked });
      }
    }
    namespaces.push({ namespace, sessions });
  }
  return { namespaces, queries, turns };

  function ownerLine(at: number, state: { city: string; job: string; pet: string; hobby: string }): string {
    const r = rnd();
    const when = new Date(at - (1 + Math.floor(rnd() * 6)) * DAY);
    const day = WEEKDAYS[when.getUTCDay() === 0 ? 6 : when.getUTCDay() - 1]!;
    if (r < 0.04) {
      state.city = pick(PLACES.filter((p) => p !== state.city));
      return `Big news: I moved to ${state.city} last ${day}, the flat is tiny but I love it.`;
    }
    if (r < 0.07) {
      state.job = pick(JOBS.filter((j) => j !== state.job));
      return `I started a new job as a ${state.job} this week, my first day was ${day}.`;
    }
    if (r < 0.09) {
      state.pet = pick(PETS.filter((p) => p !== state.pet));
      return `We adopted ${state.pet} on ${day}, the whole house smells of it already.`;
    }
    if (r < 0.12) {
      state.hobby = pick(HOBBIES.filter((h) => h !== state.hobby));
      return `I took up ${state.hobby} recently and I'm hooked.`;
    }
    if (r < 0.22) return `I go to ${pick(RECURRING)} every ${day} now, it's the highlight of my week.`;
    if (r < 0.55) return `Last ${day} I ${pick(ACTIVITIES)} at ${pick(VENUES)} in ${state.city} with ${pick(PEOPLE)}, and I felt ${pick(FEELINGS)}.`;
    if (r < 0.75) return `On ${when.getUTCDate()} ${when.toLocaleString("en-GB", { month: "long", timeZone: "UTC" })} I ${pick(ACTIVITIES)} near ${pick(VENUES)}.`;
    if (r < 0.88) return `Work as a ${state.job} has been ${pick(FEELINGS)} lately, and ${state.pet} keeps me company.`;
    return `Do you remember when we ${pick(ACTIVITIES)} in ${pick(PLACES)}? I still think about it.`;
  }

  function friendLine(): string {
    const r = rnd();
    if (r < 0.5) return `I ${pick(ACTIVITIES)} too, at ${pick(VENUES)}, it was ${pick(FEELINGS).replace(/^a bit /, "")}.`;
    return `My sister is visiting ${pick(PLACES)} next month for ${pick(RECURRING)}, can you believe it?`;
  }

  function questionFor(owner: string, friend: string, at: number): string {
    const r = rnd();
    const month = new Date(at).toLocaleString("en-GB", { month: "long", year: "numeric", timeZone: "UTC" });
    if (r < 0.3) return `What did ${owner} do in ${month}?`;
    if (r < 0.5) return `When did ${owner} ${baseForm(pick(ACTIVITIES))}?`;
    if (r < 0.7) return `What did ${owner} tell ${friend} about ${pick(VENUES)}?`;
    if (r < 0.85) return `Where did ${owner} live in ${month}?`;
    return `How often does ${owner} go to ${pick(RECURRING)}?`;
  }
}

const BASE: Record<string, string> = { went: "go", took: "take", ran: "run", played: "play", baked: "bake", visited: "visit", volunteered: "volunteer", tried: "try", painted: "paint", fixed: "fix", planted: "plant", read: "read", watched: "watch" };

/** "went hiking" → "go hiking": the question's verb form. */
function baseForm(activity: string): string {
  const [verb = "", ...rest] = activity.split(" ");
  return [BASE[verb] ?? verb, ...rest].join(" ");
}
