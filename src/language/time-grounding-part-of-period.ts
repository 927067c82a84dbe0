import type { Granularity } from "../model/time.js";
import type { GroundedTime } from "./time-grounding.js";
import { DAY, dayOf, monthStart } from "./time-grounding-calendar.js";

/**
 * "early 2022", "late January", "mid-August", "the beginning of November",
 * "the end of summer", "the first half of September": a part of the period
 * chrono grounds whole. Early/start/beginning is its first third, mid/middle
 * the middle one, late/end the last; a half is a half. Only months, seasons
 * and years: a part of a day or a week is no coordinate worth narrowing.
 */
const PART_OF_PERIOD = /\b(early|late|mid-?|the\s+(?:very\s+)?(?:start|beginning|end|middle)\s+of|the\s+(?:first|second|latter)\s+half\s+of)\s*(?:in\s+)?$/i;
const NARROWER: Partial<Record<Granularity, Granularity>> = { year: "season", season: "month", month: "week" };

export function partOfPeriod(text: string, g: GroundedTime): GroundedTime {
  const narrower = NARROWER[g.interval.granularity];
  if (!narrower) return g;
  // The year parser keeps its own word ("early 2022") or preposition ("of 2022"); chrono
  // keeps "end of" ("the end of next month") but grounds the whole period.
  const own = /^(early|late|mid-?|(?:the\s+)?(?:very\s+)?(?:start|beginning|end|middle)\s+of)\s*/i.exec(g.text);
  const lead = own ? null : /^(?:of|in)\s+/i.exec(g.text);
  const before = own ? null : PART_OF_PERIOD.exec(text.slice(0, g.index + (lead?.[0].length ?? 0)));
  const word = (own?.[1] ?? before?.[1])?.toLowerCase().replace(/\s+/g, " ").replace(/^(?!the )(?=(?:very )?(?:start|beginning|end|middle) of)/, "the ");
  if (!word) return g;
  const start = Date.parse(g.interval.start);
  const end = Date.parse(g.interval.end);
  const span = end - start;
  // A part of a year or a season ends on a month's first day, a part of a month on a day's.
  const byMonth = g.interval.granularity !== "month";
  const at = (share: number) => (byMonth ? monthStart(dayOf(start + span * share + 15 * DAY)) : dayOf(start + span * share));
  const [from, to] = /^(?:early|the (?:very )?(?:start|beginning) of)$/.test(word)
    ? [start, at(1 / 3)]
    : /^(?:late|the (?:very )?end of)$/.test(word)
      ? [at(2 / 3), end]
      : /first half/.test(word)
        ? [start, at(1 / 2)]
        : /(?:second|latter) half/.test(word)
          ? [at(1 / 2), end]
          : [at(1 / 3), at(2 / 3)];
  if (!(from < to)) return g;
  return {
    ...g,
    text: before ? text.slice(before.index, g.index) + g.text : g.text,
    index: before ? before.index : g.index,
    interval: { start: new Date(from).toISOString(), end: new Date(to).toISOString(), granularity: narrower },
  };
}
