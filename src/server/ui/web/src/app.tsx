import { useEffect, useState } from "preact/hooks";
import { api, ApiError, storedKey, storeKey } from "./api.js";
import { parseRoute, type Route } from "./route.js";
import type { WhoAmI } from "./types.js";
import { ErrorBoundary } from "./error-boundary.js";
import { ErrorMessage } from "./error-message.js";
import { LoginView } from "./views/login-view.js";
import { NamespacesView } from "./views/namespaces-view.js";
import { TimelineView } from "./views/timeline-view.js";
import { RecallView } from "./views/recall-view.js";
import { UnitView } from "./views/unit-view.js";
import { BenchView } from "./views/bench-view.js";

type Auth = { state: "checking" } | { state: "login"; reason: string | null } | { state: "in"; me: WhoAmI } | { state: "error"; error: unknown };

/**
 * Who the page is, then the view the hash names. On start it asks GET /v1/me
 * with the key kept in session storage, or with none: an open server answers
 * without one (no login); a 401 asks for a key. A key refused later (revoked:
 * the session expired) brings the login back with the reason.
 */
export function App() {
  const [route, setRoute] = useState<Route>(() => parseRoute(location.hash));
  const [auth, setAuth] = useState<Auth>({ state: "checking" });

  useEffect(() => {
    const onHash = () => setRoute(parseRoute(location.hash));
    addEventListener("hashchange", onHash);
    return () => removeEventListener("hashchange", onHash);
  }, []);

  useEffect(() => {
    api<WhoAmI>("/v1/me").then(
      (me) => setAuth({ state: "in", me }),
      (err: unknown) => {
        if (err instanceof ApiError && err.status === 401) {
          const hadKey = storedKey() !== null;
          storeKey(null);
          setAuth({ state: "login", reason: hadKey ? "The key kept for this tab was refused (revoked, or the server's keys changed): enter a key again." : null });
        } else setAuth({ state: "error", error: err });
      },
    );
  }, []);

  // Any call that later gets a 401 means the key stopped working: back to the login, saying so.
  useEffect(() => {
    const onRefused = () => {
      storeKey(null);
      setAuth({ state: "login", reason: "Your session expired: the server no longer accepts this key (revoked or wrong). Enter a key again." });
    };
    addEventListener("ramem:unauthorized", onRefused);
    return () => removeEventListener("ramem:unauthorized", onRefused);
  }, []);

  if (auth.state === "checking") return <main id="main"><p aria-live="polite">Connecting to the server…</p></main>;
  if (auth.state === "error") return <main id="main"><h1>ramem inspector</h1><ErrorMessage error={auth.error} /></main>;
  if (auth.state === "login") return <LoginView reason={auth.reason} onLoggedIn={(me) => setAuth({ state: "in", me })} />;

  const me = auth.me;
  const canWrite = me.role !== "read";
  const logOut = () => {
    storeKey(null);
    setAuth({ state: "login", reason: null });
  };
  return (
    <>
      <a class="skip" href="#main" onClick={(e) => (e.preventDefault(), document.getElementById("main")?.focus())}>
        Skip to content
      </a>
      <header class="top">
        <span class="brand">ramem inspector</span>
        <nav aria-label="Main">
          <a href="#/namespaces">Namespaces</a>
          <a href="#/bench">Benchmarks</a>
        </nav>
        <span class="who" data-testid="who">
          {me.open ? "open server (loopback, no key)" : `key ${me.keyName ?? ""}`} · role <b>{me.role}</b>
          {me.role === "read" ? " (read-only: no edit controls)" : ""}
        </span>
        {me.open ? null : (
          <button type="button" onClick={logOut}>
            Log out
          </button>
        )}
      </header>
      <main id="main" tabIndex={-1}>
        <ErrorBoundary resetKey={location.hash}>{viewFor(route, canWrite)}</ErrorBoundary>
      </main>
    </>
  );
}

function viewFor(route: Route, canWrite: boolean) {
  switch (route.view) {
    case "namespaces":
      return <NamespacesView />;
    case "timeline":
      return <TimelineView ns={route.ns} canWrite={canWrite} />;
    case "recall":
      return <RecallView ns={route.ns} q={route.q} date={route.date} validAt={route.validAt} timeoutMs={route.timeoutMs} />;
    case "unit":
      return <UnitView ns={route.ns} unitId={route.unitId} canWrite={canWrite} />;
    case "bench":
      return <BenchView />;
    case "not-found":
      return (
        <>
          <h1>No such page</h1>
          <p>
            The address <code>#{route.hash}</code> names no view. Go to the <a href="#/namespaces">namespaces</a>.
          </p>
        </>
      );
  }
}
