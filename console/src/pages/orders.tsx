/** Orders: every order of the account with its state, levels and executions; cancel; live from `order.*` events. */
import { Fragment } from "preact";
import { useEffect, useState } from "preact/hooks";
import { useSession } from "../session-context";
import { short, when } from "../format";
import { ErrorLine, Pending, useLoad } from "../ui";

/** One level as GET /v1/orders shows it. */
interface Trigger {
  fires_when: "at_or_above" | "at_or_below";
  price?: string;
  sol_out?: string;
  asked: unknown;
}

/** An order (the fields the page reads). */
export interface Order {
  id: string;
  state: string;
  kind: string;
  side: string;
  wallet: string;
  mint: string | null;
  amount: string;
  triggers?: Partial<Record<"limit" | "take_profit" | "stop_loss", Trigger>>;
  trail_percent?: string | null;
  entry_price?: string | null;
  triggered_by: string | null;
  error: unknown;
  execution_ids: string[];
  created_at: string;
  updated_at: string;
}

const LEVEL_NAMES = { limit: "limit", take_profit: "take profit", stop_loss: "stop loss" } as const;

/** A level as text: the side that fires and the price (SOL per whole token) or the SOL the amount gets. */
export function levelText(t: Trigger): string {
  const side = t.fires_when === "at_or_above" ? "≥" : "≤";
  return t.price !== undefined ? `${side} ${t.price} SOL/token` : `${side} ${t.sol_out ?? "?"} SOL out`;
}

/** The levels of an order, one line each. */
export function Levels({ order }: { order: Pick<Order, "triggers" | "trail_percent"> }) {
  const entries = Object.entries(order.triggers ?? {}) as [keyof typeof LEVEL_NAMES, Trigger][];
  return (
    <dl class="levels">
      {entries.map(([name, t]) => (
        <Fragment key={name}>
          <dt class="muted">{LEVEL_NAMES[name]}</dt>
          <dd data-testid={`level-${name}`}>{levelText(t)}</dd>
        </Fragment>
      ))}
      {order.trail_percent !== undefined && order.trail_percent !== null ? (
        <>
          <dt class="muted">trail</dt>
          <dd>{order.trail_percent}% below the peak</dd>
        </>
      ) : null}
    </dl>
  );
}

function errorText(e: unknown): string {
  if (e === null || e === undefined) return "";
  if (typeof e === "object" && typeof (e as { detail?: unknown }).detail === "string")
    return (e as { detail: string }).detail;
  return typeof e === "string" ? e : JSON.stringify(e);
}

/** The orders page. */
export function Orders() {
  const { api, events } = useSession();
  const first = useLoad(() => api.get<{ orders: Order[] }>("/v1/orders?limit=500"), [api]);
  const [rows, setRows] = useState<Order[]>([]);
  const [actionError, setActionError] = useState<unknown>();
  const [busy, setBusy] = useState<string>();
  useEffect(() => {
    if (first.data !== undefined) setRows(first.data.orders);
  }, [first.data]);
  const put = (o: Order) =>
    setRows((rs) =>
      rs.some((r) => r.id === o.id) ? rs.map((r) => (r.id === o.id ? o : r)) : [o, ...rs].slice(0, 500),
    );
  // An order event names the order in `execution_id`: its state (and executions) re-read, pushed, not polled.
  useEffect(
    () =>
      events.on((e) => {
        if (!e.type.startsWith("order.") || e.execution_id === undefined) return;
        api.get<Order>(`/v1/orders/${e.execution_id}`).then(put, () => undefined);
      }),
    [api, events],
  );
  const cancel = async (o: Order) => {
    setBusy(o.id);
    setActionError(undefined);
    try {
      put(await api.del<Order>(`/v1/orders/${o.id}`));
    } catch (e) {
      setActionError(e);
    } finally {
      setBusy(undefined);
    }
  };
  return (
    <section>
      <ErrorLine error={first.error} what="The orders list" />
      <ErrorLine error={actionError} what="Cancelling an order" />
      <p class="muted">
        Take-profit / stop-loss brackets are placed from a position row (Positions, “TP/SL…”). Live: state
        changes arrive from the event stream.
      </p>
      {first.data === undefined ? (
        <Pending error={first.error} />
      ) : rows.length === 0 ? (
        <p class="muted">No order yet.</p>
      ) : (
        <div class="table-wrap">
          <table data-testid="orders" class="stack">
            <thead>
              <tr>
                <th>Created</th>
                <th>Kind</th>
                <th>State</th>
                <th>Mint / wallet</th>
                <th>Amount</th>
                <th>Levels</th>
                <th>Executions / error</th>
                <th>
                  <span class="muted">Cancel</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((o) => (
                <tr key={o.id} data-order={o.id} data-state={o.state}>
                  <td data-label="Created">
                    <div>
                      {when(o.created_at)}
                      <div class="muted">
                        <code title={o.id}>{short(o.id, 8)}</code>
                      </div>
                    </div>
                  </td>
                  <td data-label="Kind">
                    {o.kind} {o.side}
                  </td>
                  <td data-label="State">
                    <div>
                      <span class={`status ${o.state}`} data-testid="order-state">
                        {o.state}
                      </span>
                      {o.triggered_by !== null ? <div class="muted">by {o.triggered_by}</div> : null}
                    </div>
                  </td>
                  <td data-label="Mint / wallet">
                    <div>
                      <code title={o.mint ?? ""}>{o.mint === null ? "new tokens" : short(o.mint)}</code>
                      <div class="muted">
                        <code title={o.wallet}>{short(o.wallet)}</code>
                      </div>
                    </div>
                  </td>
                  <td data-label="Amount">{o.amount}</td>
                  <td data-label="Levels">
                    <Levels order={o} />
                  </td>
                  <td data-label="Executions / error">
                    <div>
                      {o.execution_ids.map((id) => (
                        <code key={id} title={id}>
                          {short(id, 6)}{" "}
                        </code>
                      ))}
                      {o.error !== null && o.error !== undefined ? (
                        <div class="failure">{errorText(o.error)}</div>
                      ) : null}
                    </div>
                  </td>
                  <td class="end">
                    {o.state === "open" ? (
                      <button
                        type="button"
                        disabled={busy === o.id}
                        onClick={() => void cancel(o)}
                        aria-label={`Cancel order ${o.id}`}
                      >
                        {busy === o.id ? "Cancelling…" : "Cancel"}
                      </button>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
