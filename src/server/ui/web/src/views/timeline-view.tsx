import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { api, nsPath } from "../api.js";
import { ErrorMessage } from "../error-message.js";
import { countOf, formatDate, formatSpan } from "../format.js";
import { recallHref, unitHref } from "../route.js";
import type { MemoryUnit, Stats, StoredSession } from "../types.js";
import { UnitFields } from "../unit-fields.js";
import { VirtualList, type VirtualListHandle } from "../virtual-list.js";
import { ConfirmButton } from "../confirm-button.js";

/** The first page is small and without validity so it shows at once; the rest come in large pages behind it. */
const FIRST_PAGE = 200;
const PAGE = 1000;
/** Past this many units the timeline shows the first ones and says so (search then covers those only). */
const MAX_LOADED = 100_000;
const SESSION_ROW = 52;
const UNIT_ROW = 150;

interface ServerFilter {
  participant: string;
  from: string;
  to: string;
  metadata: string;
}

type Row = { kind: "session"; session: StoredSession; shown: number } | { kind: "unit"; unit: MemoryUnit };

/**
 * A namespace's sessions on a time axis and its units in conversation order,
 * virtualised. Units load a page at a time (the first page renders at once);
 * participant, time range and metadata filters run in the store (GET
 * …/memories), the text search over the loaded units as you type.
 */
export function TimelineView({ ns, canWrite }: { ns: string; canWrite: boolean }) {
  const [filter, setFilter] = useState<ServerFilter>({ participant: "", from: "", to: "", metadata: "" });
  const [draft, setDraft] = useState<ServerFilter>(filter);
  const [text, setText] = useState("");
  const [stats, setStats] = useState<Stats | null>(null);
  const [sessions, setSessions] = useState<StoredSession[]>([]);
  const [units, setUnits] = useState<MemoryUnit[]>([]);
  const [total, setTotal] = useState<number | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(true);
  const [actionError, setActionError] = useState<unknown>(null);
  const [notice, setNotice] = useState("");
  const list = useRef<VirtualListHandle | null>(null);

  useEffect(() => {
    let live = true;
    setUnits([]);
    setTotal(null);
    setError(null);
    setLoading(true);
    (async () => {
      const [s, sess] = await Promise.all([api<Stats>(`${nsPath(ns)}/stats`), api<{ sessions: StoredSession[] }>(`${nsPath(ns)}/sessions`)]);
      if (!live) return;
      setStats(s);
      setSessions(sess.sessions);
      const params = new URLSearchParams();
      if (filter.participant) params.set("participant", filter.participant);
      if (filter.from) params.set("from", toIso(filter.from));
      if (filter.to) params.set("to", toIso(filter.to));
      if (filter.metadata.trim()) params.set("filter", filter.metadata.trim());
      // First a small page without validity: validity reads the whole namespace once (seconds at 20,000
      // units), so the first rows show before it; the pages after carry it and replace them.
      const first = await api<{ memories: MemoryUnit[]; total: number }>(`${nsPath(ns)}/memories?${params}&limit=${FIRST_PAGE}&offset=0`);
      if (!live) return;
      setTotal(first.total);
      setUnits(first.memories);
      if (first.total === 0) return;
      params.set("validity", "true");
      let offset = 0;
      for (;;) {
        params.set("offset", String(offset));
        params.set("limit", String(PAGE));
        const page = await api<{ memories: MemoryUnit[]; total: number }>(`${nsPath(ns)}/memories?${params}`);
        if (!live) return;
        setTotal(page.total);
        const at = offset;
        setUnits((u) => (at === 0 ? page.memories : [...u, ...page.memories]));
        offset += page.memories.length;
        if (page.memories.length === 0 || offset >= page.total || offset >= MAX_LOADED) break;
      }
    })()
      .catch((err: unknown) => live && setError(err))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [ns, filter]);

  const needle = text.trim().toLowerCase();
  const rows = useMemo(() => {
    const shown = needle ? units.filter((u) => searchable(u).includes(needle)) : units;
    const sessionOf = new Map(sessions.map((s) => [s.id, s]));
    const out: Row[] = [];
    let current = "";
    let header: { kind: "session"; session: StoredSession; shown: number } | null = null;
    for (const u of shown) {
      const sid = u.provenance.sessionId;
      if (sid !== current) {
        current = sid;
        const session = sessionOf.get(sid) ?? { id: sid, startTime: u.context.session.start, endTime: u.context.session.end, participants: u.context.participants, unitCount: 0 };
        header = { kind: "session", session, shown: 0 };
        out.push(header);
      }
      header!.shown++;
      out.push({ kind: "unit", unit: u });
    }
    return out;
  }, [units, sessions, needle]);
  const shownUnits = rows.length - rows.filter((r) => r.kind === "session").length;

  const jumpTo = (sessionId: string) => {
    const i = rows.findIndex((r) => r.kind === "session" && r.session.id === sessionId);
    if (i >= 0) list.current?.scrollToIndex(i);
    else setNotice(`session ${sessionId} has no unit under the current filter`);
  };

  const forgetUnit = async (u: MemoryUnit) => {
    setActionError(null);
    try {
      await api(`${nsPath(ns)}/memories/${encodeURIComponent(u.id)}`, { method: "DELETE" });
      setUnits((all) => all.filter((x) => x.id !== u.id));
      setTotal((t) => (t === null ? t : t - 1));
      setNotice(`Forgot unit ${u.id}.`);
    } catch (err) {
      setActionError(err);
    }
  };

  const apply = (e: Event) => {
    e.preventDefault();
    if (draft.metadata.trim()) {
      try {
        JSON.parse(draft.metadata);
      } catch {
        setActionError(new Error("The metadata filter is not JSON: write it as in the README, e.g. {\"metadata.project\": \"apollo\"}"));
        return;
      }
    }
    setActionError(null);
    setFilter({ ...draft });
  };

  return (
    <>
      <h1>
        Timeline of <span class="ns">{ns}</span>
      </h1>
      <p class="sub">
        {stats ? `${countOf(stats.sessions, "session")}, ${countOf(stats.units, "unit")}${stats.range ? `, ${formatSpan(stats.range.start, stats.range.end)}` : ""}` : "…"} ·{" "}
        <a href={recallHref(ns)}>debug a recall in this namespace</a>
      </p>
      <TimeAxis sessions={sessions} onPick={jumpTo} />
      <form class="filters" onSubmit={apply} aria-label="Filter the timeline">
        <div>
          <label for="f-text">Search text</label>
          <input id="f-text" type="search" value={text} onInput={(e) => setText((e.target as HTMLInputElement).value)} placeholder="words in a turn or restatement" />
        </div>
        <div>
          <label for="f-participant">Participant</label>
          <input id="f-participant" value={draft.participant} onInput={(e) => setDraft({ ...draft, participant: (e.target as HTMLInputElement).value })} />
        </div>
        <div>
          <label for="f-from">From</label>
          <input id="f-from" type="date" value={draft.from} onInput={(e) => setDraft({ ...draft, from: (e.target as HTMLInputElement).value })} />
        </div>
        <div>
          <label for="f-to">To</label>
          <input id="f-to" type="date" value={draft.to} onInput={(e) => setDraft({ ...draft, to: (e.target as HTMLInputElement).value })} />
        </div>
        <div class="wide">
          <label for="f-metadata">Metadata filter (JSON)</label>
          <input id="f-metadata" value={draft.metadata} onInput={(e) => setDraft({ ...draft, metadata: (e.target as HTMLInputElement).value })} placeholder='{"metadata.channel": "web"}' />
        </div>
        <button type="submit">Apply filters</button>
        <label class="jump">
          Jump to session{" "}
          <select onChange={(e) => jumpTo((e.target as HTMLSelectElement).value)}>
            {sessions.map((s) => (
              <option key={s.id} value={s.id}>
                {s.id} · {formatDate(s.startTime, false)}
              </option>
            ))}
          </select>
        </label>
      </form>
      {error ? <ErrorMessage error={error} /> : null}
      {actionError ? <ErrorMessage error={actionError} /> : null}
      <p class="status" aria-live="polite" data-testid="timeline-status" data-loaded={units.length} data-total={total ?? ""} data-loading={loading ? "1" : "0"}>
        {total === null ? (loading ? "Loading units…" : "") : `${units.length} of ${total} units loaded${loading ? " (loading…)" : ""}; ${shownUnits} shown${needle ? ` matching “${text.trim()}”` : ""}`}
        {total !== null && total > MAX_LOADED ? ` — a huge namespace: the first ${MAX_LOADED} are loaded; narrow it with the filters above.` : ""}
        {notice ? ` ${notice}` : ""}
      </p>
      <VirtualList
        items={rows}
        label={`Units of ${ns}`}
        handle={list}
        heightOf={(r) => (r.kind === "session" ? SESSION_ROW : UNIT_ROW)}
        render={(r) =>
          r.kind === "session" ? (
            <h2 class="session-row" data-session-id={r.session.id}>
              Session {r.session.id} <span>{formatSpan(r.session.startTime, r.session.endTime)}</span> <span>{r.session.participants.join(", ")}</span>{" "}
              <span>{countOf(r.shown, "unit")}</span>
            </h2>
          ) : (
            <article class="unit-row" aria-label={`Unit ${r.unit.id}`}>
              <UnitFields unit={r.unit} />
              <div class="actions">
                <a href={unitHref(ns, r.unit.id)}>details and history</a>
                {canWrite ? <ConfirmButton label="Forget" confirmLabel="Yes, forget this unit" question="Forget this unit? Its text is erased." onConfirm={() => forgetUnit(r.unit)} /> : null}
              </div>
            </article>
          )
        }
      />
    </>
  );
}

function searchable(u: MemoryUnit): string {
  const c = u.context;
  return [u.content, ...(u.source ?? []).map((t) => `${t.speaker} ${t.text}`), ...c.participants, ...c.entities, c.topic ?? "", c.location ?? ""].join(" \u0000").toLowerCase();
}

/** A date input's day (YYYY-MM-DD) as the API's ISO instant, midnight UTC. */
function toIso(day: string): string {
  return `${day}T00:00:00Z`;
}

/** The sessions as ticks on one axis from the first to the last; a tick jumps the list to its session. Drawn only: the select beside it is the keyboard way. */
function TimeAxis({ sessions, onPick }: { sessions: StoredSession[]; onPick: (id: string) => void }) {
  if (sessions.length === 0) return null;
  const times = sessions.map((s) => Date.parse(s.startTime));
  const min = Math.min(...times);
  const max = Math.max(...times);
  const span = Math.max(1, max - min);
  return (
    <div class="axis" aria-hidden="true">
      {sessions.slice(0, 2000).map((s, i) => (
        <span key={s.id} class="tick" title={`${s.id} · ${formatDate(s.startTime)}`} style={{ left: `${((times[i]! - min) / span) * 100}%` }} onClick={() => onPick(s.id)} />
      ))}
      <span class="axis-start">{formatDate(new Date(min).toISOString(), false)}</span>
      <span class="axis-end">{formatDate(new Date(max).toISOString(), false)}</span>
    </div>
  );
}
