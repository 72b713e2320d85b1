/**
 * Which instructions a trade goes out as: v3 on the curve and v2 on the pool when the live generation is
 * 2026-10, legacy for cashback coins and on 2026-09; and the synthetic-migration quote of a v3 buy past
 * what the curve has left.
 */
import { describe, expect, it } from "vitest";
import { PublicKey } from "@solana/web3.js";
import { NATIVE_MINT, TOKEN_2022_PROGRAM_ID } from "@solana/spl-token";
import {
  quoteRead,
  sentInstructionName,
  tradeInstructions,
  venueStateOf,
  type TradeConfigs,
} from "../../../../src/domain/trade/plan.js";
import { quoteFigures } from "../../../../src/domain/trade/quote-figures.js";
import type { CurveTradeRead, SwapTradeRead } from "../../../../src/launch/trade-accounts.js";
import type { LaunchGlobal, SwapGlobalConfig } from "../../../../src/launch/state.js";
import { launchSdk, launchSwapSdk } from "../../../../src/launch/sdk.js";
import { createHash } from "node:crypto";
import { key } from "../../../helpers/fixtures.js";
import { minAfterSlippage } from "../../../../src/core/slippage.js";

const Z = PublicKey.default;
const disc = (name: string) =>
  createHash("sha256").update(`global:${name}`).digest().subarray(0, 8).toString("hex");
const global = {
  feeRecipient: key(4),
  feeRecipients: Array<PublicKey>(7).fill(Z),
  reservedFeeRecipient: key(5),
  reservedFeeRecipients: Array<PublicKey>(7).fill(Z),
  buybackFeeRecipients: [key(6), ...Array<PublicKey>(7).fill(Z)],
  feeBasisPoints: 95n,
  creatorFeeBasisPoints: 30n,
  creatorFeeConfigurable: false,
  initialRealTokenReserves: 793_100_000_000_000n,
  poolMigrationFee: 15_000_001n,
} as unknown as LaunchGlobal;
const globalConfig = {
  lpFeeBasisPoints: 20n,
  protocolFeeBasisPoints: 5n,
  coinCreatorFeeBasisPoints: 5n,
  protocolFeeRecipients: [key(4), ...Array<PublicKey>(7).fill(Z)],
  reservedFeeRecipient: key(5),
  reservedFeeRecipients: Array<PublicKey>(7).fill(Z),
  buybackFeeRecipients: [key(6), ...Array<PublicKey>(7).fill(Z)],
  creatorFeeConfigurable: false,
} as unknown as SwapGlobalConfig;
const configs = (generation: "2026-09" | "2026-10"): TradeConfigs => ({
  curve: () => ({ global, feeConfig: null }),
  swap: () => ({ globalConfig, feeConfig: null }),
  generation: () => generation,
});

const common = {
  mint: key(3),
  user: key(1),
  tokenProgram: TOKEN_2022_PROGRAM_ID,
  mintSupply: 1_000_000_000_000_000n,
  decimals: 6,
  userTokenAccount: key(10),
  userAtaExists: true,
  userTokenBalance: 10n ** 12n,
  userWsolAccount: key(11),
  userWsolExists: false,
};
// 1,000 tokens (1e9 units) left on a mainnet-shaped curve.
const curveRead = (cashback: boolean): CurveTradeRead =>
  ({
    ...common,
    venue: "bonding_curve",
    curveAddress: key(12),
    curve: {
      virtualTokenReserves: 279_901_000_000_000n,
      virtualQuoteReserves: 115_004_948_178n,
      realTokenReserves: 1_000_000_000n,
      realQuoteReserves: 85_004_948_178n,
      tokenTotalSupply: 1_000_000_000_000_000n,
      complete: false,
      creator: key(2),
      isMayhemMode: false,
      isCashbackCoin: cashback,
      quoteMint: Z,
      creatorFeeBps: 0n,
    },
  }) as unknown as CurveTradeRead;
const poolRead = (cashback: boolean): SwapTradeRead =>
  ({
    ...common,
    venue: "launchswap",
    poolAddress: key(20),
    pool: {
      creator: key(21),
      baseMint: key(3),
      quoteMint: NATIVE_MINT,
      poolBaseTokenAccount: key(22),
      poolQuoteTokenAccount: key(23),
      coinCreator: key(2),
      isMayhemMode: false,
      isCashbackCoin: cashback,
      virtualQuoteReserves: -1_000n,
      creatorFeeBps: 0n,
    },
    poolDataLength: 300,
    poolReserves: { base: 10n ** 14n, quote: 10n ** 11n },
    curve: null,
  }) as unknown as SwapTradeRead;

const buySol = {
  action: "buy",
  amount: { kind: "sol", lamports: 1_000_000_000n },
  slippageBps: 100n,
} as const;
const sell = { action: "sell", amount: { kind: "tokens", units: 1_000_000n }, slippageBps: 100n } as const;
const launchIx = (ixs: { programId: PublicKey; data: Buffer }[], program: PublicKey) =>
  ixs.filter((i) => i.programId.equals(program)).map((i) => i.data.subarray(0, 8).toString("hex"));

describe("the instructions a trade is sent as", () => {
  it("2026-10, curve: buy_exact_quote_in_v3 and sell_v3", async () => {
    const read = curveRead(false);
    const buy = quoteRead(buySol as never, read, configs("2026-10"));
    expect(sentInstructionName(read, buy, configs("2026-10"))).toBe("buy_exact_quote_in_v3");
    expect(
      launchIx(await tradeInstructions(read, buy, configs("2026-10")), launchSdk.PUMP_PROGRAM_ID),
    ).toEqual([disc("buy_exact_quote_in_v3")]);
    const s = quoteRead(sell as never, read, configs("2026-10"));
    expect(launchIx(await tradeInstructions(read, s, configs("2026-10")), launchSdk.PUMP_PROGRAM_ID)).toEqual(
      [disc("sell_v3")],
    );
  });

  it("2026-10, cashback coin: the legacy curve instructions (v3 refuses it, 6094)", async () => {
    const read = curveRead(true);
    const buy = quoteRead(buySol as never, read, configs("2026-10"));
    expect(sentInstructionName(read, buy, configs("2026-10"))).toBe("buy_exact_sol_in");
    expect(
      launchIx(await tradeInstructions(read, buy, configs("2026-10")), launchSdk.PUMP_PROGRAM_ID),
    ).toEqual([disc("buy_exact_sol_in")]);
  });

  it("2026-09: the legacy curve instructions", async () => {
    const read = curveRead(false);
    const buy = quoteRead(buySol as never, read, configs("2026-09"));
    expect(
      launchIx(await tradeInstructions(read, buy, configs("2026-09")), launchSdk.PUMP_PROGRAM_ID),
    ).toEqual([disc("buy_exact_sol_in")]);
  });

  it("2026-10, pool: buy_v2 / sell_v2; a cashback pool keeps v1 (6079)", async () => {
    const amm = launchSwapSdk.PUMP_AMM_PROGRAM_ID;
    const read = poolRead(false);
    const buy = quoteRead(buySol as never, read, configs("2026-10"));
    expect(launchIx(await tradeInstructions(read, buy, configs("2026-10")), amm)).toEqual([disc("buy_v2")]);
    const s = quoteRead(sell as never, read, configs("2026-10"));
    expect(launchIx(await tradeInstructions(read, s, configs("2026-10")), amm)).toEqual([disc("sell_v2")]);
    const cashback = poolRead(true);
    const v1 = quoteRead(buySol as never, cashback, configs("2026-10"));
    expect(launchIx(await tradeInstructions(cashback, v1, configs("2026-10")), amm)).toEqual([disc("buy")]);
  });
});

describe("a v3 SOL buy past the curve (synthetic migration)", () => {
  it("quotes the tokens of both parts; the legacy quote stops at what the curve has left", () => {
    const read = curveRead(false);
    const v3 = quoteRead(buySol as never, read, configs("2026-10"));
    const legacy = quoteRead(buySol as never, read, configs("2026-09"));
    expect(legacy.quoted).toBe(1_000_000_000n);
    expect(v3.quoted).toBeGreaterThan(1_000_000_000n);
    expect(v3.expectedOutput).toBe(minAfterSlippage(v3.quoted, 100n));
    // GET /v1/quote's figures: the tokens of both parts, both parts' fees, within the budget.
    const figures = quoteFigures(v3, venueStateOf(read, configs("2026-10")));
    expect(figures.tokens).toBe(v3.quoted);
    expect(figures.sol).toBeLessThanOrEqual(1_000_000_000n);
    expect(figures.sol).toBeGreaterThan(1_000_000_000n - 10n);
    expect(figures.fees.protocol).toBeGreaterThan((figures.venueSol * 95n) / 10_000n - 2n);
  });

  it("a token buy past the curve is priced on the would-be pool under v3, refused under legacy", () => {
    const read = curveRead(false);
    const tokens = {
      action: "buy",
      amount: { kind: "tokens", units: 3_000_000_000n },
      slippageBps: 0n,
    } as const;
    expect(quoteRead(tokens as never, read, configs("2026-10")).args.instruction).toBe("buy");
    expect(() => quoteRead(tokens as never, read, configs("2026-09"))).toThrow();
  });
});
