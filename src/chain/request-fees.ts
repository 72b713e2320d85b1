/**
 * Issue 22 item 5: the chain as one request with its own `priority_fee` / `tip` sees it. Every execution
 * endpoint builds through `assemble` and prices its reserves and balance checks with `computeBudget` and
 * `relayTip`, so overriding those three here applies the request's figures everywhere at once.
 */
import type { RequestFees } from "../core/fee-fields.js";
import type { Chain } from "./chain.js";

/** `chain` with the request's priority fee and tip; the chain itself when the request set neither. */
export function withRequestFees(chain: Chain, fees: RequestFees): Chain {
  const { priorityFeeLamports, tipLamports } = fees;
  if (priorityFeeLamports === undefined && tipLamports === undefined) return chain;
  const relayTip = (): ReturnType<Chain["relayTip"]> => {
    const configured = chain.relayTip();
    return tipLamports === undefined ? configured : { accounts: configured.accounts, lamports: tipLamports };
  };
  return {
    ...chain,
    relayTip,
    computeBudget(kind) {
      const budget = chain.computeBudget(kind);
      if (priorityFeeLamports === undefined) return budget;
      // A price that charges at least the requested fee at the highest limit the transaction may carry:
      // reserves and balance checks computed from it cover what the transaction will pay.
      const price = (priorityFeeLamports * 1_000_000n + budget.maxUnitLimit - 1n) / budget.maxUnitLimit;
      return { maxUnitLimit: budget.maxUnitLimit, priceMicroLamports: price };
    },
    assemble(input) {
      // Bundle legs carry an explicit tip (or none): only the default relay tip is the request's to change.
      const relayTipped = input.tip === undefined || input.tip === "relay";
      const tip = relayTipped && tipLamports !== undefined ? relayTip() : input.tip;
      return chain.assemble({
        ...input,
        ...(tip !== undefined ? { tip } : {}),
        ...(priorityFeeLamports !== undefined ? { priorityFeeLamports } : {}),
      });
    },
  };
}
