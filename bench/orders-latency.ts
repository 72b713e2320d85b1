/**
 * `npx tsx bench/orders-latency.ts [--rounds 20]`: how soon an order fires after the trade that crosses its
 * level, on the in-process sandbox (localnet slots of 50 ms, the market feed and the warm state on, as
 * main.ts runs them). Each round: a fresh token, a position, a take-profit at +5%, then another account's buy
 * that crosses it; measured from that buy's sendTransaction leaving the service to the order's own
 * sendTransaction leaving it (the service's fetch to the relay is timed). So the figure includes the buy
 * landing in a slot and its account notification (or decoded event) reaching the service, then the
 * evaluation, claim, custody checks and the trade's build and signature. The split beside it: from the first
 * sign of the crossing buy reaching the service (the curve account's notification on the service's own
 * subscription, or the market feed's decoded trade of the mint, whichever comes first: the warm state acts on
 * both) to the order's send — the trigger latency.
 */
import { performance } from "node:perf_hooks";
import { PublicKey } from "@solana/web3.js";
import { bondingCurveAddress } from "../src/launch/programs.js";
import type { FetchLike } from "../src/chain/json-rpc.js";
import { startE2e, trade } from "../test/helpers/e2e.js";
import { numberFlag } from "./flags.js";
import { runScript } from "./process-stats.js";

async function main(): Promise<void> {
  const rounds = numberFlag(process.argv.slice(2), "rounds", 20);
  const sends: number[] = [];
  const inner = globalThis.fetch as unknown as FetchLike;
  const timed: FetchLike = (url, init) => {
    if (typeof init.body === "string" && init.body.includes('"sendTransaction"'))
      sends.push(performance.now());
    return inner(url, init);
  };
  const e2e = await startE2e({ warm: true, market: true, chain: { fetch: timed } });
  const deltas: number[] = [];
  const splits: number[] = [];
  try {
    const holder = await e2e.setup({ sol: 100n });
    const mover = await e2e.setup({ sol: 1000n });
    for (let r = 0; r < rounds; r++) {
      const { mint } = e2e.localnet.admin.createToken();
      // The service's own subscription of the curve (handlers of one account share its notification) and the feed.
      const seen: number[] = [];
      const stopAccount = e2e.chain.subscriptions.accountSubscribe(
        bondingCurveAddress(new PublicKey(mint)).toBase58(),
        () => seen.push(performance.now()),
      );
      const stopFeed = e2e.feed?.onEvents((events) => {
        if (events.some((ev) => "mint" in ev && ev.mint === mint)) seen.push(performance.now());
      });
      await trade(e2e, holder.apiKey, { action: "buy", mint, amount: "0.5", simulate: false, confirm: true });
      const placed = await e2e.post(holder.apiKey, "/v1/orders", { kind: "take_profit", mint, percent: 5 });
      if (placed.statusCode !== 200) throw new Error(placed.body);
      const id = placed.json<{ id: string }>().id;
      // Let the order's mint settle in the warm state, then cross the level.
      await new Promise((res) => setTimeout(res, 200));
      const from = sends.length;
      await trade(e2e, mover.apiKey, { action: "buy", mint, amount: "5", simulate: false, confirm: true });
      for (let i = 0; i < 500; i++) {
        const o = (await e2e.get(holder.apiKey, `/v1/orders/${id}`)).json<{ state: string }>();
        if (o.state !== "open" && o.state !== "triggered") break;
        await new Promise((res) => setTimeout(res, 10));
      }
      // The mover's send, then the order's (the first send after it).
      if (sends.length >= from + 2) {
        deltas.push(sends[from + 1]! - sends[from]!);
        const arrived = seen.find((t) => t > sends[from]!);
        if (arrived !== undefined && arrived < sends[from + 1]!) splits.push(sends[from + 1]! - arrived);
      }
      stopAccount();
      stopFeed?.();
    }
  } finally {
    await e2e.close();
  }
  deltas.sort((a, b) => a - b);
  splits.sort((a, b) => a - b);
  const q = (p: number, of = deltas): string =>
    of.length === 0 ? "-" : of[Math.min(of.length - 1, Math.floor(p * of.length))]!.toFixed(2);
  console.log(
    `orders-latency: ${deltas.length}/${rounds} rounds, crossing trade's send → order's send: ` +
      `p50 ${q(0.5)} ms, p90 ${q(0.9)} ms, max ${q(1)} ms (includes the localnet's 50 ms slot and the notification)`,
  );
  console.log(
    `orders-latency: ${splits.length}/${rounds} rounds, notification or decoded trade at the service → order's send: ` +
      `p50 ${q(0.5, splits)} ms, p99 ${q(0.99, splits)} ms, max ${q(1, splits)} ms`,
  );
}

runScript(main);
