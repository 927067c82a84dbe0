/** The two chrono instances of time grounding (with and without past bias): chrono's casual parser plus ramem's parsers and refiners, built once. */
import * as chrono from "chrono-node";
import type { Chrono } from "chrono-node";
import { makeSeasonParser, makeWeekendParser, vagueRecentParser, weekdayDateParser, yearParser } from "./time-grounding-parsers.js";
import { falsePositiveRefiner, makePastBiasRefiner, preferOursRefiner } from "./time-grounding-refiners.js";

let cached: { past: Chrono; neutral: Chrono } | undefined;

function build(pastBias: boolean): Chrono {
  const parser = chrono.casual.clone();
  parser.parsers.push(makeSeasonParser(pastBias), makeWeekendParser(pastBias), yearParser, vagueRecentParser, weekdayDateParser);
  parser.refiners.unshift(preferOursRefiner);
  parser.refiners.push(falsePositiveRefiner);
  if (pastBias) parser.refiners.push(makePastBiasRefiner());
  return parser;
}

export function parserFor(pastBias: boolean): Chrono {
  cached ??= { past: build(true), neutral: build(false) };
  return pastBias ? cached.past : cached.neutral;
}
