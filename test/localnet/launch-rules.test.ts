/**
 * The launch emulation's pure rules against the SDK's quote math, its operator builders against the
 * SDK's builders, and the operator helpers / rarer instructions against a ledger.
 */
import { describe, it, expect } from "vitest";
import fc from "fast-check";
import BN from "bn.js";
import {
  getAssociatedTokenAddressSync,
  TOKEN_2022_PROGRAM_ID,
  createAssociatedTokenAccountIdempotentInstruction,
} from "@solana/spl-token";
import {
  Keypair,
  PublicKey,
  TransactionMessage,
  VersionedTransaction,
  type TransactionInstruction,
} from "@solana/web3.js";
import { launchSdk } from "../../src/launch/sdk.js";
import { createLedger, type Ledger, type TransactionRecord } from "../../localnet/ledger/index.js";
import {
  BUYBACK_FEE_RECIPIENTS,
  FEE_RECIPIENTS,
  RESERVED_FEE_RECIPIENTS,
  createLaunchProgram,
  createToken,
  curveAddress,
  installLaunchGenesis,
  readCurve,
  readFeeConfig,
  readGlobal,
  setBondingCashback,
  userVolumeAccumulatorAddress,
  writeCurve,
  type Curve,
} from "../../localnet/programs/launch/index.js";
import {
  curveFeeBps,
  quoteBuyExactSolIn,
  quoteBuyExactTokens,
  quoteSell,
} from "../../localnet/programs/launch/curve-math.js";
import { buildBuyIx, buildCreateV2Ix } from "../../localnet/programs/launch/ix-builders.js";

const { PUMP_SDK } = launchSdk;
const bn = (x: bigint) => new BN(x.toString());
const big = (x: BN) => BigInt(x.toString());

function newLedger(): Ledger {
  const ledger = createLedger({ programs: [createLaunchProgram({ cashbackCreation: false })] });
  installLaunchGenesis(ledger, { cashbackCreation: false });
  return ledger;
}

function send(ledger: Ledger, payer: Keypair, ixs: TransactionInstruction[]): TransactionRecord {
  const msg = new TransactionMessage({
    payerKey: payer.publicKey,
    recentBlockhash: ledger.latestBlockhash().blockhash,
    instructions: ixs,
  }).compileToV0Message();
  const tx = new VersionedTransaction(msg);
  tx.sign([payer]);
  return ledger.processTransaction(tx.serialize());
}

function funded(ledger: Ledger): Keypair {
  const k = Keypair.generate();
  ledger.fund(k.publicKey, 100_000_000_000n);
  return k;
}

/** Sends the emulator's own buy (fee recipient 0), creating the user's token account first. */
function buyWithNewAta(
  ledger: Ledger,
  user: Keypair,
  coin: { mint: PublicKey; creator: PublicKey },
  amount: bigint,
  limit: bigint,
): TransactionRecord {
  const userAta = getAssociatedTokenAddressSync(coin.mint, user.publicKey, true, TOKEN_2022_PROGRAM_ID);
  return send(ledger, user, [
    createAssociatedTokenAccountIdempotentInstruction(
      user.publicKey,
      userAta,
      user.publicKey,
      coin.mint,
      TOKEN_2022_PROGRAM_ID,
    ),
    buildBuyIx({
      mint: coin.mint,
      user: user.publicKey,
      creator: coin.creator,
      feeRecipient: FEE_RECIPIENTS[0]!,
      amount,
      limit,
    }),
  ]);
}

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

describe("operator helpers and rarer instructions", () => {
  it("setBondingCashback makes exactly the given lamports claimable, and claim_cashback pays them", async () => {
    const ledger = newLedger();
    const user = Keypair.generate().publicKey;
    setBondingCashback(ledger, user, 123_456_789n);
    const key = userVolumeAccumulatorAddress(user);
    const rent = ledger.rentExemptMinimum(137);
    expect(ledger.getAccount(key)!.lamports).toBe(rent + 123_456_789n);
    setBondingCashback(ledger, user, 5_000n);
    const acc = ledger.getAccount(key)!;
    expect(acc.lamports - rent).toBe(5_000n);
    const uva = PUMP_SDK.decodeUserVolumeAccumulator({ ...acc, data: Buffer.from(acc.data), lamports: 0 });
    expect(uva.user.equals(user)).toBe(true);
    expect(big(uva.cashbackEarned) - big(uva.totalCashbackClaimed)).toBe(5_000n);
    const payer = funded(ledger);
    const rec = send(ledger, payer, [await PUMP_SDK.claimCashbackInstruction({ user })]);
    expect(rec.err, rec.logs.join("\n")).toBeNull();
    expect(ledger.getAccount(user)!.lamports).toBe(5_000n);
    expect(ledger.getAccount(key)!.lamports).toBe(rent);
  });

  it("mayhem coins take the reserved fee recipients the SDK picks; buy_exact_sol_in below min → 6042", async () => {
    const ledger = newLedger();
    const { mint, creator } = createToken(ledger, { mayhem: true });
    const user = funded(ledger);
    const s = {
      global: PUMP_SDK.decodeGlobal({
        ...ledger.getAccount(launchSdk.GLOBAL_PDA)!,
        data: Buffer.from(ledger.getAccount(launchSdk.GLOBAL_PDA)!.data),
        lamports: 0,
      }),
      curveInfo: {
        ...ledger.getAccount(curveAddress(mint))!,
        data: Buffer.from(ledger.getAccount(curveAddress(mint))!.data),
        lamports: 0,
      },
    };
    const curve = PUMP_SDK.decodeBondingCurve(s.curveInfo);
    expect(curve.isMayhemMode).toBe(true);
    const ixs = await PUMP_SDK.buyInstructions({
      global: s.global,
      bondingCurveAccountInfo: s.curveInfo,
      bondingCurve: curve,
      associatedUserAccountInfo: null,
      mint,
      user: user.publicKey,
      amount: new BN(1_000_000_000),
      solAmount: new BN(100_000_000),
      slippage: 5,
      tokenProgram: TOKEN_2022_PROGRAM_ID,
    });
    expect(RESERVED_FEE_RECIPIENTS.some((k) => k.equals(ixs[1]!.keys[1]!.pubkey))).toBe(true);
    const rec = send(ledger, user, ixs);
    expect(rec.err, rec.logs.join("\n")).toBeNull();

    const c = readCurve(ledger, mint)!;
    const spendable = 100_000_000n;
    let net = (spendable * 10_000n) / 10_125n;
    const fees = (net * 95n + 9_999n) / 10_000n + (net * 30n + 9_999n) / 10_000n;
    if (net + fees > spendable) net -= net + fees - spendable;
    const expected = ((net - 1n) * c.virtualTokenReserves) / (c.virtualQuoteReserves + net - 1n);
    const exact = buildBuyIx({
      mint,
      user: user.publicKey,
      creator,
      feeRecipient: RESERVED_FEE_RECIPIENTS[3]!,
      amount: spendable,
      limit: expected + 1n,
      exactSolIn: true,
    });
    const fail = send(ledger, user, [exact]);
    expect(fail.err).toEqual({ InstructionError: [0, { Custom: 6042 }] });
    const ok = send(ledger, user, [
      buildBuyIx({
        mint,
        user: user.publicKey,
        creator,
        feeRecipient: RESERVED_FEE_RECIPIENTS[3]!,
        amount: spendable,
        limit: expected,
        exactSolIn: true,
      }),
    ]);
    expect(ok.err, ok.logs.join("\n")).toBeNull();
  });

  it("create_v2 failures change nothing: cashback by default (6082), name over 32 bytes (6043)", () => {
    const ledger = newLedger();
    const before = ledger.getAccount(ledger.operator.publicKey)!.lamports;
    expect(() => createToken(ledger, { cashback: true })).toThrow(/CashbackDeprecated/);
    expect(() => createToken(ledger, { name: "x".repeat(33) })).toThrow(/NameTooLong/);
    expect(ledger.getAccount(ledger.operator.publicKey)!.lamports).toBe(before);
  });

  it("a cashback coin sold without the accumulator account pays the creator fee to the creator vault", async () => {
    const ledger = createLedger({ programs: [createLaunchProgram({ cashbackCreation: true })] });
    installLaunchGenesis(ledger, { cashbackCreation: true });
    const { mint, creator } = createToken(ledger, { cashback: true });
    const user = funded(ledger);
    const buy = buyWithNewAta(ledger, user, { mint, creator }, 10_000_000_000n, 10_000_000_000n);
    expect(buy.err, buy.logs.join("\n")).toBeNull();
    const uvaKey = userVolumeAccumulatorAddress(user.publicKey);
    const uvaBefore = ledger.getAccount(uvaKey)!.lamports;
    const vault = launchSdk.creatorVaultPda(creator);
    expect(ledger.getAccount(vault)).toBeNull();
    const sell = await PUMP_SDK.getSellInstructionRaw({
      user: user.publicKey,
      mint,
      creator,
      amount: new BN(5_000_000_000),
      solAmount: new BN(0),
      feeRecipient: FEE_RECIPIENTS[1]!,
      buybackFeeRecipient: BUYBACK_FEE_RECIPIENTS[1]!,
      tokenProgram: TOKEN_2022_PROGRAM_ID,
      cashback: false,
    });
    const rec = send(ledger, user, [sell]);
    expect(rec.err, rec.logs.join("\n")).toBeNull();
    expect(ledger.getAccount(uvaKey)!.lamports).toBe(uvaBefore);
    expect(ledger.getAccount(vault)!.lamports).toBeGreaterThan(0n);
  });

  it("extend_account grows a short curve to 151 bytes and the curve still trades", async () => {
    const ledger = newLedger();
    const { mint, creator } = createToken(ledger, {});
    const key = curveAddress(mint);
    const acc = ledger.getAccount(key)!;
    ledger.setAccount(key, { ...acc, data: acc.data.slice(0, 125) });
    const user = funded(ledger);
    const rec = send(ledger, user, [
      await PUMP_SDK.extendAccountInstruction({ account: key, user: user.publicKey }),
    ]);
    expect(rec.err, rec.logs.join("\n")).toBeNull();
    expect(ledger.getAccount(key)!.data.length).toBe(151);
    writeCurve(ledger, mint, { ...readCurve(ledger, mint)! });
    const buy = buyWithNewAta(ledger, user, { mint, creator }, 1_000n, 1_000_000n);
    expect(buy.err, buy.logs.join("\n")).toBeNull();
    // The TradeEvent decodes with the SDK's own decoder (event discriminator, then borsh fields).
    const line = buy.logs.find((l) => l.startsWith("Program data: "))!;
    const bytes = Buffer.from(line.slice("Program data: ".length), "base64");
    const event = PUMP_SDK.decodeTradeEventBc(bytes.subarray(8));
    expect(event.mint.equals(mint)).toBe(true);
    expect(event.tokenAmount.toNumber()).toBe(1_000);
    expect(event.isBuy).toBe(true);
    expect(event.ixName).toBe("buy");
  });
});
