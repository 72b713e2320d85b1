/** Positions: what is held, its cost and PnL, updated live from the event stream; sell 25/50/100 %. */
import { useState } from "preact/hooks";
import { useSession } from "../session-context";
import { fixed, big, short, when } from "../format";
import type { PositionRow } from "../data";
import { loadPositions } from "../positions-source";
import { useLivePositions } from "../position-live";
import { stateText, type MarketState } from "../market-socket";
import { ErrorLine, missingScope, Pending, Sol, useLoad } from "../ui";
import { SellForm } from "./sell-form";
import { BracketDialog } from "./bracket-dialog";
import { SellDialog } from "./sell-dialog";
import { BuyForm } from "./buy-form";

/** The positions page. */
export function Positions() {
  const { api } = useSession();
  const { data, error, reload } = useLoad(() => loadPositions(api), [api]);
  const [selling, setSelling] = useState<{ row: PositionRow; percent: number }>();
  const [bracket, setBracket] = useState<PositionRow>();
  const [prices, setPrices] = useState<MarketState>();
  const rows = useLivePositions(data?.rows, data?.ledger ?? false, reload, setPrices);
  // A key that may trade but not read: no list to sell from, so a sell by mint instead.
  const blind = missingScope(error) === "read";
  return (
    <section>
      <ErrorLine error={error} what="The positions list" />
      <BuyForm />
      {blind ? <SellForm /> : null}
      {data !== undefined && !data.ledger ? (
        <p class="muted">No positions ledger on this service: token balances, valued at a sell quote.</p>
      ) : null}
      {data === undefined ? (
        <Pending error={error} />
      ) : rows.length === 0 ? (
        <p class="muted">
          No open position. Buy a token (CLI: lasertrade buy &lt;mint&gt; 0.05) and it shows here.
        </p>
      ) : (
        <>
          {prices !== undefined ? (
            <p class="muted">
              Prices (market stream):{" "}
              <span data-testid="prices-state" data-phase={prices.phase}>
                {stateText(prices)}
              </span>
            </p>
          ) : null}
          <div class="table-wrap">
            <table data-testid="positions" class="stack">
              <thead>
                <tr>
                  <th>Wallet</th>
                  <th>Mint</th>
                  <th class="num">Tokens</th>
                  <th class="num">Cost basis</th>
                  <th class="num">Value now</th>
                  <th class="num">Unrealized</th>
                  <th class="num">Realized</th>
                  <th>Opened / last trade</th>
                  <th>Sell / orders</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr key={`${r.wallet}:${r.mint}`} data-mint={r.mint}>
                    <td data-label="Wallet">
                      <code title={r.wallet}>{short(r.wallet)}</code>
                    </td>
                    <td data-label="Mint">
                      <code title={r.mint}>{short(r.mint)}</code>
                    </td>
                    <td class="num" data-label="Tokens" data-testid="position-tokens" data-units={r.tokens}>
                      {fixed(big(r.tokens), r.decimals, 2)}
                    </td>
                    <td class="num" data-label="Cost basis" data-testid="position-cost">
                      <div>
                        {r.costBasis === null ? (
                          <span class="muted">unknown</span>
                        ) : (
                          <Sol lamports={r.costBasis} />
                        )}
                        {r.costBasis !== null && big(r.unknownTokens) > 0n ? (
                          <div class="muted" title="tokens that arrived from outside the service">
                            +{fixed(big(r.unknownTokens), r.decimals, 2)} of unknown cost
                          </div>
                        ) : null}
                      </div>
                    </td>
                    <td class="num" data-label="Value now" data-testid="position-value">
                      <Sol lamports={r.value} />
                    </td>
                    <td class="num" data-label="Unrealized" data-testid="position-unrealized">
                      <Sol lamports={r.unrealized} signed />
                    </td>
                    <td class="num" data-label="Realized" data-testid="position-realized">
                      <Sol lamports={r.realized} signed />
                    </td>
                    <td data-label="Opened / last trade">
                      <div>
                        {when(r.openedAt)}
                        {r.lastTradeAt !== null ? <div class="muted">{when(r.lastTradeAt)}</div> : null}
                      </div>
                    </td>
                    <td data-label="Sell / orders">
                      <div class="buttons">
                        {[25, 50, 100].map((p) => (
                          <button key={p} type="button" onClick={() => setSelling({ row: r, percent: p })}>
                            {p}%
                          </button>
                        ))}
                        <button
                          type="button"
                          onClick={() => setBracket(r)}
                          aria-label={`Take profit / stop loss on ${r.mint}`}
                        >
                          TP/SL…
                        </button>
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      {selling !== undefined ? (
        <SellDialog
          row={selling.row}
          percent={selling.percent}
          onClose={() => {
            setSelling(undefined);
            reload();
          }}
        />
      ) : null}
      {bracket !== undefined ? <BracketDialog row={bracket} onClose={() => setBracket(undefined)} /> : null}
    </section>
  );
}
