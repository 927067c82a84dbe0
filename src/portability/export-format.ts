import { z } from "zod";
import { NamespaceName, Session } from "../model/conversation.js";
import { MemoryUnit } from "../model/memory-unit.js";

/**
 * The namespace export format, version 1 (JSONL). Line 1 is the header; then,
 * per session in chronological order, one session line followed by that
 * session's unit lines in stored order. Embeddings travel as base64 of the
 * float32 little-endian bytes, so they come back bit for bit.
 */
export const EXPORT_FORMAT = "ramem-export";
export const EXPORT_VERSION = 1;

export const ExportHeader = z.strictObject({
  format: z.literal(EXPORT_FORMAT),
  version: z.literal(EXPORT_VERSION),
  namespace: NamespaceName,
  embedder: z.string().min(1),
  dimensions: z.number().int().min(1).max(8192),
  sessions: z.number().int().min(0),
  units: z.number().int().min(0),
  exportedAt: z.string(),
});
export type ExportHeader = z.infer<typeof ExportHeader>;

export const SessionLine = z.strictObject({
  type: z.literal("session"),
  session: Session,
  contentHash: z.string(),
});
export type SessionLine = z.infer<typeof SessionLine>;

export const UnitLine = z.strictObject({
  type: z.literal("unit"),
  unit: MemoryUnit,
  embedding: z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/, "embedding must be base64 of float32 little-endian values"),
});
export type UnitLine = z.infer<typeof UnitLine>;

export function encodeEmbedding(v: Float32Array): string {
  const bytes = Buffer.alloc(v.length * 4);
  v.forEach((x, i) => bytes.writeFloatLE(x, i * 4));
  return bytes.toString("base64");
}

export function decodeEmbedding(b64: string): Float32Array {
  const bytes = Buffer.from(b64, "base64");
  const out = new Float32Array(Math.floor(bytes.length / 4));
  for (let i = 0; i < out.length; i++) out[i] = bytes.readFloatLE(i * 4);
  return bytes.length % 4 === 0 ? out : new Float32Array(0);
}
