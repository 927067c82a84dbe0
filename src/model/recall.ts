import { z } from "zod";
import { MemoryUnit } from "./memory-unit.js";

export const ChannelScore = z.object({ rank: z.number().int().min(1), score: z.number() });
export type ChannelScore = z.infer<typeof ChannelScore>;

export const RecallHit = z.object({
  unit: MemoryUnit,
  /** 1-based rank in the final list. */
  rank: z.number().int().min(1),
  /**
   * How likely the unit is to be relevant, in [0, 1], never higher than the
   * score of the hit ranked above it (docs/api.md › Scores says how it was calibrated).
   */
  score: z.number().min(0).max(1),
  /** The fused content score the ranking started from (weighted RRF of the channels; higher is better, unbounded). */
  contentScore: z.number(),
  channels: z.object({
    lexical: ChannelScore.optional(),
    dense: ChannelScore.optional(),
  }),
  /** Why the unit is in the list: channel ranks, frame conditions met. */
  reasons: z.array(z.string()),
});
export type RecallHit = z.infer<typeof RecallHit>;
