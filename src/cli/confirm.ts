import { createInterface } from "node:readline/promises";
import { RamemError } from "../model/errors.js";

export interface ConfirmStreams {
  input: NodeJS.ReadableStream & { isTTY?: boolean };
  output: NodeJS.WritableStream;
}

/**
 * Asks a yes/no question on the terminal; only "y" or "yes" is a yes. With no
 * terminal to ask (a pipe, a script, a process manager) it refuses rather than
 * guess: a destructive command then needs an explicit --yes.
 */
export async function confirmOnTerminal(question: string, streams: ConfirmStreams = { input: process.stdin, output: process.stderr }): Promise<boolean> {
  if (!streams.input.isTTY) {
    throw new RamemError("CONFIRMATION_REQUIRED", `${question.replace(/\s*\[y\/N\]\s*$/, "")}: there is no terminal to ask, so nothing was deleted`, {
      hint: "pass --yes to confirm without a prompt",
    });
  }
  const rl = createInterface({ input: streams.input, output: streams.output, terminal: false });
  try {
    const answer = await rl.question(question);
    return /^\s*y(es)?\s*$/i.test(answer);
  } finally {
    rl.close();
  }
}
