/**
 * The docs a reader follows: every relative link in README.md,
 * ARCHITECTURE.md, docs/**.md and the folder READMEs (src/**, datasets/**)
 * points to a file or folder that exists, and a link with an anchor
 * (`page.md#section`, `#section`) to a heading of that page (GitHub's slugs).
 * External links (https:, mailto:) are not fetched. And the README stays a
 * five-minute read: at most 300 lines.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const README_MAX_LINES = 300;

/** Markdown files under `dir` (recursively when `deep`), skipping build output and dependencies. */
function markdownFiles(dir: string, deep: boolean, only?: (name: string) => boolean): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name === "dist" || entry.name.startsWith(".")) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (deep) out.push(...markdownFiles(path, deep, only));
    } else if (entry.name.endsWith(".md") && (!only || only(entry.name))) out.push(path);
  }
  return out.sort();
}

export function docFiles(root = ROOT): string[] {
  return [
    join(root, "README.md"),
    join(root, "ARCHITECTURE.md"),
    ...markdownFiles(join(root, "docs"), true),
    ...markdownFiles(join(root, "src"), true, (n) => n === "README.md"),
    ...markdownFiles(join(root, "datasets"), true, (n) => n === "README.md"),
  ].filter((f) => existsSync(f));
}

/** The text outside fenced code blocks and inline code, line numbers kept. */
function proseLines(text: string): string[] {
  return proseLinesKeepingCode(text).map((line) => line.replace(/(`+)[\s\S]*?\1/g, (s) => " ".repeat(s.length)));
}

export interface DocLink {
  file: string;
  line: number;
  target: string;
}

/** Inline links and images `[text](target)` / `![alt](target "title")`, and reference definitions `[id]: target`. */
export function linksIn(file: string, text: string): DocLink[] {
  const links: DocLink[] = [];
  proseLines(text).forEach((line, i) => {
    for (const m of line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) links.push({ file, line: i + 1, target: m[1]! });
    const def = /^\s{0,3}\[[^\]]+\]:\s+<?(\S+?)>?(?:\s+"[^"]*")?\s*$/.exec(line);
    if (def) links.push({ file, line: i + 1, target: def[1]! });
  });
  return links;
}

/** GitHub's heading anchor: the heading's text, lowercased, punctuation dropped, spaces → hyphens. */
export function slug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/<[^>]+>/g, "")
    .replace(/[`*]/g, "")
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, "").replace(/ /g, "-");
}

/** Every anchor a page offers: its headings' slugs (repeats get -1, -2, …) and explicit `<a id|name>`s. */
export function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseLinesKeepingCode(text)) {
    const h = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (h) {
      const base = slug(h[1]!);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      anchors.add(n === 0 ? base : `${base}-${n}`);
    }
    for (const a of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(a[1]!);
  }
  return anchors;
}

/** Lines outside fenced code blocks, inline code kept (a heading's `code` is part of its slug). */
function proseLinesKeepingCode(text: string): string[] {
  let fence: string | null = null;
  return text.split("\n").map((line) => {
    const m = /^\s*(`{3,}|~{3,})/.exec(line);
    if (m) {
      if (fence === null) fence = m[1]![0]!;
      else if (m[1]![0] === fence) fence = null;
      return "";
    }
    return fence === null ? line : "";
  });
}

/** What is wrong with one link, or null. */
export function checkLink(link: DocLink, readText: (path: string) => string = (p) => readFileSync(p, "utf8")): string | null {
  const { target } = link;
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("//")) return null; // https:, mailto:, …
  const hash = target.indexOf("#");
  const pathPart = decodeURIComponent(hash === -1 ? target : target.slice(0, hash));
  const anchor = hash === -1 ? null : decodeURIComponent(target.slice(hash + 1));
  const path = pathPart === "" ? link.file : resolve(dirname(link.file), pathPart);
  if (!existsSync(path)) return `${pathPart} does not exist`;
  if (anchor === null || anchor === "") return null;
  if (statSync(path).isDirectory() || !path.endsWith(".md")) return null; // anchors checked in Markdown pages only
  const anchors = anchorsOf(readText(path));
  return anchors.has(anchor.toLowerCase()) ? null : `${relative(ROOT, path)} has no heading #${anchor}`;
}

export function brokenLinks(files: readonly string[]): string[] {
  const broken: string[] = [];
  for (const file of files) {
    for (const link of linksIn(file, readFileSync(file, "utf8"))) {
      const problem = checkLink(link);
      if (problem) broken.push(`${relative(ROOT, file)}:${link.line}: (${link.target}) ${problem}`);
    }
  }
  return broken;
}

describe("the docs' relative links", () => {
  it("finds the pages: README.md, ARCHITECTURE.md, docs/ and the folder READMEs", () => {
    const files = docFiles().map((f) => relative(ROOT, f));
    for (const page of ["README.md", "ARCHITECTURE.md", "docs/benchmarks.md", "docs/experiments.md", "src/server/README.md"]) assert.ok(files.includes(page), `checks ${page}`);
  });

  it("every relative link points to an existing file, and every anchor to a heading", () => {
    const files = docFiles();
    const total = files.reduce((n, f) => n + linksIn(f, readFileSync(f, "utf8")).length, 0);
    assert.ok(total > 50, `found ${total} links`);
    assert.deepEqual(brokenLinks(files), []);
  });

  it("the checker catches a missing file and a missing anchor, and ignores code and external links", () => {
    const file = join(ROOT, "README.md");
    const text = [
      "[ok](docs/benchmarks.md) [ok](docs/benchmarks.md#scale) [ok](#results) [ext](https://example.com/nope)",
      "[gone](docs/no-such-page.md) [bad anchor](docs/benchmarks.md#no-such-heading)",
      "`[in code](nope.md)`",
      "```",
      "[in a fence](nope.md)",
      "```",
    ].join("\n");
    const problems = linksIn(file, text).map((l) => checkLink(l)).filter((p) => p !== null);
    assert.deepEqual(problems, ["docs/no-such-page.md does not exist", "docs/benchmarks.md has no heading #no-such-heading"]);
  });

  it("slugs headings as GitHub does", () => {
    assert.equal(slug("Benchmark rounds, 2026-11-30 to 2026-12-02"), "benchmark-rounds-2026-11-30-to-2026-12-02");
    assert.equal(slug("Vercel AI SDK (`ramem/ai-sdk`)"), "vercel-ai-sdk-ramemai-sdk");
    assert.equal(slug("Sequences: next, before, again; subjects' own words"), "sequences-next-before-again-subjects-own-words");
    assert.deepEqual([...anchorsOf("# A\n## A\n```\n# not a heading\n```\n")], ["a", "a-1"]);
  });

  it(`README.md is a five-minute read: at most ${README_MAX_LINES} lines`, () => {
    const lines = readFileSync(join(ROOT, "README.md"), "utf8").replace(/\n$/, "").split("\n").length;
    assert.ok(lines <= README_MAX_LINES, `README.md has ${lines} lines; move detail under docs/`);
  });
});
