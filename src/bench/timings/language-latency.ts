// Speed of the offline language layer on real text, printed (not asserted:
// timings belong to benchmarks, not to unit tests).
// Usage: node --import tsx src/bench/timings/language-latency.ts [locomo10.json]
import { resolve } from "node:path";
import { readConversationFile } from "../../formats/conversation-file.js";
import { extractEntities } from "../../language/entities.js";
import { induceFrame } from "../../induction/induce-frame.js";

const path = resolve(process.argv[2] ?? "../shared/datasets/locomo/locomo10.json");
const { conversations } = await readConversationFile(path, { format: "locomo" });
const first = conversations[0]!;
const turns = first.sessions.flatMap((s) => s.turns.map((t) => t.text));
const questions = (first.questions ?? []).map((q) => q.question);
const starts = first.sessions.map((s) => s.session.startTime).sort();
const ends = first.sessions.map((s) => s.session.endTime).sort();
const history = { start: starts[0]!, end: ends[ends.length - 1]! };
const knownPeople = [...new Set(first.sessions.flatMap((s) => s.session.participants))];

extractEntities(turns[0]!); // compromise builds its lexicon lazily
let t0 = performance.now();
for (const t of turns) extractEntities(t);
const perTurn = (performance.now() - t0) / turns.length;

await induceFrame(questions[0]!, { history, knownPeople });
t0 = performance.now();
for (const q of questions) await induceFrame(q, { history, knownPeople });
const perQuery = (performance.now() - t0) / questions.length;

console.log(
  JSON.stringify(
    { data: path, turns: turns.length, extractEntitiesMsPerTurn: +perTurn.toFixed(3), questions: questions.length, induceFrameMsPerQuery: +perQuery.toFixed(3) },
    null,
    2,
  ),
);
