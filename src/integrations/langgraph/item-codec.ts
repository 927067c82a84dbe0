/**
 * How a LangGraph store item lives in ramem (README.md in this folder): one
 * ramem session per item, its identity, namespace and JSON value in the
 * session's metadata, and the text LangGraph's `index.fields` select as its
 * turns. No LangGraph import here, so the mapping can be read and tested alone.
 */
import { createHash } from "node:crypto";
import { RamemError } from "../../model/errors.js";
import { MAX_METADATA_BYTES, type Metadata } from "../../model/metadata.js";
import { MAX_TURN_CHARS } from "../../model/conversation.js";
import type { StoredSession } from "../../store/contract.js";

/** The metadata keys of an item's session (units inherit them, so recall hits carry the item). */
export const META = {
  key: "lgKey",
  value: "lgValue",
  depth: "lgDepth",
  indexed: "lgIndexed",
  /** `lg0`, `lg1`, …: one key per namespace label, so a namespace prefix is an equality filter inside the store's search. */
  label: (i: number) => `lg${i}`,
} as const;

/** The LangGraph identity of an item. */
export interface ItemRef {
  namespace: string[];
  key: string;
}

/** An item read back from its session. */
export interface DecodedItem extends ItemRef {
  value: Record<string, unknown>;
  createdAt: Date;
  updatedAt: Date;
  indexed: boolean;
  sessionId: string;
}

/**
 * The session id of an item: a hash of (namespace, key), because a key is any
 * string (a session id is at most 200 characters) and the same item must land
 * on the same session so that a put replaces it. JSON of the pair keeps
 * ["a", "b:c"] and ["a:b", "c"] apart.
 */
export function sessionIdOf(ref: ItemRef): string {
  return `lg-${createHash("sha256").update(JSON.stringify([ref.namespace, ref.key])).digest("hex").slice(0, 40)}`;
}

/** A stable string for grouping ops of one item in a batch (last put wins). */
export function refKey(ref: ItemRef): string {
  return JSON.stringify([ref.namespace, ref.key]);
}

/**
 * The session metadata of an item. The value is kept as its JSON text: a
 * caller's value may use keys ramem metadata refuses (spaces, dots) and
 * nests freely, and the text read back is the text written.
 */
export function encodeMetadata(ref: ItemRef, value: Record<string, unknown>, indexed: boolean): Metadata {
  let json: string;
  try {
    json = JSON.stringify(value);
  } catch (err) {
    throw new RamemError("BAD_VALUE", `the value of ${JSON.stringify(ref.key)} is not JSON: ${(err as Error).message}`, {
      where: "value",
      hint: "a store value is a JSON object (no cycles, no BigInt); nothing was stored",
      cause: err,
    });
  }
  const metadata: Metadata = { [META.key]: ref.key, [META.value]: json, [META.depth]: ref.namespace.length, [META.indexed]: indexed };
  ref.namespace.forEach((label, i) => (metadata[META.label(i)] = label));
  const bytes = Buffer.byteLength(JSON.stringify(metadata), "utf8");
  if (bytes > MAX_METADATA_BYTES) {
    throw new RamemError("VALUE_TOO_LARGE", `the item ${JSON.stringify(ref.key)} is ${bytes} bytes as JSON with its namespace and key; at most ${MAX_METADATA_BYTES} are kept per item`, {
      where: "value",
      hint: "store large documents as several items (one per section), or keep the document elsewhere and store a reference; nothing was stored",
    });
  }
  return metadata;
}

/** The item a session (or a unit's inherited metadata) holds, or null when it is not one of this adapter's. */
export function decodeMetadata(metadata: Metadata | undefined): Omit<DecodedItem, "createdAt" | "updatedAt" | "sessionId"> | null {
  if (!metadata) return null;
  const key = metadata[META.key];
  const json = metadata[META.value];
  const depth = metadata[META.depth];
  if (typeof key !== "string" || typeof json !== "string" || typeof depth !== "number") return null;
  const namespace: string[] = [];
  for (let i = 0; i < depth; i++) {
    const label = metadata[META.label(i)];
    if (typeof label !== "string") return null;
    namespace.push(label);
  }
  return { namespace, key, value: JSON.parse(json) as Record<string, unknown>, indexed: metadata[META.indexed] !== false };
}

export function decodeSession(session: StoredSession): DecodedItem | null {
  const item = decodeMetadata(session.metadata);
  if (!item) return null;
  return { ...item, createdAt: new Date(session.startTime), updatedAt: new Date(session.endTime), sessionId: session.id };
}

/**
 * The texts of a value that ramem anchors and embeds, one turn each, as
 * LangGraph's index paths select them. "$" (the default) and a path that
 * selects an object or array give its scalar leaves one per line, not its
 * JSON (InMemoryStore embeds the JSON): the anchorer reads prose, and braces
 * and quotes would only be noise in its entities and topics.
 */
export function indexedTexts(value: unknown, paths: readonly string[]): string[] {
  const texts: string[] = [];
  for (const path of paths) {
    for (const found of valuesAtPath(value, path)) {
      const text = searchableText(leavesText(found)).trim();
      if (text) texts.push(...splitLong(text));
    }
  }
  return texts;
}

/**
 * Turn text is stored text (model/stored-text.ts: no NUL, no lone
 * surrogate); the value itself keeps them (its JSON escapes them), so only
 * the searchable copy has them replaced by U+FFFD.
 */
function searchableText(text: string): string {
  return text.replace(/\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD");
}

/** A turn holds at most MAX_TURN_CHARS: a longer text becomes several turns. */
function splitLong(text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; ) {
    let end = Math.min(text.length, i + MAX_TURN_CHARS);
    // Never between the two halves of a surrogate pair: each half alone is ill-formed text.
    if (end < text.length && /[\uD800-\uDBFF]/.test(text[end - 1]!)) end--;
    out.push(text.slice(i, end));
    i = end;
  }
  return out;
}

function leavesText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return value.map(leavesText).filter(Boolean).join("\n");
  if (typeof value === "object") return Object.values(value).map(leavesText).filter(Boolean).join("\n");
  return "";
}

/**
 * The path syntax of LangGraph's index fields (its store utils'
 * getTextAtPath, which the package does not export): `a.b`, `a[*].b`,
 * `a[0]`, `a[-1]`, `{a,b.c}`, `*`, and `$` for the whole value. Returns the
 * values selected, each turned into text by the caller.
 */
export function valuesAtPath(value: unknown, path: string): unknown[] {
  if (!path || path === "$") return [value];
  return walk(value, tokenizePath(path), 0);
}

function walk(value: unknown, tokens: readonly string[], pos: number): unknown[] {
  if (pos >= tokens.length) return value === undefined || value === null ? [] : [value];
  const token = tokens[pos]!;
  if (token.startsWith("[") && token.endsWith("]")) {
    if (!Array.isArray(value)) return [];
    const index = token.slice(1, -1);
    if (index === "*") return value.flatMap((v) => walk(v, tokens, pos + 1));
    let i = Number.parseInt(index, 10);
    if (Number.isNaN(i)) return [];
    if (i < 0) i += value.length;
    return i >= 0 && i < value.length ? walk(value[i], tokens, pos + 1) : [];
  }
  if (token.startsWith("{") && token.endsWith("}")) {
    if (typeof value !== "object" || value === null) return [];
    return token
      .slice(1, -1)
      .split(",")
      .map((f) => f.trim())
      .flatMap((field) => walk(value, tokenizePath(field), 0));
  }
  if (token === "*") {
    const children = Array.isArray(value) ? value : typeof value === "object" && value !== null ? Object.values(value) : [];
    return children.flatMap((v) => walk(v, tokens, pos + 1));
  }
  if (typeof value === "object" && value !== null && Object.prototype.hasOwnProperty.call(value, token)) {
    return walk((value as Record<string, unknown>)[token], tokens, pos + 1);
  }
  return [];
}

/** `metadata.title` → ["metadata", "title"]; `chapters[*].content` → ["chapters", "[*]", "content"]; brackets and braces kept whole. */
export function tokenizePath(path: string): string[] {
  const tokens: string[] = [];
  let current = "";
  const flush = () => {
    if (current) tokens.push(current);
    current = "";
  };
  for (let i = 0; i < path.length; i++) {
    const c = path[i]!;
    if (c === "[" || c === "{") {
      flush();
      const close = c === "[" ? "]" : "}";
      let depth = 1;
      let group = c;
      while (++i < path.length && depth > 0) {
        const d = path[i]!;
        if (d === c) depth++;
        else if (d === close) depth--;
        group += d;
      }
      i--;
      tokens.push(group);
    } else if (c === ".") flush();
    else current += c;
  }
  flush();
  return tokens;
}

/**
 * LangGraph's filter on an item's value, as InMemoryStore applies it: each
 * top-level key equals the given value, or meets its operators ($eq, $ne,
 * $gt, $gte, $lt, $lte, $in, $nin; ranges compare as numbers). An object of
 * other keys compares by identity there, so it never matches: the same here.
 */
export function matchesFilter(value: Record<string, unknown>, filter: Record<string, unknown> | undefined): boolean {
  if (!filter) return true;
  return Object.entries(filter).every(([key, wanted]) => compareValue(value[key], wanted));
}

const OPERATORS = new Set(["$eq", "$ne", "$gt", "$gte", "$lt", "$lte", "$in", "$nin"]);

function compareValue(actual: unknown, wanted: unknown): boolean {
  if (typeof wanted === "object" && wanted !== null && Object.keys(wanted).every((k) => OPERATORS.has(k))) {
    return Object.entries(wanted as Record<string, unknown>).every(([op, v]) => {
      switch (op) {
        case "$eq":
          return actual === v;
        case "$ne":
          return actual !== v;
        case "$gt":
          return Number(actual) > Number(v);
        case "$gte":
          return Number(actual) >= Number(v);
        case "$lt":
          return Number(actual) < Number(v);
        case "$lte":
          return Number(actual) <= Number(v);
        case "$in":
          return Array.isArray(v) && v.includes(actual);
        default:
          return Array.isArray(v) ? !v.includes(actual) : true;
      }
    });
  }
  // An object compares by identity (never equal to a stored value), as in InMemoryStore.
  if (typeof wanted === "object" && wanted !== null) return false;
  return actual === wanted;
}
