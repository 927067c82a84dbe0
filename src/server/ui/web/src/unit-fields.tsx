import type { MemoryUnit } from "./types.js";
import { formatInterval, formatSpan } from "./format.js";
import { unitHref } from "./route.js";

/** What a unit is and where it sits: verbatim turns, restatement, the episodic coordinates, validity, metadata. */
export function UnitFields({ unit, full = false }: { unit: MemoryUnit; full?: boolean }) {
  const c = unit.context;
  const successor = unit.validity?.supersededBy ?? unit.supersession?.supersededBy ?? null;
  const superseded = successor !== null;
  return (
    <div class={`unit-fields${superseded ? " superseded" : ""}`} data-unit-id={unit.id}>
      <div class="verbatim" aria-label="Verbatim turns">
        {(unit.source ?? []).map((t, i) => (
          <p key={i}>
            <b>{t.speaker}:</b> {superseded ? <s>{t.text}</s> : t.text}
          </p>
        ))}
      </div>
      <p class="restatement">
        <span class="label">restated</span> {superseded ? <s data-testid="struck">{unit.content}</s> : unit.content}
      </p>
      <dl class="coords">
        <dt>event</dt>
        <dd data-field="event">{c.eventTime ? formatInterval(c.eventTime) : "unknown"}</dd>
        <dt>session</dt>
        <dd data-field="session">
          {c.session.sessionId} · {formatSpan(c.session.start, c.session.end)}
        </dd>
        <dt>participants</dt>
        <dd data-field="participants">{c.participants.join(", ") || "–"}</dd>
        {c.location || full ? (
          <>
            <dt>place</dt>
            <dd data-field="place">{c.location ?? "–"}</dd>
          </>
        ) : null}
        {c.entities.length || full ? (
          <>
            <dt>entities</dt>
            <dd data-field="entities">{c.entities.join(", ") || "–"}</dd>
          </>
        ) : null}
        {c.topic || full ? (
          <>
            <dt>topic</dt>
            <dd data-field="topic">{c.topic ?? "–"}</dd>
          </>
        ) : null}
        {c.episode ? (
          <>
            <dt>episode</dt>
            <dd data-field="episode">
              turns {c.episode.firstTurnId}–{c.episode.lastTurnId}
              {c.episode.place ? ` · at ${c.episode.place}` : ""}
              {c.episode.topic ? ` · ${c.episode.topic}` : ""}
              {c.episode.participants.length ? ` · ${c.episode.participants.join(", ")}` : ""}
            </dd>
          </>
        ) : null}
        {c.planned ? (
          <>
            <dt>tense</dt>
            <dd data-field="planned">
              {unit.planOutcome ? (
                <>
                  a plan, told as done on {unit.planOutcome.on.slice(0, 10)} by <a href={unitHref(unit.namespace, unit.planOutcome.toldAsDoneBy)}>{unit.planOutcome.toldAsDoneBy}</a>
                </>
              ) : (
                "a plan, not told as done"
              )}
            </dd>
          </>
        ) : null}
        <dt>validity</dt>
        <dd data-field="validity">
          {successor ? (
            <>
              superseded{unit.validity?.validTo ? ` on ${unit.validity.validTo.slice(0, 10)}` : ""} by <a href={unitHref(unit.namespace, successor)}>{successor}</a>
              {(unit.validity?.origin ?? (unit.supersession ? "user" : "rule")) === "user" ? " (a user's correction)" : ""}
            </>
          ) : unit.validity ? (
            `valid since ${unit.validity.validFrom.slice(0, 10)} (${unit.validity.states.join(", ")})`
          ) : unit.supersession ? (
            "marked not superseded by a user"
          ) : (
            "states no state"
          )}
        </dd>
        {unit.metadata && Object.keys(unit.metadata).length ? (
          <>
            <dt>metadata</dt>
            <dd data-field="metadata">
              <code>{JSON.stringify(unit.metadata)}</code>
            </dd>
          </>
        ) : null}
        {full ? (
          <>
            <dt>turns</dt>
            <dd>{unit.provenance.turnIds.join(", ")}</dd>
            <dt>id</dt>
            <dd>
              <code>{unit.id}</code>
            </dd>
          </>
        ) : null}
      </dl>
    </div>
  );
}
