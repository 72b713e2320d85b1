/** Sell 25/50/100 % of a position: the quote first, then the trade once the operator confirms it. */
import { useState } from "preact/hooks";
import { useSession } from "../session-context";
import { big, fixed, short, sol } from "../format";
import { sellQuote, type PositionRow } from "../data";
import { ErrorLine, Modal, useLoad } from "../ui";

interface TradeResult {
  signature: string;
  confirmed: boolean;
  amount_units: number;
  fill?: { sol_change_lamports: string } | null;
}

/** The confirmation dialog of selling `percent` of `row`. */
export function SellDialog(props: {
  row: PositionRow;
  percent: number;
  blind?: boolean;
  onClose: () => void;
}) {
  const { api } = useSession();
  const { row, percent } = props;
  const units = (big(row.tokens) * BigInt(percent)) / 100n;
  // Blind: a key without `read` sees neither the balance nor a quote; the percentage is of the balance then.
  const quote = useLoad(
    () => (props.blind === true ? Promise.resolve(null) : sellQuote(api, row.mint, units)),
    [row.mint, units],
  );
  const [result, setResult] = useState<TradeResult>();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const execute = async () => {
    setBusy(true);
    setError(undefined);
    try {
      // The percentage of the balance read when the trade runs: a fill in between cannot oversell.
      setResult(
        await api.post<TradeResult>("/v1/trades/execute", {
          action: "sell",
          mint: row.mint,
          amount: `${percent}%`,
          ...(row.wallet !== "" ? { wallet: row.wallet } : {}),
        }),
      );
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  const q = quote.data;
  return (
    <Modal title={`Sell ${percent}% of ${short(row.mint)}`} onClose={props.onClose}>
      <ErrorLine error={quote.error} />
      {props.blind === true ? (
        <p class="notice" data-testid="sell-unquoted">
          No quote: this key lacks the “read” scope, so neither the balance nor the price can be shown. The
          sell takes {percent}% of the wallet's balance when it runs, within the service's default slippage.
        </p>
      ) : q === undefined || q === null ? (
        <p class="muted">{quote.loading ? "Quoting…" : "Nothing to sell."}</p>
      ) : (
        <dl class="quote" data-testid="sell-quote">
          <dt>Tokens in</dt>
          <dd class="num">{fixed(big(q.tokens_in), row.decimals)}</dd>
          <dt>SOL out (fees included)</dt>
          <dd class="num" data-testid="quote-sol-out">
            {sol(q.sol_out_lamports, 9)}
          </dd>
          <dt>Minimum SOL out ({q.slippage_bps / 100}% slippage)</dt>
          <dd class="num">{sol(q.min_sol_out_lamports, 9)}</dd>
          <dt>Fees</dt>
          <dd class="num">{sol(q.fees.total_fee_lamports, 9)}</dd>
          <dt>Price impact</dt>
          <dd class="num">{q.price_impact_percent}%</dd>
          <dt>Venue</dt>
          <dd>{q.venue}</dd>
        </dl>
      )}
      <p class="muted">
        From {row.wallet !== "" ? <code>{short(row.wallet, 6)}</code> : "the default wallet"}. Network fee,
        priority fee and tip come on top.
      </p>
      <ErrorLine error={error} />
      {result !== undefined ? (
        <p class="ok" role="status" data-testid="sell-result">
          Sold {result.amount_units} units: {result.confirmed ? "confirmed" : "sent"},{" "}
          <code>{short(result.signature, 8)}</code>
          {result.fill ? <> (SOL change {sol(result.fill.sol_change_lamports, 9)})</> : null}
        </p>
      ) : null}
      <div class="actions">
        {result === undefined ? (
          <button
            type="button"
            class="danger"
            disabled={busy || (!q && props.blind !== true)}
            onClick={execute}
          >
            {busy ? "Selling…" : `Confirm sell ${percent}%`}
          </button>
        ) : null}
        <button type="button" onClick={props.onClose}>
          {result === undefined ? "Cancel" : "Close"}
        </button>
      </div>
    </Modal>
  );
}
