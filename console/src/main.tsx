/** The console's entry: sign-in, the page shell (navigation by URL hash) and the session it shares. */
import "./styles.css";
import { render } from "preact";
import { useEffect, useMemo, useState } from "preact/hooks";
import { ApiFailure, createApi, type Api } from "./api";
import { EventFeed } from "./events";
import { forgetKey, keepKey, keptKey } from "./session";
import { SessionContext, type Session } from "./session-context";
import { ErrorLine } from "./ui";
import { Overview } from "./pages/overview";
import { Positions } from "./pages/positions";
import { Orders } from "./pages/orders";
import { Executions } from "./pages/executions";
import { Wallets } from "./pages/wallets";
import { Keys } from "./pages/keys";
import { Activity } from "./pages/activity";
import { Market } from "./pages/market";

const PAGES = [
  { path: "overview", label: "Overview", view: Overview },
  { path: "positions", label: "Positions", view: Positions },
  { path: "orders", label: "Orders", view: Orders },
  { path: "executions", label: "Executions", view: Executions },
  { path: "wallets", label: "Wallets", view: Wallets },
  { path: "keys", label: "Keys & policies", view: Keys },
  { path: "activity", label: "Activity", view: Activity },
  { path: "market", label: "Market", view: Market },
] as const;

function currentPath(): string {
  const p = location.hash.replace(/^#\/?/, "");
  return PAGES.some((x) => x.path === p) ? p : "overview";
}

function SignIn({ onSignedIn }: { onSignedIn: (api: Api) => void }) {
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const key = (form.elements.namedItem("key") as HTMLInputElement).value.trim();
    const remember = (form.elements.namedItem("remember") as HTMLInputElement).checked;
    setBusy(true);
    setError(undefined);
    const api = createApi(key);
    try {
      // The smallest read proves the key. A 403 proves it too (an unknown, revoked or expired key is a 401): a
      // key without `read` (a trade-only bot key) signs in, and each page says what its scopes do not allow.
      await api.get("/v1/wallets?limit=1").catch((err: unknown) => {
        if (!(err instanceof ApiFailure && err.status === 403)) throw err;
      });
      keepKey(key, remember);
      onSignedIn(api);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <main class="signin">
      <h1>lasertrade console</h1>
      <form onSubmit={submit}>
        <label>
          API key
          <input name="key" type="password" autocomplete="off" required placeholder="lt_…" autofocus />
        </label>
        <label class="inline">
          <input name="remember" type="checkbox" defaultChecked /> keep it for this tab (sessionStorage;
          closing the tab forgets it)
        </label>
        <button type="submit" disabled={busy}>
          {busy ? "Checking…" : "Sign in"}
        </button>
        <ErrorLine error={error} />
      </form>
      <p class="muted">
        No key yet? <code>npx lasertrade sandbox</code> or <code>POST /v1/laser/setup</code> makes one. The
        key stays in this tab: never in a cookie, never in localStorage, never in a URL.
      </p>
    </main>
  );
}

function Shell({ session }: { session: Session }) {
  const [path, setPath] = useState(currentPath());
  const [feedState, setFeedState] = useState(session.events.state);
  useEffect(() => {
    const onHash = () => setPath(currentPath());
    addEventListener("hashchange", onHash);
    const off = session.events.onState(setFeedState);
    // The stream may have changed state between the first render and this subscription.
    setFeedState(session.events.state);
    return () => {
      removeEventListener("hashchange", onHash);
      off();
    };
  }, [session]);
  const page = PAGES.find((p) => p.path === path) ?? PAGES[0];
  const View = page.view;
  return (
    <SessionContext.Provider value={session}>
      <header>
        <span class="brand">lasertrade</span>
        <nav aria-label="pages">
          {PAGES.map((p) => (
            <a key={p.path} href={`#/${p.path}`} aria-current={p.path === path ? "page" : undefined}>
              {p.label}
            </a>
          ))}
        </nav>
        <span class={`feed ${feedState === "live" ? "ok" : ""}`} data-testid="feed-state">
          events: {feedState}
        </span>
        <button type="button" class="link" onClick={session.signOut}>
          Sign out
        </button>
      </header>
      <main>
        <h2>{page.label}</h2>
        <View />
      </main>
    </SessionContext.Provider>
  );
}

function App() {
  const [api, setApi] = useState<Api | null>(() => {
    const k = keptKey();
    return k !== null && k !== "" ? createApi(k) : null;
  });
  const session = useMemo<Session | null>(() => {
    if (api === null) return null;
    return {
      api,
      events: new EventFeed(api.key),
      signOut: () => {
        forgetKey();
        setApi(null);
      },
    };
  }, [api]);
  useEffect(() => () => session?.events.close(), [session]);
  return session === null ? <SignIn onSignedIn={setApi} /> : <Shell session={session} />;
}

render(<App />, document.getElementById("app")!);
