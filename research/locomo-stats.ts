// Reports what the LoCoMo reader makes of a real file, to check it against the
// published totals. Usage: node --import tsx research/locomo-stats.ts [path]
import { resolve } from "node:path";
import { readConversationFile } from "../src/formats/conversation-file.js";

const path = resolve(process.argv[2] ?? "../shared/datasets/locomo/locomo10.json");
const { conversations, report } = await readConversationFile(path, { format: "locomo" });
const sessions = conversations.reduce((n, c) => n + c.sessions.length, 0);
const turns = conversations.reduce((n, c) => n + c.sessions.reduce((m, s) => m + s.turns.length, 0), 0);
const questions = conversations.flatMap((c) => c.questions ?? []);
const perCategory: Record<string, number> = {};
for (const q of questions) perCategory[q.category] = (perCategory[q.category] ?? 0) + 1;
const withImages = conversations.reduce((n, c) => n + c.sessions.reduce((m, s) => m + s.turns.filter((t) => t.attachments).length, 0), 0);
console.log(JSON.stringify({ conversations: conversations.length, sessions, turns, turnsWithImage: withImages, questions: questions.length, perCategory, noEvidence: questions.filter((q) => q.evidence.length === 0).length }, null, 2));
console.log(`dropped evidence: ${report.dropped.length}`);
for (const d of report.dropped) console.log(`  ${d.questionId}  ${JSON.stringify(d.raw)}  ${d.reason}`);
console.log(`repaired evidence: ${report.repaired?.length ?? 0}`);
for (const r of report.repaired ?? []) console.log(`  ${r.questionId}  ${JSON.stringify(r.raw)} -> ${r.ids.join(", ")}`);
for (const w of report.warnings ?? []) console.log(`warning: ${w}`);
