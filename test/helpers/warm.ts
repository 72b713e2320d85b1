/** Helpers of the warm-state e2e suites: waiting for background work, and trading until a trade is warm. */
import { trade, type E2e, type TradeResult } from "./e2e.js";

/** Polls `check` until it holds (subscriptions, seeding and events happen in the background). */
export async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Trades (simulate and confirm off) until one is served from the cache (the first after a change may still read). */
export async function warmTrade(
  e2e: E2e,
  apiKey: string,
  mint: string,
  amount = "0.001",
): Promise<TradeResult> {
  let last: TradeResult | undefined;
  await until(async () => {
    last = await trade(e2e, apiKey, { action: "buy", mint, amount, simulate: false, confirm: false });
    return last.state_source === "cache";
  }, "a trade on warm state");
  return last!;
}
