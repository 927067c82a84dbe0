import { AsyncLocalStorage } from "node:async_hooks";

/**
 * Where a CLI run writes: the process's stdout and stderr for the `ramem`
 * bin, a test's buffers for runCli in-process. Commands write through
 * `cliOut`/`cliErr` and set their exit code with `setExitCode`, never on
 * `process` directly, so one process can run many CLI invocations (the test
 * suite runs most CLI tests so: spawning a process per test was most of its
 * time).
 */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  exitCode: number;
  /** Whether stderr is a terminal (progress bars only there). */
  isTTY: boolean;
}

const current = new AsyncLocalStorage<CliIo>();

export function processIo(): CliIo {
  return {
    out: (text) => void process.stdout.write(text),
    err: (text) => void process.stderr.write(text),
    exitCode: 0,
    isTTY: process.stderr.isTTY === true,
  };
}

const fallback = processIo();

export function cliIo(): CliIo {
  return current.getStore() ?? fallback;
}

export function withCliIo<T>(io: CliIo, run: () => Promise<T>): Promise<T> {
  return current.run(io, run);
}

export function cliOut(text: string): void {
  cliIo().out(text);
}

export function cliErr(text: string): void {
  cliIo().err(text);
}

export function setExitCode(code: number): void {
  cliIo().exitCode = code;
}
