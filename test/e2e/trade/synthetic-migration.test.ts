/**
 * The October 2026 generation end to end (LOCALNET_PROGRAMS=2026-10, the default): a SOL buy that
 * crosses a curve's completion goes out as buy_exact_quote_in_v3 and continues into the would-be pool
 * (synthetic migration); the answer's fill counts the tokens of both parts, equal to the chain's balance
 * change; the stream reports the buyer's total and a separate `complete` message; a trade between the
 * completion and the migration answers the awaiting_migration state; the first trade after
 * migrate_v2 routes to the pool. Skipped on 2026-09, which has no synthetic migration.
 */
import { describe, expect, it } from "vitest";
import { PublicKey } from "@solana/web3.js";
import { LAUNCH } from "../../../src/core/errors.js";
import { bondingCurveAddress } from "../../../src/launch/programs.js";
import { decodeBondingCurve } from "../../../src/launch/state.js";
import {
  chain,
  connect,
  keyAndWallet,
  localnet,
  post,
  t,
  tokenBalanceOf,
  useStreamE2e,
} from "../../helpers/stream-e2e.js";

const generation = process.env.LOCALNET_PROGRAMS === "2026-09" ? "2026-09" : "2026-10";
const WSOL = "So11111111111111111111111111111111111111112";

useStreamE2e();

async function realTokensLeft(mint: string): Promise<bigint> {
  const info = (await chain.rpc.getAccountInfo(bondingCurveAddress(new PublicKey(mint)))).value;
  if (info === null) throw new Error("no curve");
  return decodeBondingCurve(info.data).realTokenReserves;
}

describe.skipIf(generation === "2026-09")("synthetic migration on the 2026-10 programs", () => {
  it("a completing buy answers both parts, the stream shows the total and the completion, the window answers awaiting_migration, then the pool", async () => {
    const whale = await keyAndWallet(120n);
    const buyer = await keyAndWallet(30n);
    const { mint } = localnet.admin.createToken({ name: "Crossing", symbol: "CRS" });
    await post(whale.apiKey, "/v1/trades/execute", { action: "buy", mint, amount: "80" });
    const left = await realTokensLeft(mint);
    expect(left).toBeGreaterThan(0n);

    const stream = await connect({ "x-api-key": buyer.apiKey });
    await stream.subscribe("subscribeTokenTrade", [mint]);
    await stream.subscribe("subscribeMigration");
    const res = await post(buyer.apiKey, "/v1/trades/execute", { action: "buy", mint, amount: "10" });
    expect(res.venue).toBe("bonding_curve");
    const received = await tokenBalanceOf(buyer.wallet, mint);
    const fill = res.fill as { token_change: string };
    // Both parts: more than the curve had left, exactly what the chain credited.
    expect(BigInt(fill.token_change)).toBe(received);
    expect(received).toBeGreaterThan(left);
    expect(received).toBeGreaterThanOrEqual(BigInt(res.expected_output as string));

    const tradeMsg = await stream.next((m) => m.type === "trade" && m.signature === res.signature);
    expect(tradeMsg).toMatchObject({
      trader: buyer.wallet,
      side: "buy",
      curve_complete: true,
      quote_mint: WSOL,
    });
    expect(BigInt(tradeMsg.token_amount as string)).toBe(received);
    expect(BigInt(tradeMsg.post_complete_token_amount as string)).toBe(received - left);
    expect(BigInt(tradeMsg.post_complete_quote_amount as string)).toBeGreaterThan(0n);
    expect(tradeMsg.quote_amount).toBe(tradeMsg.sol_amount);
    expect(await stream.next((m) => m.type === "complete")).toMatchObject({
      type: "complete",
      signature: res.signature,
      mint,
      trader: buyer.wallet,
    });

    // The window between completion and migration: a state the caller can act on, not a generic failure.
    const windowed = await t.app.inject({
      method: "POST",
      url: "/v1/trades/execute",
      headers: { "x-api-key": buyer.apiKey, "content-type": "application/json" },
      payload: JSON.stringify({ action: "sell", mint, amount: "10%" }),
    });
    expect(windowed.statusCode).toBe(400);
    expect(windowed.json()).toEqual({
      code: "launch.not_migrated",
      detail: LAUNCH.notMigrated,
      state: "awaiting_migration",
    });

    const { pool } = localnet.admin.migrate(mint, { instruction: "migrate_v2" });
    // Completion and migration arrive as separate messages.
    expect(await stream.next((m) => m.type === "migration")).toMatchObject({ type: "migration", mint, pool });
    const after = await post(buyer.apiKey, "/v1/trades/execute", { action: "sell", mint, amount: "10%" });
    expect(after.venue).toBe("launchswap");
    expect(after.pool).toBe(pool);
    expect(await tokenBalanceOf(buyer.wallet, mint)).toBe(received - received / 10n);
  });
});
