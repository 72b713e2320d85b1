/**
 * GET /v1/quote (issue 22) through the HTTP API against the localnet, on both venues: the quote equals, to the
 * lamport and the token unit, what the same trade then moves on the chain (the wallet's fill, read from the
 * transaction's balance changes), its fees equal what the curve or pool and the fee accounts received, and it
 * costs one account read.
 */
import { PublicKey } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { LAUNCH, TRADE_RULES } from "../../../src/core/errors.js";
import { bondingCurveAddress, creatorVaultAddress, WSOL_MINT } from "../../../src/launch/programs.js";
import { external } from "../../helpers/e2e.js";
import { useE2e } from "../../helpers/use-e2e.js";

const e2e = useE2e();

interface Quote {
  mint: string;
  side: string;
  venue: string;
  pool: string | null;
  amount: string;
  amount_units: number;
  slippage_bps: number;
  tokens_out?: string;
  sol_in_lamports?: string;
  sol_out_lamports?: string;
  max_sol_in_lamports?: string;
  min_tokens_out?: string;
  tokens_in?: string;
  min_sol_out_lamports?: string;
  price_impact_percent: string;
  fees: {
    protocol_fee_lamports: string;
    creator_fee_lamports: string;
    lp_fee_lamports: string | null;
    total_fee_lamports: string;
  };
  state_source: string;
  state_slot: number;
}

interface Fill {
  rent_lamports: string;
  trade_sol_lamports: string;
  token_change: string;
}

type Traded = Record<string, unknown> & { signature: string; fill: Fill };

async function quote(apiKey: string, query: Record<string, string>): Promise<Quote> {
  const res = await e2e.get(apiKey, `/v1/quote?${new URLSearchParams(query).toString()}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Quote>();
}

async function trade(apiKey: string, body: Record<string, unknown>): Promise<Traded> {
  const res = await e2e.post(apiKey, "/v1/trades/execute", body);
  expect(res.statusCode, res.body).toBe(200);
  const t = res.json<Traded>();
  expect(t.confirmed).toBe(true);
  return t;
}

/** Quotes, trades the same amount, and checks the fill against the quote exactly. */
async function quoteThenTrade(apiKey: string, query: Record<string, string>): Promise<[Quote, Traded]> {
  e2e.reset();
  const q = await quote(apiKey, query);
  // The trade's own read and nothing else.
  expect(e2e.roundTrips()).toEqual({ "rpc.getMultipleAccounts": 1 });
  const { side, ...rest } = query;
  const t = await trade(apiKey, { action: side, ...rest });
  // The wallet's accounts exist already: nothing of the change is rent, all of it is the trade.
  expect(t.fill.rent_lamports).toBe("0");
  if (side === "buy") {
    expect(t.fill.token_change).toBe(q.tokens_out);
    expect(t.fill.trade_sol_lamports).toBe(q.sol_in_lamports);
    expect(t.max_sol_in_lamports).toBe(q.max_sol_in_lamports);
    expect(t.min_tokens_out).toBe(q.min_tokens_out);
  } else {
    expect(t.fill.token_change).toBe(`-${q.tokens_in}`);
    expect(t.fill.trade_sol_lamports).toBe(q.sol_out_lamports);
    expect(t.min_sol_out_lamports).toBe(q.min_sol_out_lamports);
  }
  expect(t.venue).toBe(q.venue);
  expect(t.pool).toBe(q.pool);
  return [q, t];
}

interface Meta {
  keys: string[];
  pre: bigint[];
  post: bigint[];
  tokens: { pre: TokenBalance[]; post: TokenBalance[] };
}
interface TokenBalance {
  accountIndex: number;
  mint: string;
  owner?: string;
  uiTokenAmount: { amount: string };
}

async function metaOf(signature: string): Promise<Meta> {
  const tx = await e2e.connection.getTransaction(signature, {
    commitment: "confirmed",
    maxSupportedTransactionVersion: 0,
  });
  if (!tx?.meta) throw new Error(`no meta for ${signature}`);
  const keys = tx.transaction.message.staticAccountKeys.map((k) => k.toBase58());
  const loaded = tx.meta.loadedAddresses;
  keys.push(...(loaded?.writable ?? []).map(String), ...(loaded?.readonly ?? []).map(String));
  return {
    keys,
    pre: tx.meta.preBalances.map(BigInt),
    post: tx.meta.postBalances.map(BigInt),
    tokens: {
      pre: (tx.meta.preTokenBalances ?? []) as TokenBalance[],
      post: (tx.meta.postTokenBalances ?? []) as TokenBalance[],
    },
  };
}

/** Lamport change of one account in the transaction. */
const lamportDelta = (m: Meta, address: string): bigint => {
  const i = m.keys.indexOf(address);
  return i < 0 ? 0n : m.post[i]! - m.pre[i]!;
};

/** WSOL token changes by token account, in the transaction. */
function wsolDeltas(m: Meta): Map<string, { owner: string | undefined; delta: bigint }> {
  const out = new Map<string, { owner: string | undefined; delta: bigint }>();
  const add = (list: TokenBalance[], sign: bigint) => {
    for (const b of list.filter((x) => x.mint === WSOL_MINT.toBase58())) {
      const key = m.keys[b.accountIndex]!;
      const cur = out.get(key) ?? { owner: b.owner, delta: 0n };
      out.set(key, { owner: b.owner ?? cur.owner, delta: cur.delta + sign * BigInt(b.uiTokenAmount.amount) });
    }
  };
  add(m.tokens.pre, -1n);
  add(m.tokens.post, 1n);
  return out;
}

/** The localnet runs the October 2026 programs unless LOCALNET_PROGRAMS=2026-09 (v3 / v2 trades keep fees). */
const UPGRADED = process.env.LOCALNET_PROGRAMS !== "2026-09";

const fee = (q: Quote, k: keyof Quote["fees"]): bigint => BigInt(q.fees[k] ?? "0");

describe("GET /v1/quote on the bonding curve", () => {
  it("SOL buy, token buy and sell: the quote is what the trade then moves, fees where they land", async () => {
    const { apiKey, wallet } = await e2e.setup();
    const { mint, creator } = e2e.localnet.admin.createToken();
    // The wallet's first buy creates its token and volume accounts (rent), and the creator vault if no coin
    // of this creator was bought yet. The fill counts every account the transaction created as rent: a new
    // creator vault's balance (the creator fee plus the rent top-up the trader pays) with it. So a first buy's
    // trade_sol_lamports is the quote's sol_in less the creator fee exactly when the vault was created.
    const vault = creatorVaultAddress(new PublicKey(creator)).toBase58();
    const curveKey = bondingCurveAddress(new PublicKey(mint));
    const curveSizeBefore = (await e2e.connection.getAccountInfo(curveKey))!.data.length;
    const first = await quote(apiKey, { mint, side: "buy", amount: "0.01" });
    const firstTrade = await trade(apiKey, { action: "buy", mint, amount: "0.01" });
    const firstMeta = await metaOf(firstTrade.signature);
    const vaultIsNew = firstMeta.pre[firstMeta.keys.indexOf(vault)] === 0n;
    expect(firstTrade.fill.token_change).toBe(first.tokens_out);
    expect(BigInt(firstTrade.fill.rent_lamports)).toBeGreaterThan(0n);
    // 2026-10: the first v3 trade grows an older, shorter curve; the trader pays the rent difference.
    const curveSizeAfter = (await e2e.connection.getAccountInfo(curveKey))!.data.length;
    const curveTopUp =
      BigInt(await e2e.connection.getMinimumBalanceForRentExemption(curveSizeAfter)) -
      BigInt(await e2e.connection.getMinimumBalanceForRentExemption(curveSizeBefore));
    expect(BigInt(firstTrade.fill.trade_sol_lamports)).toBe(
      BigInt(first.sol_in_lamports!) - (vaultIsNew ? fee(first, "creator_fee_lamports") : 0n) + curveTopUp,
    );

    const [buy, bought] = await quoteThenTrade(apiKey, { mint, side: "buy", amount: "0.3", slippage: "3" });
    expect(buy).toMatchObject({
      mint,
      side: "buy",
      venue: "bonding_curve",
      pool: null,
      amount: "0.3",
      amount_units: 300_000_000,
      amount_units_text: "300000000",
      slippage_bps: 300,
      state_source: "read",
    });
    expect(buy.fees.lp_fee_lamports).toBeNull();
    expect(Number(buy.price_impact_percent)).toBeGreaterThan(0);
    // buy_exact_sol_in: the wallet spends at most the amount; the curve receives it less both fees.
    expect(BigInt(buy.sol_in_lamports!)).toBeLessThanOrEqual(300_000_000n);
    const meta = await metaOf(bought.signature);
    const venueSol = BigInt(buy.sol_in_lamports!) - fee(buy, "total_fee_lamports");
    expect(fee(buy, "total_fee_lamports")).toBe(
      fee(buy, "protocol_fee_lamports") + fee(buy, "creator_fee_lamports"),
    );
    // Everything else credited in the transaction: the protocol fee (recipient and buyback) and the relay tip.
    const others = meta.keys
      .map((k, i) => ({ k, d: meta.post[i]! - meta.pre[i]! }))
      .filter(({ k, d }) => d > 0n && k !== vault && k !== curveKey.toBase58())
      .reduce((s, { d }) => s + d, 0n);
    const tip = BigInt((bought.fill as unknown as { tip_lamports: string }).tip_lamports);
    if (UPGRADED) {
      // v3: the protocol and creator fee stay on the curve; only the buyback share is paid out.
      expect(lamportDelta(meta, vault)).toBe(0n);
      expect(lamportDelta(meta, curveKey.toBase58()) + (others - tip)).toBe(BigInt(buy.sol_in_lamports!));
      expect(others - tip).toBeLessThanOrEqual(fee(buy, "protocol_fee_lamports"));
    } else {
      expect(lamportDelta(meta, curveKey.toBase58())).toBe(venueSol);
      expect(lamportDelta(meta, vault)).toBe(fee(buy, "creator_fee_lamports"));
      expect(others - tip).toBe(fee(buy, "protocol_fee_lamports"));
    }

    const [tokenBuy] = await quoteThenTrade(apiKey, {
      mint,
      side: "buy",
      amount: "2500000000",
      denominated_in_sol: "false",
    });
    expect(tokenBuy.tokens_out).toBe("2500000000");
    expect(tokenBuy.min_tokens_out).toBe("2500000000");

    const [sell] = await quoteThenTrade(apiKey, { mint, side: "sell", amount: "1000000000" });
    expect(sell.tokens_in).toBe("1000000000");
    expect(sell.tokens_out).toBeUndefined();
    expect(Number(sell.price_impact_percent)).toBeGreaterThan(0);
    expect(wallet).toBeTruthy();
  });

  it("bad input is a 400 with the trade's texts; an unknown mint is the trade's 400", async () => {
    const { apiKey } = await e2e.setup({ sol: 0n });
    const { mint } = e2e.localnet.admin.createToken();
    const cases: [string, string][] = [
      [`mint=${mint}&amount=1`, TRADE_RULES.quoteSide],
      [`side=buy&amount=1`, TRADE_RULES.mintRequired],
      [`mint=${mint}&side=sell&amount=50%25`, TRADE_RULES.quotePercent],
      [`mint=${external()}&side=buy&amount=0.1`, LAUNCH.mintNotFound],
      // More tokens than the curve has left: the trade's quote-time check.
      // (1e15: past the curve and, on 2026-10, past all of the would-be pool's tokens too.)
      [`mint=${mint}&side=buy&amount=1000000000000000&denominated_in_sol=false`, TRADE_RULES.exceedsReserves],
    ];
    for (const [query, detail] of cases) {
      const res = await e2e.get(apiKey, `/v1/quote?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json(), query).toEqual({ code: expect.stringMatching(/^[a-z]+\.[a-z0-9_]+$/), detail });
    }
    // A curve that completed before its pool exists: the trade's routing text.
    e2e.localnet.admin.complete(mint);
    const res = await e2e.get(apiKey, `/v1/quote?mint=${mint}&side=buy&amount=0.1`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      detail: LAUNCH.notMigrated,
      code: "launch.not_migrated",
      state: "awaiting_migration",
    });
  });
});

describe("GET /v1/quote on launchswap", () => {
  it("SOL buy, token buy and sell after migration: the quote is what the trade moves, lp fee included", async () => {
    const { apiKey } = await e2e.setup();
    const { mint } = e2e.localnet.admin.createToken();
    e2e.localnet.admin.complete(mint);
    const { pool } = e2e.localnet.admin.migrate(mint);
    await trade(apiKey, { action: "buy", mint, amount: "0.01" });

    // Naming the pool gives the same quote as routing to it.
    const { state_slot: _s, ...explicit } = await quote(apiKey, { mint, side: "buy", amount: "0.2", pool });
    const [buy, bought] = await quoteThenTrade(apiKey, { mint, side: "buy", amount: "0.2" });
    expect(buy).toMatchObject({ venue: "launchswap", pool, slippage_bps: 200 });
    expect(buy).toMatchObject(explicit);
    expect(BigInt(buy.fees.lp_fee_lamports!)).toBeGreaterThan(0n);
    const meta = await metaOf(bought.signature);
    const wsol = wsolDeltas(meta);
    const vaultKey = [...wsol.entries()].find(([, v]) => v.owner === pool)![0];
    // The pool's quote vault receives its quote amount plus the lp fee; the other WSOL accounts credited
    // (protocol fee recipient, buyback, coin-creator vault) receive protocol and creator fees.
    const venueSol = BigInt(buy.sol_in_lamports!) - fee(buy, "total_fee_lamports");
    const others = [...wsol.entries()]
      .filter(([k, v]) => k !== vaultKey && v.delta > 0n)
      .reduce((s, [, v]) => s + v.delta, 0n);
    if (UPGRADED) {
      // v2: protocol and creator fee stay in the vault; only the buyback share is paid out.
      expect(wsol.get(vaultKey)!.delta + others).toBe(BigInt(buy.sol_in_lamports!));
      expect(others).toBeLessThanOrEqual(fee(buy, "protocol_fee_lamports"));
    } else {
      expect(wsol.get(vaultKey)!.delta).toBe(venueSol + fee(buy, "lp_fee_lamports"));
      expect(others).toBe(fee(buy, "protocol_fee_lamports") + fee(buy, "creator_fee_lamports"));
    }

    const [tokenBuy] = await quoteThenTrade(apiKey, {
      mint,
      side: "buy",
      amount: "3000000000",
      denominated_in_sol: "false",
    });
    expect(tokenBuy.venue).toBe("launchswap");

    const [sell, sold] = await quoteThenTrade(apiKey, { mint, side: "sell", amount: "2000000000" });
    const sellMeta = wsolDeltas(await metaOf(sold.signature));
    const sellVault = [...sellMeta.entries()].find(([, v]) => v.owner === pool)![1];
    // Out of the vault: everything but the lp fee, which stays in the pool.
    const gross = BigInt(sell.sol_out_lamports!) + fee(sell, "total_fee_lamports");
    if (UPGRADED) {
      // v2 keeps the protocol and creator fee in the vault too: it pays the seller and the buyback share.
      const buyback = [...sellMeta.entries()]
        .filter(([, v]) => v.owner !== pool && v.delta > 0n)
        .reduce((s, [, v]) => s + v.delta, 0n);
      expect(sellVault.delta + buyback).toBeLessThanOrEqual(-BigInt(sell.sol_out_lamports!));
      expect(sellVault.delta).toBeGreaterThanOrEqual(-(gross - fee(sell, "lp_fee_lamports")));
    } else {
      expect(sellVault.delta).toBe(-(gross - fee(sell, "lp_fee_lamports")));
    }
  });
});
