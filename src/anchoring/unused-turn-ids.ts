import type { SessionWithTurns } from "../model/conversation.js";
import type { MemoryUnit } from "../model/memory-unit.js";
import type { MemoryStore } from "../store/contract.js";
import { RamemError } from "../model/errors.js";
import { echoValue } from "../model/echo-value.js";
import { unitId } from "./unit-id.js";
import { RULE_ANCHORER_ID } from "./rule-anchorer.js";

/** Far more than a user forgets at the end of one session; past it the append fails rather than loop. */
const MAX_SKIPPED_POSITIONS = 10_000;

/**
 * Builds an append's turns so that none of them gets the id of a turn the
 * session once had. Unit ids are derived from the turn ids
 * (unit-id.ts), so a default id `<session>:<n>` given again after the unit
 * of turn n was forgotten would give the new turn the forgotten unit's id:
 * a `get` of the forgotten id would answer with the new text, and a retried
 * forget would delete it. The store's history still names every unit id the
 * namespace held (a forget keeps the event, without text), so a position
 * whose unit id it names is skipped. A turn id the caller gave that names a
 * forgotten unit is refused: the caller meant that turn, and it is gone.
 *
 * `build(first)` makes the session with default ids from position `first`.
 * The unit ids are those of the rule anchorer's one unit per turn, under this
 * anchorer's id and the rule anchorer's (an LLM anchorer falls back to it);
 * `refuseForgottenUnits` checks what the anchorer really made, skipping the
 * ids found here without any history (`probed`: with the rule anchorer and
 * default ids, all of them).
 */
export async function withUnusedTurnIds(
  store: Pick<MemoryStore, "unitHistory">,
  anchorerId: string,
  givenIds: ReadonlyArray<string | undefined>,
  first: number,
  build: (first: number) => SessionWithTurns,
): Promise<{ session: SessionWithTurns; probed: Set<string> }> {
  for (let position = first; ; ) {
    const session = build(position);
    const probed = new Set<string>();
    const { namespace, id: sessionId } = session.session;
    let clash = -1;
    for (let i = 0; i < session.turns.length && clash < 0; i++) {
      const turn = session.turns[i]!;
      const ids = [...new Set([anchorerId, RULE_ANCHORER_ID])].map((a) => unitId(namespace, sessionId, [turn.id], a));
      for (const id of ids) {
        const events = await store.unitHistory(namespace, id);
        if (events.length === 0) {
          probed.add(id);
          continue;
        }
        if (givenIds[i] === undefined) {
          clash = i;
          break;
        }
        // A given id of a unit a re-ingest replaced may come back (that ingest dropped the turn, nobody forgot it).
        const last = events.at(-1)!;
        if (last.event === "forgotten") throw forgottenTurn(sessionId, turn.id, i, last.at);
      }
    }
    if (clash < 0) return { session, probed };
    // The default ids from the clash on move past it; those before it were free.
    position += clash + 1;
    if (position - first > MAX_SKIPPED_POSITIONS) {
      throw new RamemError("TURN_IDS_EXHAUSTED", `no free default turn id found within ${MAX_SKIPPED_POSITIONS} positions of session ${echoValue(sessionId)}`, {
        where: "turns › id",
        hint: "give the turns ids of your own; nothing of this call was stored",
      });
    }
  }
}

/** After anchoring: a unit whose id the namespace's history names (forgotten or replaced) is not written again by an append. */
export async function refuseForgottenUnits(
  store: Pick<MemoryStore, "unitHistory">,
  namespace: string,
  units: readonly MemoryUnit[],
  probed: ReadonlySet<string> = new Set(),
): Promise<void> {
  for (const u of units) {
    // withUnusedTurnIds found no history for it: nothing to read again.
    if (probed.has(u.id)) continue;
    const forgotten = (await store.unitHistory(namespace, u.id)).findLast((e) => e.event === "forgotten");
    if (!forgotten) continue;
    throw new RamemError("UNIT_ID_FORGOTTEN", `the new turns would make unit ${echoValue(u.id)}, which was forgotten at ${forgotten.at}`, {
      where: "turns › id",
      hint: "give the turns new ids (or omit them); a forgotten id is never given to another memory; nothing of this call was stored",
    });
  }
}

function forgottenTurn(sessionId: string, turnId: string, index: number, at: string): RamemError {
  return new RamemError("TURN_ID_FORGOTTEN", `session ${echoValue(sessionId)} had a turn ${echoValue(turnId)}; its memory was removed at ${at}`, {
    where: `turns[${index}] › id`,
    hint: "use a new turn id, or omit ids to number new turns automatically: a forgotten id is never given to another memory; nothing of this call was stored",
  });
}
