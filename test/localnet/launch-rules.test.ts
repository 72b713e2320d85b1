/**
 * The launch emulation's pure rules against the SDK's quote math, and its operator builders against the
 * SDK's builders (the operator helpers and rarer instructions against a ledger: launch-operator-helpers.test.ts).
 */
import { describe, it, expect } from "vitest";
import fc from "fast-check";
import BN from "bn.js";
import { TOKEN_2022_PROGRAM_ID } from "@solana/spl-token";
import { Keypair, PublicKey } from "@solana/web3.js";
import { launchSdk } from "../../src/launch/sdk.js";
import {
  BUYBACK_FEE_RECIPIENTS,
  FEE_RECIPIENTS,
  readFeeConfig,
  readGlobal,
  type Curve,
} from "../../localnet/programs/launch/index.js";
import {
  curveFeeBps,
  quoteBuyExactSolIn,
  quoteBuyExactTokens,
  quoteSell,
} from "../../localnet/programs/launch/curve-math.js";
import { buildBuyIx, buildCreateV2Ix } from "../../localnet/programs/launch/ix-builders.js";

import { big, bn, newLedger } from "./launch-fixture.js";

const { PUMP_SDK } = launchSdk;

const toSdkCurve = (c: Curve) => ({
  ...c,
  virtualTokenReserves: bn(c.virtualTokenReserves),
  virtualQuoteReserves: bn(c.virtualQuoteReserves),
  realTokenReserves: bn(c.realTokenReserves),
  realQuoteReserves: bn(c.realQuoteReserves),
  tokenTotalSupply: bn(c.tokenTotalSupply),
  creatorFeeBps: bn(c.creatorFeeBps),
});

describe("curve math equals the SDK quotes", () => {
  const ledger = newLedger();
  const global = readGlobal(ledger);
  const feeConfig = readFeeConfig(ledger);
  const sdkGlobal = PUMP_SDK.decodeGlobal({
    ...ledger.getAccount(launchSdk.GLOBAL_PDA)!,
    data: Buffer.from(ledger.getAccount(launchSdk.GLOBAL_PDA)!.data),
    lamports: 0,
  });
  const sdkFeeConfig = PUMP_SDK.decodeFeeConfig({
    ...ledger.getAccount(launchSdk.PUMP_FEE_CONFIG_PDA)!,
    data: Buffer.from(ledger.getAccount(launchSdk.PUMP_FEE_CONFIG_PDA)!.data),
    lamports: 0,
  });
  const curveArb = fc
    .record({
      sold: fc.bigInt({ min: 0n, max: 793_000_000_000_000n }),
      creator: fc.boolean(),
      mayhem: fc.boolean(),
    })
    .map(({ sold, creator, mayhem }): Curve => {
      const vT0 = 1_073_000_000_000_000n;
      const vQ0 = 30_000_000_000n;
      const vT = vT0 - sold;
      const vQ = (vQ0 * vT0) / vT;
      return {
        virtualTokenReserves: vT,
        virtualQuoteReserves: vQ,
        realTokenReserves: 793_100_000_000_000n - sold,
        realQuoteReserves: vQ - vQ0,
        tokenTotalSupply: 1_000_000_000_000_000n,
        complete: false,
        creator: creator ? Keypair.generate().publicKey : PublicKey.default,
        isMayhemMode: mayhem,
        isCashbackCoin: false,
        quoteMint: PublicKey.default,
        creatorFeeBps: 0n,
        canEditCreatorFee: false,
        isHolderReward: false,
      };
    });

  it("buy cost (exact tokens) equals getBuySolAmountFromTokenAmount", () => {
    fc.assert(
      fc.property(curveArb, fc.bigInt({ min: 1n, max: 100_000_000_000_000n }), (curve, want) => {
        const amount = want > curve.realTokenReserves ? curve.realTokenReserves : want;
        fc.pre(amount > 0n);
        const bps = curveFeeBps(curve, global, feeConfig, curve.tokenTotalSupply);
        const t = quoteBuyExactTokens(curve, amount, 2n ** 64n, bps, global.buybackBasisPoints);
        const sdk = launchSdk.getBuySolAmountFromTokenAmount({
          global: sdkGlobal,
          feeConfig: sdkFeeConfig,
          mintSupply: bn(curve.tokenTotalSupply),
          bondingCurve: toSdkCurve(curve),
          amount: bn(amount),
          quoteMint: PublicKey.default,
        });
        expect(t.curveLamports + t.protocolFee + t.creatorFee).toBe(big(sdk));
        expect(t.buybackFee).toBe((t.protocolFee * 5_000n) / 10_000n);
      }),
      { numRuns: 200 },
    );
  });

  it("sell proceeds equal getSellSolAmountFromTokenAmount", () => {
    fc.assert(
      fc.property(curveArb, fc.bigInt({ min: 1n, max: 100_000_000_000_000n }), (curve, amount) => {
        const bps = curveFeeBps(curve, global, feeConfig, curve.tokenTotalSupply);
        const sdk = launchSdk.getSellSolAmountFromTokenAmount({
          global: sdkGlobal,
          feeConfig: sdkFeeConfig,
          mintSupply: bn(curve.tokenTotalSupply),
          bondingCurve: toSdkCurve(curve),
          amount: bn(amount),
        });
        const solOut = (amount * curve.virtualQuoteReserves) / (curve.virtualTokenReserves + amount);
        fc.pre(solOut <= curve.realQuoteReserves && big(sdk) > 0n);
        const t = quoteSell(curve, amount, 0n, bps, global.buybackBasisPoints);
        expect(t.curveLamports - t.protocolFee - t.creatorFee).toBe(big(sdk));
      }),
      { numRuns: 200 },
    );
  });
});

describe("buy_exact_sol_in rounding (reference B.1.3 step 3)", () => {
  it("shrinks net_sol by the fee overshoot and charges the fees of the final net_sol", () => {
    const curve = {
      virtualTokenReserves: 1_073_000_000_000_000n,
      virtualQuoteReserves: 30_000_000_000n,
      realTokenReserves: 793_100_000_000_000n,
      realQuoteReserves: 0n,
      tokenTotalSupply: 1_000_000_000_000_000n,
      complete: false,
      creator: Keypair.generate().publicKey,
      isMayhemMode: false,
      isCashbackCoin: false,
      quoteMint: PublicKey.default,
      creatorFeeBps: 0n,
      canEditCreatorFee: false,
      isHolderReward: false,
    };
    const bps = { protocolBps: 95n, creatorBps: 30n };
    // 10 127 × 10 000 / 10 125 = 10 001; fees(10 001) = 96 + 31 overshoot by 1 → net 10 000, fees 95 + 30.
    const t = quoteBuyExactSolIn(curve, 10_127n, 0n, bps, 5_000n);
    expect(t.curveLamports).toBe(10_000n);
    expect(t.protocolFee + t.creatorFee).toBe(125n);
    expect(t.tokens).toBe((9_999n * 1_073_000_000_000_000n) / (30_000_000_000n + 9_999n));
    expect(() => quoteBuyExactSolIn(curve, 10_127n, t.tokens + 1n, bps, 5_000n)).toThrow(/slippage/);
    expect(() => quoteBuyExactSolIn(curve, 1n, 0n, bps, 5_000n)).toThrow(/cover fees/);
  });
});

describe("operator builders equal the SDK's", () => {
  it("create_v2 and buy: same data and account metas", async () => {
    const mint = Keypair.generate().publicKey;
    const user = Keypair.generate().publicKey;
    const creator = Keypair.generate().publicKey;
    const sdkCreate = await PUMP_SDK.createV2Instruction({
      mint,
      name: "N",
      symbol: "S",
      uri: "U",
      creator,
      user,
      mayhemMode: true,
    });
    const mine = buildCreateV2Ix({
      mint,
      user,
      creator,
      name: "N",
      symbol: "S",
      uri: "U",
      mayhem: true,
      cashback: false,
    });
    expect(mine.data.toString("hex")).toBe(sdkCreate.data.toString("hex"));
    expect(mine.keys).toEqual(sdkCreate.keys);
    const args = {
      user,
      mint,
      creator,
      feeRecipient: FEE_RECIPIENTS[2]!,
      buybackFeeRecipient: BUYBACK_FEE_RECIPIENTS[4]!,
    };
    const sdkBuy = await PUMP_SDK.getBuyInstructionRaw({
      ...args,
      amount: new BN(7),
      solAmount: new BN(9),
      tokenProgram: TOKEN_2022_PROGRAM_ID,
    });
    const myBuy = buildBuyIx({ ...args, amount: 7n, limit: 9n });
    expect(myBuy.data.toString("hex")).toBe(sdkBuy.data.toString("hex"));
    expect(myBuy.keys).toEqual(sdkBuy.keys);
  });
});
