import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { chromium, type BrowserContext } from "playwright-core";

/**
 * Where the browser tests run, decided once per test file, as the Postgres
 * tests decide (store/postgres/testing/postgres-test-target.ts):
 * - Debian's chromium at CHROMIUM_PATH: they run (on a build of the UI of their own, buildUi);
 * - otherwise they are skipped with the reason, or, in CI (CI=true or
 *   RAMEM_REQUIRE_BROWSER=1), reported as one failing test with it.
 */
export const CHROMIUM_PATH = process.env.RAMEM_CHROMIUM ?? "/usr/bin/chromium";

/** Off the network: no update checks, sync, QUIC probes or field trials; headless, no GPU. */
export const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export type BrowserTestTarget = { run: true } | { skip: string } | { fail: string };

function probe(env: NodeJS.ProcessEnv): BrowserTestTarget {
  const required = env.RAMEM_REQUIRE_BROWSER === "1" || env.CI === "true";
  const unusable = (reason: string): BrowserTestTarget => (required ? { fail: `${env.CI === "true" ? "CI=true" : "RAMEM_REQUIRE_BROWSER=1"} but ${reason}` } : { skip: reason });
  if (!existsSync(CHROMIUM_PATH)) return unusable(`no chromium at ${CHROMIUM_PATH} (install it: apt-get install -y chromium; or set RAMEM_CHROMIUM)`);
  return { run: true };
}

export const browserTestTarget: BrowserTestTarget = probe(process.env);

/** `describe(name, body)` when a browser can run; otherwise one skipped (or, when required, one failing) test with the reason. */
export function describeWithBrowser(name: string, body: () => void): void {
  const t = browserTestTarget;
  if ("run" in t) describe(name, body);
  else if ("fail" in t)
    it(name, () => {
      throw new Error(t.fail);
    });
  else it(name, { skip: t.skip }, () => {});
}

export interface LaunchedBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

/**
 * One chromium per test file, with a fresh profile in a temp folder.
 * bypassCSP lets axe-core be injected into the page (the page's own CSP
 * allows no injected script); the header itself is checked by the REST test.
 */
export async function launchBrowser(): Promise<LaunchedBrowser> {
  const profile = mkdtempSync(join(tmpdir(), "ramem-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_FLAGS,
    viewport: { width: 1280, height: 900 },
    bypassCSP: true,
    timeout: 30_000,
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Builds the inspector from its sources into a temp folder, for the test's
 * server: the tests see the code as it is, and never the dist/ that the
 * packaging test rebuilds (cleaning it first) while other files run.
 */
export async function buildUi(): Promise<{ dir: string; remove(): void }> {
  const dir = mkdtempSync(join(tmpdir(), "ramem-ui-build-"));
  const { build } = await import("vite");
  await build({ configFile: fileURLToPath(new URL("../web/vite.config.ts", import.meta.url)), logLevel: "error", build: { outDir: dir, emptyOutDir: true } });
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
