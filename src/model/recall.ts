import { z } from "zod";
import { MemoryUnit } from "./memory-unit.js";

export const ChannelScore = z.object({ rank: z.number().int().min(1), score: z.number() });
export type ChannelScore = z.infer<typeof ChannelScore>;

export const RecallHit = z.object({
  unit: MemoryUnit,
  /** 1-based rank in the final list. */
  rank: z.number().int().min(1),
  /** Fused content score (higher is better). */
  score: z.number(),
  channels: z.object({
    lexical: ChannelScore.optional(),
    dense: ChannelScore.optional(),
  }),
  /** Why the unit is in the list: channel ranks, frame conditions met. */
  reasons: z.array(z.string()),
});
export type RecallHit = z.infer<typeof RecallHit>;
