import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

/**
 * Where the built inspector is (`npm run build` → vite → dist/ui/). Run from
 * the package this module is dist/server/ui/, from a checkout (tsx) it is
 * src/server/ui/: the same dist/ui/ is two or three levels up. Null when the
 * UI was never built.
 */
export function findUiAssets(candidates: readonly URL[] = [new URL("../../ui/", import.meta.url), new URL("../../../dist/ui/", import.meta.url)]): string | null {
  for (const dir of candidates) {
    const path = fileURLToPath(dir);
    if (existsSync(`${path}index.html`)) return path;
  }
  return null;
}
