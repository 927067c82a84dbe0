import type { z } from "zod";
import { RamemError } from "../model/errors.js";
import { echoValue } from "../model/echo-value.js";
import type { UnitRecord } from "../store/contract.js";
import type { Session } from "../model/conversation.js";
import { ExportHeader, SessionLine, UnitLine, EXPORT_FORMAT, decodeEmbedding } from "./export-format.js";

export interface ParsedExport {
  header: ExportHeader;
  sessions: Array<{ session: Session; contentHash: string; units: UnitRecord[] }>;
}

/**
 * Reads and checks a whole export before anything is written: every line's
 * shape, that units follow their session, unique ids, vector sizes and the
 * header's counts (a truncated file is refused, not half-imported).
 */
export function parseExport(text: string, source = "export"): ParsedExport {
  const lines = text.split("\n").map((l, i) => ({ no: i + 1, text: l.trim() })).filter((l) => l.text !== "");
  if (lines.length === 0) throw bad(source, "the export is empty", `the first line must be a header { "format": "${EXPORT_FORMAT}", ... }`);
  const header = parseLine(ExportHeader, lines[0]!, source, "header");
  const sessions: ParsedExport["sessions"] = [];
  const sessionIds = new Set<string>();
  const unitIds = new Set<string>();
  let unitCount = 0;
  for (const line of lines.slice(1)) {
    const raw = json(line, source);
    const type = typeof raw === "object" && raw !== null ? (raw as { type?: unknown }).type : undefined;
    if (type === "session") {
      const s = parseLine(SessionLine, line, source, "session line", raw);
      if (s.session.namespace !== header.namespace) {
        throw bad(`${source}:${line.no}`, `session ${echoValue(s.session.id)} is in namespace ${s.session.namespace}, the header says ${header.namespace}`, "export files hold one namespace");
      }
      if (sessionIds.has(s.session.id)) throw bad(`${source}:${line.no}`, `session ${echoValue(s.session.id)} appears twice`, "each session has one line");
      sessionIds.add(s.session.id);
      sessions.push({ session: s.session, contentHash: s.contentHash, units: [] });
    } else if (type === "unit") {
      const u = parseLine(UnitLine, line, source, "unit line", raw);
      const current = sessions.at(-1);
      const where = `${source}:${line.no}`;
      if (!current || current.session.id !== u.unit.provenance.sessionId || u.unit.context.session.sessionId !== u.unit.provenance.sessionId) {
        throw bad(where, `unit ${echoValue(u.unit.id)} does not follow the line of its session ${echoValue(u.unit.provenance.sessionId)}`, "unit lines come right after their session's line");
      }
      if (u.unit.namespace !== header.namespace) throw bad(where, `unit ${echoValue(u.unit.id)} is in namespace ${u.unit.namespace}, the header says ${header.namespace}`, "export files hold one namespace");
      if (unitIds.has(u.unit.id)) throw bad(where, `unit ${echoValue(u.unit.id)} appears twice`, "each unit has one line");
      unitIds.add(u.unit.id);
      const embedding = decodeEmbedding(u.embedding);
      if (embedding.length !== header.dimensions || !embedding.every(Number.isFinite)) {
        throw bad(where, `unit ${echoValue(u.unit.id)} has a ${embedding.length}-value embedding; the header says ${header.dimensions}`, "the file is damaged: export it again");
      }
      current.units.push({ unit: u.unit, embedding });
      unitCount++;
    } else {
      throw bad(`${source}:${line.no}`, `line ${line.no} is neither a session nor a unit line`, 'every line after the header has "type": "session" or "unit"');
    }
  }
  if (sessions.length !== header.sessions || unitCount !== header.units) {
    throw bad(source, `the header announces ${header.sessions} sessions and ${header.units} units, the file holds ${sessions.length} and ${unitCount}`, "the file is truncated or edited: export it again");
  }
  return { header, sessions };
}

function json(line: { no: number; text: string }, source: string): unknown {
  try {
    return JSON.parse(line.text);
  } catch (err) {
    throw bad(`${source}:${line.no}`, `malformed JSON on line ${line.no}: ${(err as Error).message}`, "each line is one complete JSON object");
  }
}

function parseLine<T>(schema: z.ZodType<T>, line: { no: number; text: string }, source: string, what: string, raw: unknown = json(line, source)): T {
  const r = schema.safeParse(raw);
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  const path = issue.path.map(String).join(".") || "(line)";
  throw bad(`${source}:${line.no}`, `invalid ${what}: ${path}: ${issue.message}`, what === "header" ? `the first line must be a header written by \`ramem export\` (format "${EXPORT_FORMAT}")` : "the file is damaged or not a ramem export");
}

function bad(where: string, message: string, hint: string): RamemError {
  return new RamemError("BAD_EXPORT", message, { where, hint: `${hint}; nothing was imported` });
}
