/**
 * Copy latency of a copy order against a client that follows the leader on `/v1/stream`
 * (`subscribeAccountTrade`) and posts the buy itself, on the in-process sandbox (as bench/orders-trigger.ts:
 * warm state and market feed on, the app on a port: the sandbox the trigger bench runs on, after it). Each round: a fresh token, then either a copy order
 * following the leader (placed for the round, cancelled after) or the stream client armed, then the leader's buy.
 *
 * Measured alike for both, from the market feed's decoded trade of the leader's buy at the service (the event a
 * copy order acts on, and what feeds the stream) to our buy's sendTransaction leaving the service for the relay.
 */
import { performance } from "node:perf_hooks";
import WebSocket from "ws";
import { trade, type E2e } from "../test/helpers/e2e.js";
import {
  firstSignToSend,
  openStream,
  subscribe,
  type BenchSandbox,
  type TriggerFigures,
} from "./orders-trigger.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface RoundInput {
  leader: { apiKey: string; wallet: string };
  copier: string;
  base: string;
  sends: number[];
  mode: "order" | "client";
}

/** Runs `rounds` copy-order rounds and `rounds` stream-client rounds, alternating. */
export async function measureCopies(rounds: number, s: BenchSandbox): Promise<TriggerFigures> {
  const { e2e, base, sends } = s;
  const out: TriggerFigures = { order: [], client: [], missed: { order: 0, client: 0 } };
  const leader = await e2e.setup({ sol: 100n });
  const copier = await e2e.setup({ sol: 100n });
  for (let r = 0; r < 2 * rounds; r++) {
    const mode = r % 2 === 0 ? "order" : "client";
    const ms = await round(e2e, { leader, copier: copier.apiKey, base, sends, mode });
    if (ms === null) out.missed[mode]++;
    else out[mode].push(ms);
  }
  return out;
}

async function round(e2e: E2e, o: RoundInput): Promise<number | null> {
  const { mint } = e2e.localnet.admin.createToken();
  const seen: number[] = [];
  const stopFeed = e2e.feed?.onEvents((events) => {
    if (events.some((ev) => "mint" in ev && ev.mint === mint)) seen.push(performance.now());
  });
  let done: Promise<unknown> = Promise.resolve();
  let client: WebSocket | undefined;
  let orderId: string | undefined;
  const from = o.sends.length;
  if (o.mode === "order") {
    const placed = await e2e.post(o.copier, "/v1/orders", {
      kind: "copy",
      follow: [o.leader.wallet],
      amount: "0.01",
      buys_only: true,
    });
    if (placed.statusCode !== 200) throw new Error(placed.body);
    orderId = placed.json<{ id: string }>().id;
    done = (async () => {
      for (let i = 0; i < 500 && o.sends.length < from + 2; i++) await sleep(10);
    })();
  } else {
    const armed = await streamFollower(o.base, o.copier, o.leader.wallet, mint);
    client = armed.ws;
    done = armed.done;
  }
  // Let the order reach the book (and the client its subscription), then the leader buys.
  await sleep(200);
  seen.length = 0;
  await trade(e2e, o.leader.apiKey, { action: "buy", mint, amount: "0.5", simulate: false, confirm: false });
  const leaderAt = o.sends[from];
  await Promise.race([done, sleep(5_000)]);
  stopFeed?.();
  client?.close();
  if (orderId !== undefined)
    await e2e.app.inject({
      method: "DELETE",
      url: `/v1/orders/${orderId}`,
      headers: { "x-api-key": o.copier },
    });
  // Our buy is the first send after the leader's.
  return firstSignToSend(seen, leaderAt, o.sends[from + 1]);
}

/** A bot that follows `leader` on /v1/stream and buys 0.01 SOL of `mint` on its first buy there. */
async function streamFollower(
  base: string,
  apiKey: string,
  leader: string,
  mint: string,
): Promise<{ ws: WebSocket; done: Promise<unknown> }> {
  const ws = await openStream(base, apiKey);
  let fired = false;
  const done = new Promise((resolve) => {
    ws.on("message", (d: WebSocket.RawData) => {
      const m = JSON.parse(d.toString()) as { type: string; mint?: string; trader?: string; side?: string };
      if (m.type !== "trade" || m.trader !== leader || m.mint !== mint || m.side !== "buy" || fired) return;
      fired = true;
      void fetch(`http://${base}/v1/trades/execute`, {
        method: "POST",
        headers: { "x-api-key": apiKey, "content-type": "application/json" },
        body: JSON.stringify({ action: "buy", mint, amount: "0.01", simulate: false, confirm: true }),
      })
        .then((res) => res.text())
        .then(resolve, resolve);
    });
  });
  await subscribe(ws, "subscribeAccountTrade", [leader]);
  return { ws, done };
}
