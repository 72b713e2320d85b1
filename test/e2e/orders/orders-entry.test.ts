/**
 * Percent levels measure from the entry price of the wallet's position (the positions ledger's average entry,
 * fees included), not from the price when the order is placed; `entry_price` overrides it; a wallet without a
 * position in the mint is a 400 naming the way out. The order's answer shows the entry and where it came from.
 */
import { PublicKey } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { associatedTokenAddress } from "../../../src/launch/programs.js";
import { ORDER_RULES } from "../../../src/domain/orders/texts.js";
import { useE2e } from "../../helpers/use-e2e.js";
import { move, placeCrossedStopLoss, placeOrder, settled } from "./orders-fixture.js";

const e2e = useE2e({ warm: true, market: true });

/** The position's average entry in SOL per whole token (the ledger answers lamports per whole token). */
async function positionEntry(apiKey: string, wallet: string, mint: string): Promise<number> {
  const res = await e2e.get(apiKey, `/v1/positions/${wallet}/${mint}?valuation=none`);
  expect(res.statusCode, res.body).toBe(200);
  return Number(res.json<{ average_entry_price_lamports: string }>().average_entry_price_lamports) / 1e9;
}

describe("percent levels and the position's entry", () => {
  it("a take-profit's +20% is from the wallet's entry: already crossed after a rise, it fires at once", async () => {
    const mint = e2e.localnet.admin.createToken().mint;
    const holder = await e2e.setup({ sol: 10n });
    const mover = await e2e.setup({ sol: 100n });
    await move(e2e, holder.apiKey, "buy", mint, "0.5");
    // The price rises well past +20% of the holder's entry before the order is placed.
    await move(e2e, mover.apiKey, "buy", mint, "10");
    const entry = await positionEntry(holder.apiKey, holder.wallet, mint);
    const dry = await e2e.post(holder.apiKey, "/v1/orders", {
      kind: "take_profit",
      mint,
      percent: "+20%",
      dry_run: true,
    });
    expect(dry.statusCode, dry.body).toBe(200);
    const d = dry.json<{
      would_fire_now: boolean;
      price_now: string;
      order: { entry_price: string; entry_source: string };
    }>();
    expect(d.order.entry_source).toBe("position");
    // The same figure as the ledger's average entry (rounded differently: 1e-6 of a lamport there).
    expect(Math.abs(Number(d.order.entry_price) - entry) / entry).toBeLessThan(1e-6);
    expect(Number(d.price_now)).toBeGreaterThan(entry * 1.2);
    expect(d.would_fire_now).toBe(true);
    const o = await placeOrder(e2e, holder.apiKey, { kind: "take_profit", mint, percent: "+20%" });
    expect(o.entry_source).toBe("position");
    const done = await settled(e2e, holder.apiKey, o.id);
    expect(done).toMatchObject({ state: "filled", triggered_by: "take_profit" });
    expect(await e2e.tokenBalance(holder.wallet, mint)).toBe(0n);
  });

  it("entry_price overrides the position's entry (entry_source request)", async () => {
    const mint = e2e.localnet.admin.createToken().mint;
    const holder = await e2e.setup({ sol: 10n });
    await move(e2e, holder.apiKey, "buy", mint, "0.5");
    const o = await placeCrossedStopLoss(e2e, holder.apiKey, mint);
    expect(o).toMatchObject({ entry_price: "1", entry_source: "request" });
    const done = await settled(e2e, holder.apiKey, o.id);
    expect(done).toMatchObject({ state: "filled", triggered_by: "stop_loss" });
  });

  it("percent levels without a position in the mint are a 400 (tokens that arrived outside the service); a price level needs none", async () => {
    const mint = e2e.localnet.admin.createToken().mint;
    const holder = await e2e.setup({ sol: 10n });
    await move(e2e, holder.apiKey, "buy", mint, "0.5");
    await move(e2e, holder.apiKey, "sell", mint, "100%");
    // Tokens arrive in the emptied account from outside: the chain shows them, the ledger's position is closed.
    const mintKey = new PublicKey(mint);
    const program = (await e2e.connection.getAccountInfo(mintKey, "confirmed"))!.owner;
    const ata = associatedTokenAddress(new PublicKey(holder.wallet), mintKey, program);
    const info = (await e2e.connection.getAccountInfo(ata, "confirmed"))!;
    const data = new Uint8Array(info.data);
    new DataView(data.buffer).setBigUint64(64, 1_000_000_000n, true);
    e2e.localnet.admin.rewriteAccount(ata.toBase58(), { data });
    expect(await e2e.tokenBalance(holder.wallet, mint)).toBe(1_000_000_000n);
    for (const body of [
      { kind: "take_profit", mint, percent: 50 },
      { kind: "bracket", mint, take_profit: { percent: 50 }, stop_loss: { price: "0.000000001" } },
      { kind: "stop_loss", mint, percent: -20, dry_run: true },
    ]) {
      const res = await e2e.post(holder.apiKey, "/v1/orders", body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toEqual({ code: "orders.no_position", detail: ORDER_RULES.noPosition });
    }
    // A price level, or an explicit entry, does not need the position.
    const priced = await placeOrder(e2e, holder.apiKey, { kind: "take_profit", mint, price: "1" });
    expect(priced).toMatchObject({ entry_price: null, entry_source: null });
    const entered = await placeOrder(e2e, holder.apiKey, {
      kind: "take_profit",
      mint,
      percent: 50,
      entry_price: "0.5",
    });
    expect(entered).toMatchObject({ entry_price: "0.5", entry_source: "request" });
  });
});
