import { Command } from "commander";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { openMemory, type EmbedderName } from "../../open-memory.js";
import { readConversationFile } from "../../formats/conversation-file.js";
import { hitToJson, renderFrame, renderHit } from "../render.js";
import { parsePositiveInt, runAction } from "../shared.js";
import { cliOut } from "../io.js";

export const SAMPLE_FILE = fileURLToPath(new URL("../../../examples/sample-conversation.json", import.meta.url));

const DEMO_QUERIES = [
  "What did Nadia do in Lisbon in 2023?",
  "When did Nadia go to Lisbon?",
  "What happened with Tom's pottery?",
  "What did Tom adopt?",
];

export function demoCommand(): Command {
  return new Command("demo")
    .description(`Ingest the bundled sample conversation (${"examples/sample-conversation.json"}) and run a few recalls. Offline, a few seconds.`)
    .option("--db <path>", "keep the demo store in this SQLite file (default: a temporary file, removed afterwards)")
    .option("--embedder <name>", "use-lite (default, offline) or hash", "use-lite")
    .option("-k, --k <n>", "units per query", parsePositiveInt("--k"), 3)
    .option("--json", "machine-readable output")
    .action(async (opts: { db?: string; embedder: EmbedderName; k: number; json?: boolean }) =>
      runAction(opts.json, async () => {
        const dir = opts.db ? null : mkdtempSync(join(tmpdir(), "ramem-demo-"));
        const memory = await openMemory({ db: opts.db ?? join(dir!, "demo.db"), embedder: opts.embedder, languageModel: null });
        try {
          const { conversations } = await readConversationFile(SAMPLE_FILE, { format: "native" });
          const sessions = conversations.flatMap((c) => c.sessions);
          const report = await memory.ingest(sessions);
          const namespace = sessions[0]!.session.namespace;
          const results = [];
          for (const query of DEMO_QUERIES) results.push({ query, ...(await memory.recall(query, { namespace, k: opts.k })) });
          if (opts.json) {
            cliOut(`${JSON.stringify({ ingest: report, results: results.map((r) => ({ query: r.query, frame: r.frame, hits: r.hits.map(hitToJson) })) })}\n`);
            return;
          }
          cliOut(
            `ramem demo — ${report.sessions} sessions, ${report.turns} turns → ${report.unitsWritten} memory units ` +
              `(embedder ${memory.embedder.id}, store ${memory.store.location}, ${report.seconds.toFixed(1)} s)\n`,
          );
          for (const r of results) cliOut(`\n? ${r.query}\n${r.frame ? `${renderFrame(r.frame, r.hits)}\n` : ""}${r.hits.map(renderHit).join("\n")}\n`);
        } finally {
          await memory.close();
          if (dir) rmSync(dir, { recursive: true, force: true });
        }
      }),
    );
}
