/**
 * A take-profit / stop-loss bracket on a position: the operator's percentages from the entry price, previewed
 * with a dry run (the levels as prices, the price now, the policy's verdict), placed only once confirmed.
 */
import { useState } from "preact/hooks";
import { useSession } from "../session-context";
import { big, fixed, short } from "../format";
import type { PositionRow } from "../data";
import { ErrorLine, Modal } from "../ui";
import { Levels, type Order } from "./orders";

/** POST /v1/orders with dry_run: what the order would be now (the fields the dialog shows). */
interface DryRun {
  policy: { allowed: boolean; rule: string | null; detail: string | null };
  order: Pick<Order, "triggers" | "trail_percent" | "amount"> & {
    size_units: string | null;
    entry_price: string | null;
  };
  price_now: string | null;
  venue: string;
  would_fire_now: boolean;
  trigger_now: string | null;
}

interface Asked {
  takeProfit: string;
  stopLoss: string;
  part: string;
}

const bodyOf = (row: PositionRow, l: Asked) => ({
  kind: "bracket",
  mint: row.mint,
  wallet: row.wallet,
  amount: `${l.part}%`,
  take_profit: { percent: l.takeProfit },
  stop_loss: { percent: l.stopLoss },
});

/** The bracket dialog of `row`. */
export function BracketDialog(props: { row: PositionRow; onClose: () => void }) {
  const { api } = useSession();
  const { row } = props;
  const [levels, setLevels] = useState<Asked>({ takeProfit: "50", stopLoss: "-20", part: "100" });
  const [preview, setPreview] = useState<DryRun>();
  const [placed, setPlaced] = useState<Order>();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const run = async (fn: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    try {
      await fn();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  const review = (e: Event) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const value = (n: string) => (form.elements.namedItem(n) as HTMLInputElement).value.trim();
    const next = { takeProfit: value("take_profit"), stopLoss: value("stop_loss"), part: value("part") };
    setLevels(next);
    void run(async () =>
      setPreview(await api.post<DryRun>("/v1/orders", { ...bodyOf(row, next), dry_run: true })),
    );
  };
  const place = () => run(async () => setPlaced(await api.post<Order>("/v1/orders", bodyOf(row, levels))));
  return (
    <Modal title={`Take profit / stop loss on ${short(row.mint)}`} onClose={props.onClose}>
      <form onSubmit={review} onInput={() => setPreview(undefined)} class="row" aria-label="bracket levels">
        <label class="narrow">
          Take profit (% from entry)
          <input name="take_profit" inputMode="decimal" required defaultValue={levels.takeProfit} />
        </label>
        <label class="narrow">
          Stop loss (% from entry)
          <input name="stop_loss" inputMode="decimal" required defaultValue={levels.stopLoss} />
        </label>
        <label class="narrow">
          Part of the position (%)
          <input name="part" inputMode="decimal" required defaultValue={levels.part} />
        </label>
        <button type="submit" disabled={busy || placed !== undefined}>
          Preview levels
        </button>
      </form>
      {preview !== undefined ? (
        <div data-testid="bracket-preview">
          <p>
            Sells {preview.order.amount} of the position
            {preview.order.size_units !== null
              ? ` (${fixed(big(preview.order.size_units), row.decimals, 2)} tokens)`
              : ""}{" "}
            from <code>{short(row.wallet, 6)}</code> on {preview.venue}, when the first level is crossed (the
            other is then cancelled). Prices are SOL per whole token of that size, fees included.
          </p>
          <Levels order={preview.order} />
          <p class="muted">
            Entry price {preview.order.entry_price ?? "—"} · price now {preview.price_now ?? "—"}
          </p>
          {preview.would_fire_now ? (
            <p class="notice">The {preview.trigger_now} level is crossed already: it would fire at once.</p>
          ) : null}
          {!preview.policy.allowed ? (
            <p class="error" role="alert">
              Refused by the key's policy: {preview.policy.detail} (rule: {preview.policy.rule})
            </p>
          ) : null}
        </div>
      ) : null}
      <ErrorLine error={error} what="Placing an order" />
      {placed !== undefined ? (
        <p class="ok" role="status" data-testid="bracket-placed">
          Placed: order <code>{short(placed.id, 8)}</code> is {placed.state}. It is on the Orders page.
        </p>
      ) : null}
      <div class="actions">
        {placed === undefined ? (
          <button
            type="button"
            class="danger"
            disabled={busy || preview === undefined || !preview.policy.allowed}
            onClick={() => void place()}
          >
            Place bracket
          </button>
        ) : null}
        <button type="button" onClick={props.onClose}>
          {placed === undefined ? "Cancel" : "Close"}
        </button>
      </div>
    </Modal>
  );
}
