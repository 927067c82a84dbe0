/**
 * Resolves with the reason a long-running command (`ramem serve`) should stop
 * cleanly: SIGINT, SIGTERM, or — when npm started it (`npx ramem serve`, an
 * npm script) — its parent exiting. npm runs the bin through `sh -c`, and a
 * SIGTERM to npm ends npm and that shell but never reaches node: without this
 * the server would keep serving, orphaned. Under a process manager, run the
 * bin directly (`node_modules/.bin/ramem serve`), so the signal reaches it.
 */
export function waitForShutdown(options: { env?: NodeJS.ProcessEnv; pollMs?: number } = {}): Promise<string> {
  const env = options.env ?? process.env;
  return new Promise((resolve) => {
    const stop = (reason: string) => {
      process.off("SIGINT", onInt);
      process.off("SIGTERM", onTerm);
      if (watch) clearInterval(watch);
      resolve(reason);
    };
    const onInt = () => stop("SIGINT");
    const onTerm = () => stop("SIGTERM");
    process.once("SIGINT", onInt);
    process.once("SIGTERM", onTerm);
    let watch: NodeJS.Timeout | undefined;
    if (env.npm_command !== undefined) {
      const parent = process.ppid;
      // Reparented (to init or a subreaper): whoever started us is gone.
      watch = setInterval(() => process.ppid !== parent && stop("its parent (npm) exited"), options.pollMs ?? 250);
      watch.unref();
    }
  });
}
