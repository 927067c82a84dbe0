import { useState } from "preact/hooks";
import { api, nsPath } from "../api.js";
import { ErrorMessage } from "../error-message.js";
import { formatDate } from "../format.js";
import { timelineHref } from "../route.js";
import type { HistoryEvent, MemoryUnit, Validity } from "../types.js";
import { UnitFields } from "../unit-fields.js";
import { useAsync } from "../use-async.js";
import { ConfirmButton } from "../confirm-button.js";

/**
 * One unit, its validity and its history, and (for a write key) the review
 * loop: correct the text, mark it superseded or not, forget it or its whole
 * session. Each is the REST call any client makes, so the server runs the
 * same library call under the same per-namespace lock.
 */
export function UnitView({ ns, unitId, canWrite }: { ns: string; unitId: string; canWrite: boolean }) {
  const base = `${nsPath(ns)}/memories/${encodeURIComponent(unitId)}`;
  const [data, reload] = useAsync(async () => {
    const [unit, validity, history] = await Promise.all([
      api<MemoryUnit>(base),
      api<{ validity: Validity | null }>(`${base}/validity`),
      api<{ events: HistoryEvent[] }>(`${base}/history`),
    ]);
    return { unit: validity.validity ? { ...unit, validity: validity.validity } : unit, events: history.events };
  }, [ns, unitId]);
  const [text, setText] = useState<string | null>(null);
  const [successor, setSuccessor] = useState("");
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState("");

  const act = async (what: string, call: () => Promise<unknown>, after: "reload" | "timeline" = "reload") => {
    setError(null);
    setDone("");
    try {
      await call();
      setDone(what);
      if (after === "timeline") location.hash = timelineHref(ns);
      else reload();
    } catch (err) {
      setError(err);
    }
  };

  return (
    <>
      <p>
        <a href={timelineHref(ns)}>← timeline of {ns}</a>
      </p>
      <h1>Unit {unitId}</h1>
      {data.state === "loading" ? <p aria-live="polite">Loading the unit…</p> : null}
      {data.state === "error" ? <ErrorMessage error={data.error} /> : null}
      {error ? <ErrorMessage error={error} /> : null}
      <p aria-live="polite" class="done">
        {done}
      </p>
      {data.state === "ok" ? (
        <>
          <UnitFields unit={data.value.unit} full />
          {canWrite ? (
            <section aria-labelledby="review-h" class="review">
              <h2 id="review-h">Correct this memory</h2>
              <form
                onSubmit={(e) => {
                  e.preventDefault();
                  void act("Saved: the unit was re-anchored and re-embedded; the old text is in its history.", () =>
                    api(base, { method: "PATCH", json: { text: text ?? data.value.unit.content } }),
                  ).then(() => setText(null));
                }}
              >
                <label for="u-text">Text</label>
                <textarea id="u-text" rows={3} value={text ?? data.value.unit.content} onInput={(e) => setText((e.target as HTMLTextAreaElement).value)} />
                <button type="submit">Save text</button>
              </form>
              <form
                onSubmit={(e) => {
                  e.preventDefault();
                  void act(`Marked superseded by ${successor.trim()}.`, () => api(`${base}/supersession`, { method: "PUT", json: { supersededBy: successor.trim() } }));
                }}
              >
                <label for="u-successor">Superseded by (unit id)</label>
                <input id="u-successor" value={successor} onInput={(e) => setSuccessor((e.target as HTMLInputElement).value)} required />
                <button type="submit">Mark superseded</button>
                <button type="button" onClick={() => void act("Marked not superseded.", () => api(`${base}/supersession`, { method: "PUT", json: { supersededBy: null } }))}>
                  Mark not superseded
                </button>
              </form>
              <div class="danger-zone">
                <ConfirmButton
                  label="Forget this unit"
                  confirmLabel="Yes, forget this unit"
                  question="Forget this unit? Its text is erased from every index."
                  onConfirm={() => act(`Forgot unit ${unitId}.`, () => api(base, { method: "DELETE" }), "timeline")}
                />
                <ConfirmButton
                  label={`Forget session ${data.value.unit.provenance.sessionId}`}
                  confirmLabel="Yes, forget the whole session"
                  question={`Forget session ${data.value.unit.provenance.sessionId} and all its units?`}
                  onConfirm={() =>
                    act(`Forgot session ${data.value.unit.provenance.sessionId}.`, () => api(`${nsPath(ns)}/sessions/${encodeURIComponent(data.value.unit.provenance.sessionId)}`, { method: "DELETE" }), "timeline")
                  }
                />
              </div>
            </section>
          ) : null}
          <section aria-labelledby="history-h">
            <h2 id="history-h">History</h2>
            <ol class="history" data-testid="history">
              {data.value.events.map((ev, i) => (
                <li key={i}>
                  <b>{ev.event}</b> {formatDate(ev.at)} by {ev.actor}
                  {ev.previousText ? (
                    <>
                      {" "}
                      — was: <q>{ev.previousText}</q>
                    </>
                  ) : null}
                  {ev.text && ev.event === "updated" ? (
                    <>
                      {" "}
                      — now: <q>{ev.text}</q>
                    </>
                  ) : null}
                </li>
              ))}
            </ol>
          </section>
        </>
      ) : null}
    </>
  );
}
