/** Market: new tokens, trades of chosen mints and migrations, live from the market WebSocket. */
import { useEffect, useRef, useState } from "preact/hooks";
import { useSession } from "../session-context";
import { openMarket, stateText, type MarketMessage, type MarketState } from "../market-socket";
import { sol, short } from "../format";

const KEEP = 200;

function describe(m: MarketMessage): string {
  const s = (k: string) => (typeof m[k] === "string" ? (m[k] as string) : "");
  if (m.type === "new_token") return `${s("name")} (${s("symbol")}) by ${short(s("creator"))}`;
  if (m.type === "trade")
    return `${s("side")} ${sol(s("sol_amount"))} SOL for ${s("token_amount")} units on ${s("venue")} by ${short(s("trader"))}`;
  if (m.type === "migration") return `to pool ${short(s("pool"))}: ${sol(s("sol_amount"))} SOL`;
  if (m.type === "error") return s("message");
  return JSON.stringify(m);
}

/** The market page. */
export function Market() {
  const { api } = useSession();
  const [state, setState] = useState<MarketState>({ phase: "connecting", attempt: 0 });
  const [items, setItems] = useState<MarketMessage[]>([]);
  const [mints, setMints] = useState<string[]>([]);
  // Mints the server acknowledged following (its `subscribed` answer).
  const [acked, setAcked] = useState<Set<string>>(new Set());
  const socket = useRef<ReturnType<typeof openMarket>>();
  // While a retry is planned, the countdown is redrawn each second.
  const [, tick] = useState(0);
  useEffect(() => {
    if (state.phase !== "reconnecting") return;
    const t = setInterval(() => tick((n) => n + 1), 1000);
    return () => clearInterval(t);
  }, [state]);
  useEffect(() => {
    const s = openMarket(
      api.key,
      (m) => {
        if (m.type === "subscribed" && Array.isArray(m.keys)) {
          const keys = m.keys.map(String);
          setAcked((a) => new Set([...a, ...keys]));
        }
        if (m.type === "subscribed" || m.type === "unsubscribed" || m.type === "pong") return;
        setItems((xs) => [m, ...xs].slice(0, KEEP));
      },
      setState,
      // The server forgot the subscriptions with the connection: acknowledged again after the resume.
      () => setAcked(new Set()),
    );
    s.send({ method: "subscribeNewToken" });
    s.send({ method: "subscribeMigration" });
    socket.current = s;
    return () => s.close();
  }, [api]);
  const follow = (e: Event) => {
    e.preventDefault();
    const input = (e.currentTarget as HTMLFormElement).elements.namedItem("mint") as HTMLInputElement;
    const mint = input.value.trim();
    if (mint === "" || mints.includes(mint)) return;
    socket.current?.send({ method: "subscribeTokenTrade", keys: [mint] });
    setMints([...mints, mint]);
    input.value = "";
  };
  const unfollow = (mint: string) => {
    socket.current?.send({ method: "unsubscribeTokenTrade", keys: [mint] });
    setMints(mints.filter((m) => m !== mint));
  };
  return (
    <section>
      <p>
        Stream:{" "}
        <strong data-testid="market-state" data-phase={state.phase} role="status">
          {stateText(state)}
        </strong>
        . New tokens and migrations always; trades of the mints below. After a drop the stream reconnects by
        itself and follows the same mints again (events sent while it was away are not replayed).
      </p>
      <form onSubmit={follow} class="row">
        <label>
          Follow trades of a mint
          <input name="mint" placeholder="mint address" />
        </label>
        <button type="submit">Follow</button>
      </form>
      <p>
        {mints.map((m) => (
          <button
            key={m}
            type="button"
            class="chip"
            onClick={() => unfollow(m)}
            title={acked.has(m) ? "following; click to stop" : "subscribing…"}
            data-subscribed={acked.has(m) ? "" : undefined}
          >
            {short(m)} ×
          </button>
        ))}
      </p>
      <ul class="feed-list" data-testid="market">
        {items.map((m, i) => (
          <li key={`${String(m.signature)}:${i}`}>
            <span class={`tag ${m.type}`}>{m.type}</span> <code>{short(String(m.mint ?? ""))}</code>{" "}
            {describe(m)}
          </li>
        ))}
      </ul>
      {items.length === 0 ? <p class="muted">Waiting for market events…</p> : null}
    </section>
  );
}
