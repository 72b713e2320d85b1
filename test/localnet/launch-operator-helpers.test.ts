/** The launch emulation's operator helpers and rarer instructions against a ledger. */
import { describe, it, expect } from "vitest";
import BN from "bn.js";
import {
  getAssociatedTokenAddressSync,
  TOKEN_2022_PROGRAM_ID,
  createAssociatedTokenAccountIdempotentInstruction,
} from "@solana/spl-token";
import { Keypair, PublicKey } from "@solana/web3.js";
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
  setBondingCashback,
  userVolumeAccumulatorAddress,
  writeCurve,
} from "../../localnet/programs/launch/index.js";
import { buildBuyIx } from "../../localnet/programs/launch/ix-builders.js";

import { big, funded as fundedWith, newLedger, send } from "./launch-fixture.js";

const { PUMP_SDK } = launchSdk;

/** A new keypair holding 100 SOL. */
const funded = (ledger: Ledger): Keypair => fundedWith(ledger, 100n);

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
