/** Buy from the positions page: mint and SOL amount, the quote first, then the trade once confirmed. */
import { useState } from "preact/hooks";
import { useSession } from "../session-context";
import { fixed, big, short, sol } from "../format";
import { mintDecimals, type Wallet } from "../data";
import { ErrorLine, Modal, missingScope, useLoad } from "../ui";

interface BuyQuote {
  venue: string;
  tokens_out: string;
  min_tokens_out: string;
  sol_in_lamports: string;
  price_impact_percent: string;
  slippage_bps: number;
  fees: { total_fee_lamports: string };
}

interface Order {
  mint: string;
  amount: string;
  wallet: string;
}

function BuyDialog(props: { order: Order; onClose: () => void }) {
  const { api } = useSession();
  const { mint, amount, wallet } = props.order;
  const quote = useLoad(
    () =>
      Promise.all([
        api.get<BuyQuote>(
          `/v1/quote?mint=${encodeURIComponent(mint)}&side=buy&amount=${encodeURIComponent(amount)}`,
        ),
        mintDecimals(api, mint),
      ]),
    [mint, amount],
  );
  // A key without `read` cannot quote: the trade still runs, bounded by the slippage the service applies.
  const unquoted = missingScope(quote.error) !== undefined;
  const [done, setDone] = useState<{ signature: string; confirmed: boolean }>();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const execute = async () => {
    setBusy(true);
    setError(undefined);
    try {
      setDone(
        await api.post("/v1/trades/execute", {
          action: "buy",
          mint,
          amount,
          ...(wallet !== "" ? { wallet } : {}),
        }),
      );
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  const [q, decimals] = quote.data ?? [undefined, undefined];
  // Whole tokens with the mint's own decimals; atomic units when they could not be read.
  const tokens = (units: string) =>
    decimals === undefined ? `${units} units` : fixed(big(units), decimals, Math.min(decimals, 4));
  return (
    <Modal title={`Buy ${amount} SOL of ${short(mint)}`} onClose={props.onClose}>
      <ErrorLine error={quote.error} what="A quote" />
      {q === undefined ? (
        quote.loading ? (
          <p class="muted">Quoting…</p>
        ) : null
      ) : (
        <dl class="quote" data-testid="buy-quote" data-decimals={decimals}>
          <dt>Tokens out (about)</dt>
          <dd class="num" data-testid="buy-tokens-out">
            {tokens(q.tokens_out)}
          </dd>
          <dt>Minimum tokens ({q.slippage_bps / 100}% slippage)</dt>
          <dd class="num">{tokens(q.min_tokens_out)}</dd>
          <dt>SOL in (fees included)</dt>
          <dd class="num">{sol(q.sol_in_lamports, 9)}</dd>
          <dt>Fees</dt>
          <dd class="num">{sol(q.fees.total_fee_lamports, 9)}</dd>
          <dt>Price impact</dt>
          <dd class="num">{q.price_impact_percent}%</dd>
          <dt>Venue</dt>
          <dd>{q.venue}</dd>
        </dl>
      )}
      <ErrorLine error={error} />
      {done !== undefined ? (
        <p class="ok" role="status" data-testid="buy-result">
          Bought: {done.confirmed ? "confirmed" : "sent"}, <code>{short(done.signature, 8)}</code>
        </p>
      ) : null}
      <div class="actions">
        {done === undefined ? (
          <button
            type="button"
            class="danger"
            disabled={busy || (q === undefined && !unquoted)}
            onClick={execute}
          >
            {busy ? "Buying…" : "Confirm buy"}
          </button>
        ) : null}
        <button type="button" onClick={props.onClose}>
          {done === undefined ? "Cancel" : "Close"}
        </button>
      </div>
    </Modal>
  );
}

/** The buy form (wallet: the key's default unless chosen). */
export function BuyForm() {
  const { api } = useSession();
  const wallets = useLoad(() => api.get<Wallet[]>("/v1/wallets"), [api]);
  const [order, setOrder] = useState<Order>();
  const submit = (e: Event) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const value = (n: string) => (form.elements.namedItem(n) as HTMLInputElement).value.trim();
    setOrder({ mint: value("mint"), amount: value("amount"), wallet: value("wallet") });
  };
  return (
    <form onSubmit={submit} class="row" aria-label="buy">
      <label>
        Buy mint
        <input name="mint" required placeholder="mint address" />
      </label>
      <label class="narrow">
        SOL
        <input name="amount" required inputMode="decimal" defaultValue="0.05" />
      </label>
      <label>
        Wallet
        <select name="wallet">
          <option value="">default wallet</option>
          {(wallets.data ?? []).map((w) => (
            <option key={w.public_key} value={w.public_key}>
              {short(w.public_key, 6)}
              {w.is_default ? " (default)" : ""}
            </option>
          ))}
        </select>
      </label>
      <button type="submit">Quote buy…</button>
      {order !== undefined ? <BuyDialog order={order} onClose={() => setOrder(undefined)} /> : null}
    </form>
  );
}
