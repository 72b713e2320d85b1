/**
 * Sell by mint, for a key that may trade but not read (no positions list, no quote): the mint, the wallet
 * (default unless given) and a percentage, then a confirmation that says no quote could be shown.
 */
import { useState } from "preact/hooks";
import type { PositionRow } from "../data";
import { SellDialog } from "./sell-dialog";

/** A row standing for a position the key cannot read. */
function blindRow(wallet: string, mint: string): PositionRow {
  return {
    wallet,
    mint,
    tokens: "0",
    decimals: 0,
    value: null,
    costBasis: null,
    realized: null,
    unrealized: null,
    openedAt: null,
    lastTradeAt: null,
    unknownTokens: "0",
  };
}

/** The sell-by-mint form. */
export function SellForm() {
  const [selling, setSelling] = useState<{ row: PositionRow; percent: number }>();
  const submit = (e: Event) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const value = (n: string) => (form.elements.namedItem(n) as HTMLInputElement).value.trim();
    setSelling({ row: blindRow(value("wallet"), value("mint")), percent: Number(value("percent")) });
  };
  return (
    <form onSubmit={submit} class="row" aria-label="sell">
      <label>
        Sell mint
        <input name="mint" required placeholder="mint address" />
      </label>
      <label class="narrow">
        Part
        <select name="percent">
          <option value="25">25 %</option>
          <option value="50">50 %</option>
          <option value="100">100 %</option>
        </select>
      </label>
      <label>
        Wallet
        <input name="wallet" placeholder="default wallet" />
      </label>
      <button type="submit">Sell…</button>
      {selling !== undefined ? (
        <SellDialog row={selling.row} percent={selling.percent} blind onClose={() => setSelling(undefined)} />
      ) : null}
    </form>
  );
}
