import { readFile, stat } from "node:fs/promises";
import { basename, extname } from "node:path";
import type { FormatName, ReadOptions, ReadResult } from "./types.js";
import { looksLikeMessages, readMessagesJson, readMessagesJsonl } from "./messages.js";
import { RamemError } from "../model/errors.js";
import { readLocomo } from "./locomo.js";
import { readLongMemEval } from "./longmemeval.js";
import { readNativeJson, readNativeJsonl } from "./native.js";
import { looksLikeRamemExport, readRamemExport } from "./ramem-export.js";
import { parseJson } from "./shared.js";
import { decodeUtf8 } from "../util/decode-utf8.js";
import { checkArgs, checkFields } from "../model/check-args.js";

export type { BenchmarkQuestion, ConversationInput, EvidenceParseReport, FormatName, ReadOptions, ReaderOptions, ReadResult } from "./types.js";

/** How many leading characters detection looks at; the readers always get the whole file. */
export const DETECT_BYTES = 64 * 1024;

/**
 * Guesses the format from the extension and the first bytes. Key names are
 * the tell: LoCoMo samples start with "qa" and carry "dia_id", LongMemEval
 * items start with "question_id". Throws rather than guess when nothing fits,
 * because a wrong guess produces confusing errors from the wrong reader.
 */
export function detectFormat(path: string, firstBytes: string): FormatName {
  const ext = extname(path).toLowerCase();
  if (looksLikeRamemExport(firstBytes)) return "export";
  const head = firstBytes.replace(/^\uFEFF/, "");
  if (looksLikeMessages(head)) return "messages";
  if (ext === ".jsonl" || ext === ".ndjson") return "native";
  if (/"(question_id|haystack_sessions|haystack_session_ids)"\s*:/.test(head)) return "longmemeval";
  if (/"(sample_id|dia_id|speaker_a|session_1_date_time)"\s*:/.test(head) || /^\s*\[\s*\{\s*"qa"\s*:/.test(head)) return "locomo";
  if (/"(sessions|turns)"\s*:/.test(head)) return "native";
  // Several objects on their own lines with no enclosing array: JSONL with another extension.
  if (/^\s*\{[^\n]*\}\s*\n\s*\{/.test(head)) return "native";
  throw new RamemError("UNKNOWN_FORMAT", "cannot tell the format of this file", {
    where: path,
    hint: 'pass the format explicitly (format "native", "messages", "locomo", "longmemeval" or "export"); a native file has a top-level "sessions" array, see src/formats/README.md',
  });
}

/**
 * Reads and validates a whole conversation file. Nothing is returned unless
 * every session in the file is valid, so callers never ingest half a file.
 */
export async function readConversationFile(path: string, opts: ReadOptions = {}): Promise<ReadResult> {
  checkArgs("readConversationFile", { path: [path, "string"] });
  checkFields("readConversationFile", "opts", opts, "object?", { format: "string?", namespace: "string?" });
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new RamemError(code === "ENOENT" ? "FILE_NOT_FOUND" : "BAD_INPUT", `cannot read the file: ${(err as Error).message}`, {
      where: path,
      hint: code === "ENOENT" ? "check the path (relative paths start at the current directory)" : "check that the path is a readable file",
      cause: err,
    });
  }
  // Invalid UTF-8 is refused with its line and column, never stored as U+FFFD.
  const text = decodeUtf8(bytes, path);
  const format = opts.format === undefined || opts.format === "auto" ? detectFormat(path, text.slice(0, DETECT_BYTES)) : opts.format;
  const source = path;
  const readerOpts = opts.namespace === undefined ? { source } : { source, namespace: opts.namespace };
  switch (format) {
    case "native": {
      const ext = extname(path).toLowerCase();
      const looksLikeJsonl = ext === ".jsonl" || ext === ".ndjson" || (ext !== ".json" && /^\s*\{[^\n]*\}\s*\n\s*\{/.test(text));
      return looksLikeJsonl ? readNativeJsonl(text, readerOpts) : readNativeJson(parseJson(text, source), readerOpts);
    }
    case "messages": {
      const ext = extname(path).toLowerCase();
      const jsonl = ext === ".jsonl" || ext === ".ndjson" || (ext !== ".json" && /^\s*\{[^\n]*\}\s*\n\s*\{/.test(text));
      const mtime = (await stat(path)).mtime;
      const options = { ...readerOpts, sessionId: basename(path, extname(path)), undatedTime: mtime };
      return jsonl ? readMessagesJsonl(text, options) : readMessagesJson(parseJson(text, source), options);
    }
    case "locomo":
      return readLocomo(parseJson(text, source), readerOpts);
    case "longmemeval":
      return readLongMemEval(parseJson(text, source), readerOpts);
    case "export":
      return readRamemExport(text, readerOpts);
  }
}
