/**
 * How the orders benches cross an order's level: a 5 SOL buy of the round's mint, either an outside wallet's (built
 * by the service for that wallet before the round, signed here, and at the crossing only sent straight to the
 * cluster) or another account's through the service's own API.
 */
import { Keypair, VersionedTransaction } from "@solana/web3.js";
import { performance } from "node:perf_hooks";
import { postJsonRpc, SEND_UNCHECKED } from "../test/harness/json-rpc.js";
import { trade, type E2e } from "../test/helpers/e2e.js";

/**
 * How the level is crossed: "outside", by a wallet the service does not hold, sent straight to the cluster (as
 * another trader's buy reaches a deployment on mainnet: only through its subscriptions); "service", by another
 * account's trade through the service's own API (every figure of this bench before the seventh session of 29 Nov;
 * the service still handles that buy while the client's request is served: docs/benchmarks.md).
 */
export type CrossBy = "outside" | "service";

/**
 * A buy of `sol` SOL of `mint` by `trader`, built by the service for an outside wallet (POST /v1/trades/build
 * with `apiKey`) and signed here; its wire, base64.
 */
export async function outsideBuy(
  e2e: E2e,
  apiKey: string,
  trader: Keypair,
  mint: string,
  sol: string,
): Promise<string> {
  const built = await e2e.post(apiKey, "/v1/trades/build", {
    public_key: trader.publicKey.toBase58(),
    action: "buy",
    mint,
    amount: sol,
  });
  if (built.statusCode !== 200) throw new Error(`build: ${built.body}`);
  const tx = VersionedTransaction.deserialize(
    Buffer.from(built.json<{ transaction: string }>().transaction, "base64"),
  );
  tx.sign([trader]);
  return Buffer.from(tx.serialize()).toString("base64");
}

/** Sends a signed wire (base64) to the cluster's RPC itself, not through the service. */
export async function sendToCluster(rpcUrl: string, wire: string): Promise<void> {
  const { body } = await postJsonRpc<{ error?: unknown }>(rpcUrl, "sendTransaction", [wire, SEND_UNCHECKED]);
  if (body.error !== undefined) throw new Error(`sendTransaction: ${JSON.stringify(body.error)}`);
}

/** The SOL of each crossing buy. */
const CROSS_SOL = "5";

/** A wallet the service does not hold, funded for `buys` crossing buys (5 SOL each plus fees). */
export function outsideTrader(e2e: E2e, buys: number): Keypair {
  const trader = Keypair.generate();
  e2e.localnet.admin.fund(trader.publicKey.toBase58(), BigInt(buys) * 6_000_000_000n);
  return trader;
}

/** The crossing buy, made ready before the round's wait: the outside wallet's signed wire, or the mover's key. */
export type CrossingBuy = { wire: string } | { mover: string; mint: string };

/** The crossing buy `cross` asks for: the outside `trader`'s built now (the mover's key builds it), or the mover's. */
export async function prepareCross(
  e2e: E2e,
  cross: CrossBy,
  mover: string,
  trader: Keypair,
  mint: string,
): Promise<CrossingBuy> {
  return cross === "outside"
    ? { wire: await outsideBuy(e2e, mover, trader, mint, CROSS_SOL) }
    : { mover, mint };
}

/**
 * Sends the crossing buy. `sends`: the times of the service's sendTransaction calls, appended as they happen.
 * Returns when the buy left (undefined when the service's send of it was not seen) and the index in `sends` the
 * order's sell will take: the first send after the crossing buy (the mover's own, when it went through the service).
 */
export async function crossLevel(
  e2e: E2e,
  buy: CrossingBuy,
  sends: readonly number[],
): Promise<{ crossAt: number | undefined; sellIndex: number }> {
  const from = sends.length;
  if ("wire" in buy) {
    const crossAt = performance.now();
    await sendToCluster(e2e.localnet.rpcUrl, buy.wire);
    return { crossAt, sellIndex: from };
  }
  const body = { action: "buy", mint: buy.mint, amount: CROSS_SOL, simulate: false, confirm: false };
  await trade(e2e, buy.mover, body);
  return { crossAt: sends[from], sellIndex: from + 1 };
}
