import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { chromium, type BrowserContext } from "playwright-core";
import { findUiAssets } from "../find-ui-assets.js";

/**
 * Where the browser tests run, decided once per test file, as the Postgres
 * tests decide (store/postgres/testing/postgres-test-target.ts):
 * - Debian's chromium at CHROMIUM_PATH and a built UI (dist/ui): they run;
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
  if (!findUiAssets()) return unusable("the inspector is not built (dist/ui/index.html is missing): run npm run build");
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
