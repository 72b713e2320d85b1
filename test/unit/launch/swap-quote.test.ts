import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Keypair, PublicKey } from "@solana/web3.js";
import BN from "bn.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { FeeRates, FeeTier } from "../../../src/launch/curve-quote.js";
import { ApiError, TRADE_RULES } from "../../../src/core/errors.js";
import { maxAfterSlippage, minAfterSlippage } from "../../../src/core/slippage.js";
import {
  computeSwapFeesBps,
  swapBuyBaseInput,
  swapBuyQuoteInput,
  swapSellBaseInput,
  type SwapFeeInputs,
  type SwapReserves,
} from "../../../src/launch/swap-quote.js";
import { launchSwapSdk } from "../../../src/launch/sdk.js";

type SdkArgs = Parameters<typeof launchSwapSdk.buyBaseInput>[0];
type SdkFeeConfig = NonNullable<SdkArgs["feeConfig"]>;
type SdkFees = SdkFeeConfig["flatFees"];

const bn = (x: bigint): BN => new BN(x.toString());
const big = (x: BN): bigint => BigInt(x.toString());
const toRates = (f: SdkFees): FeeRates => ({
  lpFeeBps: big(f.lpFeeBps),
  protocolFeeBps: big(f.protocolFeeBps),
  creatorFeeBps: big(f.creatorFeeBps),
});

/** The live mainnet AMM FeeConfig shipped as a fixture with pump-swap-sdk (reference E). */
function mainnetFeeConfig(): SdkFeeConfig {
  const require = createRequire(import.meta.url);
  // The package exports no package.json; its CJS entry is <root>/dist/index.js.
  const root = join(dirname(require.resolve("@pump-fun/pump-swap-sdk")), "..");
  const source = readFileSync(join(root, "src/__tests__/feeConfigMainnetFixture.ts"), "utf8");
  const base64 = [...source.matchAll(/^\s+"([A-Za-z0-9+/=]+)",$/gm)].map((m) => m[1]).join("");
  return launchSwapSdk.PUMP_AMM_SDK.decodeFeeConfig({
    data: Buffer.from(base64, "base64"),
    executable: false,
    lamports: 0,
    owner: launchSwapSdk.PUMP_FEE_PROGRAM_ID,
    rentEpoch: 0,
  });
}

const MAINNET = mainnetFeeConfig();
const MAINNET_TIERS: readonly FeeTier[] = MAINNET.feeTiers.map((t) => ({
  marketCapThreshold: big(t.marketCapLamportsThreshold),
  fees: toRates(t.fees),
}));
const GLOBAL_FEES: FeeRates = { lpFeeBps: 30n, protocolFeeBps: 20n, creatorFeeBps: 5n };
const BASE_MINT = Keypair.generate().publicKey;
const POOL_AUTHORITY = launchSwapSdk.pumpPoolAuthorityPda(BASE_MINT);
const OTHER_CREATOR = Keypair.generate().publicKey;
const COIN_CREATOR = Keypair.generate().publicKey;

interface Scenario {
  reserves: SwapReserves;
  supply: bigint;
  canonical: boolean;
  coinCreator: boolean;
  mayhem: boolean;
  withFeeConfig: boolean;
  configurable: boolean;
  poolCreatorFeeBps: bigint;
}

function ourFees(s: Scenario) {
  const inputs: SwapFeeInputs = {
    feeConfig: s.withFeeConfig ? { feeTiers: MAINNET_TIERS, flatFees: toRates(MAINNET.flatFees) } : null,
    globalFees: GLOBAL_FEES,
    creatorFeeConfigurable: s.configurable,
    poolCreatorFeeBps: s.poolCreatorFeeBps,
    isCanonicalPool: s.canonical,
    baseMintSupply: s.supply,
    reserves: s.reserves,
    isMayhemMode: s.mayhem,
    hasCoinCreator: s.coinCreator,
  };
  return computeSwapFeesBps(inputs);
}

function sdkArgs(s: Scenario, slippage = 0): Omit<SdkArgs, "base"> {
  const globalConfig = {
    lpFeeBasisPoints: bn(GLOBAL_FEES.lpFeeBps),
    protocolFeeBasisPoints: bn(GLOBAL_FEES.protocolFeeBps),
    coinCreatorFeeBasisPoints: bn(GLOBAL_FEES.creatorFeeBps),
    creatorFeeConfigurable: s.configurable,
  } as unknown as SdkArgs["globalConfig"]; // test double: the quote functions read only these fields
  const baseMintAccount = { supply: s.supply } as unknown as SdkArgs["baseMintAccount"]; // only supply is read
  return {
    slippage,
    baseReserve: bn(s.reserves.baseReserve),
    quoteReserve: bn(s.reserves.quoteReserve),
    virtualQuoteReserves: bn(s.reserves.virtualQuoteReserves),
    globalConfig,
    baseMintAccount,
    baseMint: BASE_MINT,
    coinCreator: s.coinCreator ? COIN_CREATOR : PublicKey.default,
    creator: s.canonical ? POOL_AUTHORITY : OTHER_CREATOR,
    feeConfig: s.withFeeConfig ? MAINNET : null,
    isMayhemMode: s.mayhem,
    creatorFeeBps: bn(s.poolCreatorFeeBps),
  };
}

const scenarioArb: fc.Arbitrary<Scenario> = fc.record({
  reserves: fc.record({
    baseReserve: fc.bigInt({ min: 10n ** 9n, max: 10n ** 15n }),
    quoteReserve: fc.bigInt({ min: 10n ** 6n, max: 10n ** 13n }),
    virtualQuoteReserves: fc.constantFrom(0n, 0n, 30_000_000_000n),
  }),
  supply: fc.bigInt({ min: 10n ** 15n, max: 2n * 10n ** 15n }),
  canonical: fc.boolean(),
  coinCreator: fc.boolean(),
  mayhem: fc.boolean(),
  withFeeConfig: fc.boolean(),
  configurable: fc.boolean(),
  poolCreatorFeeBps: fc.constantFrom(0n, 0n, 40n, 250n),
});

describe("swap fee selection", () => {
  it("matches pump-swap-sdk computeFeesBps (creator part only with a coin creator)", () => {
    fc.assert(
      fc.property(scenarioArb, (s) => {
        const a = sdkArgs(s);
        const sdk = launchSwapSdk.computeFeesBps({
          globalConfig: a.globalConfig,
          feeConfig: a.feeConfig,
          creator: a.creator,
          baseMintSupply: bn(s.supply),
          baseMint: BASE_MINT,
          baseReserve: a.baseReserve,
          quoteReserve: a.quoteReserve.add(bn(s.reserves.virtualQuoteReserves)),
          isMayhemMode: s.mayhem,
          creatorFeeBps: bn(s.poolCreatorFeeBps),
        });
        const ours = ourFees(s);
        expect(ours.lpFeeBps).toBe(big(sdk.lpFeeBps));
        expect(ours.protocolFeeBps).toBe(big(sdk.protocolFeeBps));
        expect(ours.creatorFeeBps).toBe(s.coinCreator ? big(sdk.creatorFeeBps) : 0n);
      }),
      { numRuns: 300 },
    );
  });
});

describe("swap quotes against pump-swap-sdk", () => {
  it("swapBuyBaseInput = buyBaseInput (internal and ui quote)", () => {
    fc.assert(
      fc.property(scenarioArb, fc.double({ min: 0, max: 0.99, noNaN: true }), (s, share) => {
        const base = (s.reserves.baseReserve * BigInt(Math.floor(share * 1e6))) / 1_000_000n + 1n;
        const sdk = launchSwapSdk.buyBaseInput({ ...sdkArgs(s), base: bn(base) });
        const ours = swapBuyBaseInput(base, s.reserves, ourFees(s));
        expect(ours.internalQuoteAmount).toBe(big(sdk.internalQuoteAmount));
        expect(ours.totalQuote).toBe(big(sdk.uiQuote));
      }),
      { numRuns: 400 },
    );
  });

  it("swapBuyQuoteInput = buyQuoteInput", () => {
    fc.assert(
      fc.property(scenarioArb, fc.bigInt({ min: 1n, max: 10n ** 12n }), (s, quote) => {
        const sdk = launchSwapSdk.buyQuoteInput({ ...sdkArgs(s), quote: bn(quote) });
        const ours = swapBuyQuoteInput(quote, s.reserves, ourFees(s));
        // For dust the SDK's formula goes negative; we report 0 tokens.
        const sdkBase = big(sdk.base);
        expect(ours.base).toBe(sdkBase < 0n ? 0n : sdkBase);
        expect(ours.internalQuoteWithoutFees).toBe(big(sdk.internalQuoteWithoutFees));
      }),
      { numRuns: 400 },
    );
  });

  it("swapSellBaseInput = sellBaseInput", () => {
    fc.assert(
      fc.property(scenarioArb, fc.bigInt({ min: 1n, max: 10n ** 15n }), (s, base) => {
        let sdk: ReturnType<typeof launchSwapSdk.sellBaseInput> | Error;
        try {
          sdk = launchSwapSdk.sellBaseInput({ ...sdkArgs(s), base: bn(base) });
        } catch (error) {
          sdk = error as Error;
        }
        if (sdk instanceof Error) {
          expect(() => swapSellBaseInput(base, s.reserves, ourFees(s))).toThrow(ApiError);
          return;
        }
        const ours = swapSellBaseInput(base, s.reserves, ourFees(s));
        expect(ours.userQuoteOut).toBe(big(sdk.uiQuote));
        expect(ours.internalQuoteAmountOut).toBe(big(sdk.internalQuoteAmountOut));
      }),
      { numRuns: 400 },
    );
  });
});

describe("mainnet goldens (pump-swap-sdk buy.spec.ts / sell.spec.ts, reference E)", () => {
  const golden = (quoteReserve: bigint, virtual = 0n, coinCreator = true, canonical = true): Scenario => ({
    reserves: { baseReserve: 500_000_000_000_000n, quoteReserve, virtualQuoteReserves: virtual },
    supply: 1_000_000_000_000_000n,
    canonical,
    coinCreator,
    mayhem: false,
    withFeeConfig: true,
    configurable: false,
    poolCreatorFeeBps: 0n,
  });

  it("buyBaseInput rows", () => {
    const s1 = golden(50_000_000_000n);
    const r1 = swapBuyBaseInput(1_000_000_000_000n, s1.reserves, ourFees(s1));
    expect([r1.internalQuoteAmount, r1.totalQuote, maxAfterSlippage(r1.totalQuote, 100n)]).toEqual([
      100_200_401n,
      101_452_908n,
      102_467_437n,
    ]);
    const s2 = golden(1_000_000_000_000n, 30_000_000_000n);
    const r2 = swapBuyBaseInput(10_000_000_000_000n, s2.reserves, ourFees(s2));
    expect([r2.internalQuoteAmount, r2.totalQuote, maxAfterSlippage(r2.totalQuote, 500n)]).toEqual([
      21_020_408_164n,
      21_262_142_860n,
      22_325_250_003n,
    ]);
    const flat = golden(50_000_000_000n, 0n, true, false);
    const r3 = swapBuyBaseInput(1_000_000_000_000n, flat.reserves, ourFees(flat));
    expect([r3.internalQuoteAmount, r3.totalQuote, maxAfterSlippage(r3.totalQuote, 100n)]).toEqual([
      100_200_401n,
      100_501_004n,
      101_506_014n,
    ]);
  });

  it("buyQuoteInput rows", () => {
    const s1 = golden(250_000_000_000n, 0n, false);
    const r1 = swapBuyQuoteInput(1_000_000_000n, s1.reserves, ourFees(s1));
    expect([r1.base, r1.internalQuoteWithoutFees]).toEqual([1_987_083_949_507n, 997_506_233n]);
    const s2 = golden(10_000_000_000_000n, 30_000_000_000n);
    const r2 = swapBuyQuoteInput(50_000_000_000n, s2.reserves, ourFees(s2));
    expect([r2.base, r2.internalQuoteWithoutFees, maxAfterSlippage(50_000_000_000n, 100n)]).toEqual([
      2_459_357_881_156n,
      49_578_582_050n,
      50_500_000_000n,
    ]);
  });

  it("sellBaseInput rows (our minimum rounds up: never looser than the SDK's)", () => {
    const s1 = golden(50_000_000_000n);
    const r1 = swapSellBaseInput(1_000_000_000_000n, s1.reserves, ourFees(s1));
    expect([r1.userQuoteOut, r1.internalQuoteAmountOut]).toEqual([98_552_892n, 99_800_399n]);
    // SDK: floor(98 552 892 × 0.99) = 97 567 363; exact 97 567 363.08 → our ceiling 97 567 364.
    expect(minAfterSlippage(r1.userQuoteOut, 100n)).toBe(97_567_364n);
    const s2 = golden(1_000_000_000_000n, 30_000_000_000n, false);
    const r2 = swapSellBaseInput(10_000_000_000_000n, s2.reserves, ourFees(s2));
    expect([r2.userQuoteOut, r2.internalQuoteAmountOut]).toEqual([20_145_588_234n, 20_196_078_431n]);
    expect(minAfterSlippage(r2.userQuoteOut, 500n)).toBe(19_138_308_823n); // SDK 19 138 308 822 (floor of …822.3)
    const flat = golden(50_000_000_000n, 0n, true, false);
    expect(swapSellBaseInput(1_000_000_000_000n, flat.reserves, ourFees(flat)).userQuoteOut).toBe(
      99_500_997n,
    );
  });
});

describe("the SDK's simple rows (1e6 base / 2e6 quote, lp 30 + protocol 20 bps)", () => {
  const reserves = { baseReserve: 1_000_000n, quoteReserve: 2_000_000n, virtualQuoteReserves: 0n };
  const fees = { lpFeeBps: 30n, protocolFeeBps: 20n, creatorFeeBps: 0n };
  it("buy 10 000 base: ui 20 305, max (1%) 20 508", () => {
    const r = swapBuyBaseInput(10_000n, reserves, fees);
    expect([r.totalQuote, maxAfterSlippage(r.totalQuote, 100n)]).toEqual([20_305n, 20_508n]);
  });
  it("sell 50 000 base: ui 94 761, min (1%) 93 814 (SDK floors to 93 813)", () => {
    const r = swapSellBaseInput(50_000n, reserves, fees);
    expect([r.userQuoteOut, minAfterSlippage(r.userQuoteOut, 100n)]).toEqual([94_761n, 93_814n]);
  });
});

describe("swap quote guards", () => {
  const reserves = { baseReserve: 1_000_000n, quoteReserve: 2_000_000n, virtualQuoteReserves: 0n };
  const fees = { lpFeeBps: 20n, protocolFeeBps: 5n, creatorFeeBps: 0n };
  it("refuses buying the whole pool and empty pools", () => {
    expect(() => swapBuyBaseInput(1_000_000n, reserves, fees)).toThrow(
      new ApiError(400, TRADE_RULES.exceedsReserves),
    );
    const empty = { ...reserves, quoteReserve: 0n };
    expect(() => swapBuyQuoteInput(5n, empty, fees)).toThrow(new ApiError(400, TRADE_RULES.emptyPool));
  });
  it("refuses a sell the real quote vault cannot pay (boost pools)", () => {
    const boosted = { baseReserve: 1_000_000n, quoteReserve: 10n, virtualQuoteReserves: 2_000_000n };
    expect(() => swapSellBaseInput(500_000n, boosted, fees)).toThrow(
      new ApiError(400, TRADE_RULES.insufficientQuoteReserves),
    );
  });
});
