import { readFileSync } from "node:fs";

let cached: string | undefined;

/** The version in package.json (two levels above this file, in src/ and in dist/ alike). */
export function packageVersion(): string {
  cached ??= (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }).version;
  return cached;
}
