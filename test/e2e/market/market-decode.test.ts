/**
 * Market stream decoding, end to end on the localnet ledger: every event type comes from a transaction
 * the official SDKs built (create_v2 + buy, sell, the buy that completes the curve, migrate, pool buy and
 * sell), landed like a client transaction; its recorded logs go through the feed, and each message is
 * checked field by field against what was sent and what the ledger holds afterwards.
 */
import { beforeAll, describe, expect, it } from "vitest";
import BN from "bn.js";
import { getAssociatedTokenAddressSync, NATIVE_MINT, TOKEN_2022_PROGRAM_ID } from "@solana/spl-token";
import { Keypair, PublicKey, type TransactionInstruction } from "@solana/web3.js";
import { createLedger, type Ledger, type TransactionRecord } from "../../../localnet/ledger/index.js";
import { emulatedPrograms, installGenesis } from "../../../localnet/programs/index.js";
import { readTokenAccount } from "../../../localnet/programs/launchswap/token-io.js";
import {
  curveAddress,
  FEE_CONFIG_ADDRESS,
  GLOBAL_ADDRESS,
  readCurve,
} from "../../../localnet/programs/launch/index.js";
import { MarketFeed } from "../../../src/domain/market/market-feed.js";
import { MarketHub } from "../../../src/domain/market/market-hub.js";
import type { MarketMessage, TradeMessage } from "../../../src/domain/market/messages.js";
import { PoolDirectory } from "../../../src/domain/market/pool-directory.js";
import { decodePool } from "../../../src/launch/state.js";
import { launchSdk, launchSwapSdk } from "../../../src/launch/sdk.js";
import { accountInfo } from "../../localnet/ledger-views.js";
import { big, bn, send as sendV0 } from "../../localnet/launch-fixture.js";
import { connectionOf, quoteArgs } from "../../localnet/launchswap-fixture.js";

const { PUMP_SDK } = launchSdk;
const { OnlinePumpAmmSdk, PUMP_AMM_SDK, buyBaseInput, sellBaseInput } = launchSwapSdk;
const SUPPLY = 1_000_000_000_000_000n;

function send(ledger: Ledger, payer: Keypair, ixs: TransactionInstruction[], extra: Keypair[] = []) {
  const rec = sendV0(ledger, payer, ixs, extra);
  ledger.advanceSlots(1);
  return rec;
}

function must(ledger: Ledger, key: PublicKey) {
  const a = accountInfo(ledger, key);
  if (!a) throw new Error(`missing ${key.toBase58()}`);
  return a;
}

function funded(ledger: Ledger, sol: bigint): Keypair {
  const k = Keypair.generate();
  ledger.fund(k.publicKey, sol * 1_000_000_000n);
  return k;
}

function curveState(ledger: Ledger, mint: PublicKey) {
  return {
    global: PUMP_SDK.decodeGlobal(must(ledger, GLOBAL_ADDRESS)),
    feeConfig: PUMP_SDK.decodeFeeConfig(must(ledger, FEE_CONFIG_ADDRESS)),
    curveInfo: must(ledger, curveAddress(mint)),
    curve: PUMP_SDK.decodeBondingCurve(must(ledger, curveAddress(mint))),
  };
}

/** The feed over the ledger: pools read from the ledger, every message kept. */
function feedOf(ledger: Ledger) {
  const hub = new MarketHub();
  const got: MarketMessage[] = [];
  const sink = { deliver: (text: string) => got.push(JSON.parse(text) as MarketMessage) };
  hub.setNewToken(sink, true);
  hub.setMigration(sink, true);
  const pools = new PoolDirectory(async (pool) => {
    const acc = ledger.getAccount(new PublicKey(pool));
    if (!acc) return null;
    const p = decodePool(acc.data);
    return { mint: p.baseMint.toBase58(), isMayhem: p.isMayhemMode };
  });
  const feed = new MarketFeed({ hub, pools, curveSupply: () => SUPPLY });
  return {
    hub,
    feed,
    got,
    sink,
    /** Feeds a landed transaction's recorded logs; returns the messages it produced. */
    async ingest(rec: TransactionRecord): Promise<MarketMessage[]> {
      const from = got.length;
      await feed.ingest({ signature: rec.signature, slot: Number(rec.slot), err: rec.err, logs: rec.logs });
      return got.slice(from);
    },
  };
}

const tokenBalance = (ledger: Ledger, key: PublicKey) => readTokenAccount(ledger, key)?.amount ?? 0n;

describe("market events decoded from SDK-built transactions on the localnet", () => {
  let ledger: Ledger;
  let f: ReturnType<typeof feedOf>;
  const creator = Keypair.generate();
  const mintKp = Keypair.generate();
  const mint = mintKp.publicKey;
  let pool: PublicKey;
  let migrateRec: TransactionRecord;
  let sellRec: TransactionRecord;

  beforeAll(() => {
    ledger = createLedger({ programs: emulatedPrograms({ cashbackCreation: false }) });
    installGenesis(ledger, { cashbackCreation: false });
    ledger.fund(creator.publicKey, 500_000_000_000n);
    f = feedOf(ledger);
    f.hub.addKey("token", mint.toBase58(), f.sink);
  });

  it("create_v2 + buy: new_token and trade with the sent name, symbol, uri, amounts and the curve after", async () => {
    const global = PUMP_SDK.decodeGlobal(must(ledger, GLOBAL_ADDRESS));
    const feeConfig = PUMP_SDK.decodeFeeConfig(must(ledger, FEE_CONFIG_ADDRESS));
    const q = { global, feeConfig, mintSupply: null, bondingCurve: null, quoteMint: PublicKey.default };
    const amount = launchSdk.getBuyTokenAmountFromSolAmount({ ...q, amount: new BN(1_000_000_000) });
    const cost = launchSdk.getBuySolAmountFromTokenAmount({ ...q, amount });
    const ixs = await PUMP_SDK.createV2AndBuyInstructions({
      global,
      mint,
      name: "Stream Coin",
      symbol: "STRM",
      uri: "https://example.test/strm.json",
      creator: creator.publicKey,
      user: creator.publicKey,
      amount,
      solAmount: cost,
      mayhemMode: false,
    });
    const rec = send(ledger, creator, ixs, [mintKp]);
    expect(rec.err, rec.logs.join("\n")).toBeNull();
    const messages = await f.ingest(rec);
    expect(messages.map((m) => m.type)).toEqual(["new_token", "trade"]);
    const curve = readCurve(ledger, mint)!;
    const [created, trade] = messages as [MarketMessage, TradeMessage];
    expect(created).toEqual({
      type: "new_token",
      signature: rec.signature,
      slot: Number(rec.slot),
      mint: mint.toBase58(),
      timestamp: expect.any(Number),
      name: "Stream Coin",
      symbol: "STRM",
      uri: "https://example.test/strm.json",
      creator: creator.publicKey.toBase58(),
      trader: creator.publicKey.toBase58(),
      bonding_curve: curveAddress(mint).toBase58(),
      virtual_sol_reserves: global.initialVirtualSolReserves.toString(),
      virtual_token_reserves: global.initialVirtualTokenReserves.toString(),
      real_token_reserves: global.initialRealTokenReserves.toString(),
      token_total_supply: global.tokenTotalSupply.toString(),
      market_cap_sol: expect.stringMatching(/^\d+\.\d{9}$/),
      is_mayhem: false,
      is_cashback: false,
    });
    expect(trade).toMatchObject({
      type: "trade",
      signature: rec.signature,
      mint: mint.toBase58(),
      venue: "bonding_curve",
      pool: null,
      trader: creator.publicKey.toBase58(),
      side: "buy",
      token_amount: amount.toString(),
      // The first buy is all the curve's real SOL.
      sol_amount: curve.realQuoteReserves.toString(),
      virtual_sol_reserves: curve.virtualQuoteReserves.toString(),
      virtual_token_reserves: curve.virtualTokenReserves.toString(),
      real_sol_reserves: curve.realQuoteReserves.toString(),
      real_token_reserves: curve.realTokenReserves.toString(),
      is_mayhem: false,
      is_cashback: false,
      curve_complete: false,
    });
    const cap = (curve.virtualQuoteReserves * SUPPLY) / curve.virtualTokenReserves;
    expect(trade.market_cap_sol).toBe(
      `${cap / 1_000_000_000n}.${(cap % 1_000_000_000n).toString().padStart(9, "0")}`,
    );
  });

  it("sell: side sell, the sent token amount, the SOL the curve paid out", async () => {
    const s = curveState(ledger, mint);
    const amount = 1_000_000_000n;
    const out = launchSdk.getSellSolAmountFromTokenAmount({
      global: s.global,
      feeConfig: s.feeConfig,
      mintSupply: new BN(SUPPLY.toString()),
      bondingCurve: s.curve,
      amount: bn(amount),
    });
    const before = readCurve(ledger, mint)!;
    const ixs = await PUMP_SDK.sellInstructions({
      global: s.global,
      bondingCurveAccountInfo: s.curveInfo,
      bondingCurve: s.curve,
      mint,
      user: creator.publicKey,
      amount: bn(amount),
      solAmount: out,
      slippage: 1,
      tokenProgram: TOKEN_2022_PROGRAM_ID,
      mayhemMode: false,
      cashback: false,
    });
    const rec = send(ledger, creator, ixs);
    expect(rec.err, rec.logs.join("\n")).toBeNull();
    sellRec = rec;
    const [trade] = (await f.ingest(rec)) as TradeMessage[];
    const after = readCurve(ledger, mint)!;
    expect(trade).toMatchObject({
      type: "trade",
      side: "sell",
      trader: creator.publicKey.toBase58(),
      token_amount: amount.toString(),
      sol_amount: (before.realQuoteReserves - after.realQuoteReserves).toString(),
      virtual_token_reserves: after.virtualTokenReserves.toString(),
      real_sol_reserves: after.realQuoteReserves.toString(),
    });
  });

  it("issue 31: a transaction's decoding and messages wait a turn while a yieldTo callback answers busy, else they do not", async () => {
    for (const busy of [true, false]) {
      // A feed of its own: this one has not seen the sell's signature yet.
      const g = feedOf(ledger);
      g.hub.addKey("token", mint.toBase58(), g.sink);
      let decoded = 0;
      g.feed.onEvents(() => decoded++);
      g.feed.yieldTo(() => busy);
      const done = g.ingest(sellRec);
      // The listeners (the warm state's event refresh, copy orders) hear of it only once the turn passed.
      expect(decoded).toBe(busy ? 0 : 1);
      for (let i = 0; i < 50; i++) await Promise.resolve();
      expect(g.got).toHaveLength(busy ? 0 : 1);
      await new Promise((r) => setImmediate(r));
      expect(decoded).toBe(1);
      expect((await done).map((m) => m.type)).toEqual(["trade"]);
    }
  });

  it("a buy that sells out the curve is a trade with curve_complete true", async () => {
    const buyer = funded(ledger, 200n);
    const s = curveState(ledger, mint);
    const remaining = s.curve.realTokenReserves;
    const cost = launchSdk.getBuySolAmountFromTokenAmount({
      global: s.global,
      feeConfig: s.feeConfig,
      mintSupply: new BN(SUPPLY.toString()),
      bondingCurve: s.curve,
      quoteMint: s.curve.quoteMint,
      amount: remaining,
    });
    const ixs = await PUMP_SDK.buyInstructions({
      global: s.global,
      bondingCurveAccountInfo: s.curveInfo,
      bondingCurve: s.curve,
      associatedUserAccountInfo: null,
      mint,
      user: buyer.publicKey,
      amount: remaining,
      solAmount: cost,
      slippage: 1,
      tokenProgram: TOKEN_2022_PROGRAM_ID,
    });
    const rec = send(ledger, buyer, ixs);
    expect(rec.err, rec.logs.join("\n")).toBeNull();
    const [trade] = (await f.ingest(rec)) as TradeMessage[];
    expect(trade).toMatchObject({
      side: "buy",
      trader: buyer.publicKey.toBase58(),
      token_amount: remaining.toString(),
      real_token_reserves: "0",
      curve_complete: true,
    });
    expect(readCurve(ledger, mint)!.complete).toBe(true);
  });

  it("migrate (the SDK's migrateInstruction, any signer): migration with the pool and what moved into it", async () => {
    const migrator = funded(ledger, 10n);
    const global = PUMP_SDK.decodeGlobal(must(ledger, GLOBAL_ADDRESS));
    const ix = await PUMP_SDK.migrateInstruction({
      withdrawAuthority: global.withdrawAuthority,
      mint,
      user: migrator.publicKey,
      tokenProgram: TOKEN_2022_PROGRAM_ID,
    });
    const rec = send(ledger, migrator, [ix]);
    expect(rec.err, rec.logs.join("\n")).toBeNull();
    migrateRec = rec;
    pool = launchSwapSdk.canonicalPumpPoolPda(mint);
    const baseVault = getAssociatedTokenAddressSync(mint, pool, true, TOKEN_2022_PROGRAM_ID);
    const quoteVault = getAssociatedTokenAddressSync(NATIVE_MINT, pool, true);
    const [m] = await f.ingest(rec);
    expect(m).toEqual({
      type: "migration",
      signature: rec.signature,
      slot: Number(rec.slot),
      mint: mint.toBase58(),
      timestamp: expect.any(Number),
      pool: pool.toBase58(),
      trader: migrator.publicKey.toBase58(),
      sol_amount: tokenBalance(ledger, quoteVault).toString(),
      token_amount: tokenBalance(ledger, baseVault).toString(),
      pool_migration_fee: global.poolMigrationFee.toString(),
    });
  });

  it("pool buy and sell (the swap SDK): trades on launchswap with the mint, amounts and pool reserves after", async () => {
    const trader = funded(ledger, 100n);
    f.hub.addKey("account", trader.publicKey.toBase58(), f.sink);
    const sdk = new OnlinePumpAmmSdk(connectionOf(ledger));
    const baseVault = getAssociatedTokenAddressSync(mint, pool, true, TOKEN_2022_PROGRAM_ID);
    const quoteVault = getAssociatedTokenAddressSync(NATIVE_MINT, pool, true);
    for (const side of ["buy", "sell"] as const) {
      const state = await sdk.swapSolanaState(pool, trader.publicKey);
      const args = { ...quoteArgs(state), slippage: 1 };
      const base = side === "buy" ? 5_000_000_000n : 2_000_000_000n;
      const q =
        side === "buy"
          ? buyBaseInput({ ...args, base: bn(base) })
          : sellBaseInput({ ...args, base: bn(base) });
      const ixs =
        side === "buy"
          ? await PUMP_AMM_SDK.buyBaseInput(state, bn(base), 1)
          : await PUMP_AMM_SDK.sellBaseInput(state, bn(base), 1);
      const rec = send(ledger, trader, ixs);
      expect(rec.err, rec.logs.join("\n")).toBeNull();
      const messages = await f.ingest(rec);
      // Subscribed by mint and by wallet: delivered once.
      expect(messages).toHaveLength(1);
      // The swap amount before fees, as BuyEvent.quote_amount_in / SellEvent.quote_amount_out report it
      // (a sell's: the constant-product output of the pool before the trade).
      const quoteAmount =
        "internalQuoteAmount" in q
          ? big(q.internalQuoteAmount)
          : (big(state.poolQuoteAmount) * base) / (big(state.poolBaseAmount) + base);
      expect(messages[0]).toMatchObject({
        type: "trade",
        signature: rec.signature,
        venue: "launchswap",
        pool: pool.toBase58(),
        mint: mint.toBase58(),
        trader: trader.publicKey.toBase58(),
        side,
        token_amount: base.toString(),
        sol_amount: quoteAmount.toString(),
        virtual_sol_reserves: tokenBalance(ledger, quoteVault).toString(),
        virtual_token_reserves: tokenBalance(ledger, baseVault).toString(),
        is_mayhem: false,
        curve_complete: false,
      });
    }
  });

  it("failed transactions and repeated signatures publish nothing", async () => {
    const rec = send(ledger, creator, [
      ...(await PUMP_SDK.migrateInstruction({
        withdrawAuthority: PUMP_SDK.decodeGlobal(must(ledger, GLOBAL_ADDRESS)).withdrawAuthority,
        mint,
        user: creator.publicKey,
        tokenProgram: TOKEN_2022_PROGRAM_ID,
      }).then((ix) => [ix])),
    ]);
    expect(rec.err).not.toBeNull();
    expect(await f.ingest(rec)).toEqual([]);
    // The migration again (a transaction mentioning both programs arrives on both subscriptions).
    expect(await f.ingest(migrateRec)).toEqual([]);
  });
});
