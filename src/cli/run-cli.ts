import { Command, CommanderError } from "commander";
import { COMMANDS } from "./commands/registry.js";
import { cliIo, processIo, withCliIo, type CliIo } from "./io.js";
import { packageVersion } from "../util/package-version.js";

const HELP_AFTER = `
Examples:
  ramem demo
  ramem ingest --format locomo locomo10.json
  ramem ingest --format messages chat.jsonl --namespace my-agent
  ramem recall --namespace conv-26 "When did Caroline go to the LGBTQ support group?"
  ramem ask --namespace conv-26 "What did Caroline do after the adoption meeting?"
  ramem stats --json
  ramem forget session s1 --namespace conv-26 --yes

Environment:
  RAMEM_DB                    default for --db (else ./ramem.db)
  RAMEM_STORE                 default for --store: a postgres:// URL (or a SQLite file); wins over RAMEM_DB
  RAMEM_EMBEDDINGS_MODEL      use an OpenAI-compatible embeddings endpoint instead of the offline model
  RAMEM_EMBEDDINGS_BASE_URL   (with RAMEM_EMBEDDINGS_API_KEY) where that endpoint is; default OpenAI
  RAMEM_LLM_MODEL             OpenAI-compatible chat model (optional: answers with \`ramem ask\`)
  RAMEM_LLM_BASE_URL          (with RAMEM_LLM_API_KEY) e.g. http://127.0.0.1:11434/v1 for Ollama`;

/**
 * Builds `ramem` for one invocation: every command is listed, but only the
 * one being run (or asked for help) is loaded (commands/registry.ts).
 */
async function buildProgram(argv: readonly string[]): Promise<Command> {
  const io = cliIo();
  const program = new Command("ramem")
    .description(
      "Long-term memory for LLM agents: stores conversations as memory units anchored in their episode " +
        "(when, who, where, which session) and recalls evidence from the right episode. Offline by default.",
    )
    .version(packageVersion())
    .showHelpAfterError("(run with --help for usage)")
    .addHelpText("after", HELP_AFTER);
  const first = argv.find((a) => !a.startsWith("-"));
  const wanted = first === "help" ? argv.filter((a) => !a.startsWith("-"))[1] : first;
  for (const entry of COMMANDS) {
    if (entry.name === wanted) program.addCommand(await entry.load());
    else program.command(`${entry.name}${entry.args ? ` ${entry.args}` : ""}`).description(entry.summary);
  }
  // Usage errors (unknown option value, missing argument) are user errors: exit 2 like every other one.
  const configure = (cmd: Command): void => {
    cmd.exitOverride();
    cmd.configureOutput({ writeOut: (s) => io.out(s), writeErr: (s) => io.err(s) });
    cmd.commands.forEach(configure);
  };
  configure(program);
  return program;
}

/**
 * Runs `ramem` with `argv` (the arguments after the program name) and
 * returns its exit code: what the bin does, and what tests call in-process
 * with an io that collects the output.
 */
export async function runCli(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  return withCliIo(io, async () => {
    try {
      const program = await buildProgram(argv);
      await program.parseAsync([...argv], { from: "user" });
    } catch (err) {
      if (!(err instanceof CommanderError)) throw err;
      if (err.exitCode !== 0) io.err("  hint: every command explains its options: ramem <command> --help\n");
      io.exitCode = err.exitCode === 0 ? 0 : 2;
    }
    return io.exitCode;
  });
}
