import { useState } from "preact/hooks";
import { api, storeKey } from "../api.js";
import type { WhoAmI } from "../types.js";
import { ErrorMessage } from "../error-message.js";

/** The key is entered once per tab and kept in session storage (gone when the tab closes). */
export function LoginView({ reason, onLoggedIn }: { reason: string | null; onLoggedIn: (me: WhoAmI) => void }) {
  const [key, setKey] = useState("");
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const me = await api<WhoAmI>("/v1/me", { key: key.trim() });
      storeKey(key.trim());
      onLoggedIn(me);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <main id="main" class="login">
      <h1>ramem inspector</h1>
      {reason ? (
        <p class="notice" role="status">
          {reason}
        </p>
      ) : null}
      <form onSubmit={submit}>
        <label for="api-key">API key</label>
        <input id="api-key" name="api-key" type="password" autoComplete="off" value={key} onInput={(e) => setKey((e.target as HTMLInputElement).value)} placeholder="rm_…" required />
        <button type="submit" disabled={busy}>
          {busy ? "Checking…" : "Open"}
        </button>
        <p class="hint">A key from <code>ramem keys create</code>. It is sent only to this server and kept until this tab closes.</p>
      </form>
      {error ? <ErrorMessage error={error} /> : null}
    </main>
  );
}
