import { z } from "zod";
import { MemoryUnit } from "../model/memory-unit.js";
import { Session } from "../model/conversation.js";
import type { ReaderOptions, ReadResult } from "./types.js";
import { at, badInput, checkNamespace, parseJson } from "./shared.js";
import { sessionFromUnits } from "./session-from-units.js";

/** The first line of a `ramem export` file, as far as re-ingesting needs it. */
const Header = z.object({ format: z.literal("ramem-export"), namespace: z.string() });
const Line = z.discriminatedUnion("type", [
  z.object({ type: z.literal("session"), session: Session }),
  z.object({ type: z.literal("unit"), unit: MemoryUnit }),
]);

/** Whether a file's first line says it is a ramem export. */
export function looksLikeRamemExport(head: string): boolean {
  return /^\s*\{[^\n]*"format"\s*:\s*"ramem-export"/.test(head.replace(/^\uFEFF/, ""));
}

/**
 * A `ramem export` file read as a conversation: the sessions with their
 * turns re-derived from the units' verbatim sources, ready to be anchored
 * and embedded afresh (a better anchorer, another embedder). `ramem import`
 * restores an export as it was; this re-derives it.
 */
export function readRamemExport(text: string, opts: ReaderOptions = {}): ReadResult {
  const source = opts.source ?? "export";
  const lines = text.split("\n").map((l, i) => [i + 1, l.trim()] as const).filter(([, l]) => l !== "");
  if (lines.length === 0) throw badInput(source, "the export is empty", "export a namespace with `ramem export --namespace NS`");
  const header = Header.safeParse(parseJson(lines[0]![1], at(source, "line 1")));
  if (!header.success) throw badInput(at(source, "line 1"), "not a ramem export header", 'the first line of an export is { "format": "ramem-export", ... }');
  const namespace = opts.namespace === undefined ? checkNamespace(header.data.namespace, at(source, "line 1", "namespace")) : checkNamespace(opts.namespace, "namespace option");
  const sessions: Array<{ session: Session; units: MemoryUnit[]; line: number }> = [];
  for (const [n, raw] of lines.slice(1)) {
    const line = Line.safeParse(parseJson(raw, at(source, `line ${n}`)));
    if (!line.success) throw badInput(at(source, `line ${n}`, ...line.error.issues[0]!.path.map(String)), line.error.issues[0]!.message, "an export line is a session or a unit line as `ramem export` writes them");
    if (line.data.type === "session") sessions.push({ session: { ...line.data.session, namespace }, units: [], line: n });
    else if (sessions.length === 0) throw badInput(at(source, `line ${n}`), "a unit line before any session line", "each session line comes before its units");
    else sessions.at(-1)!.units.push(line.data.unit);
  }
  return {
    conversations: [{ namespace, sessions: sessions.map((s) => sessionFromUnits(s.session, s.units, at(source, `line ${s.line}`))) }],
    report: { dropped: [] },
  };
}
