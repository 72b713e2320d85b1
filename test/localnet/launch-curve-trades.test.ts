/**
 * The emulated bonding-curve program driven only by transactions the official SDK builds, signed and
 * processed like client transactions: balances must match the SDK's own quotes to the unit.
 */
import { describe, it, expect, beforeAll, beforeEach } from "vitest";
import fc from "fast-check";
import { TOKEN_2022_PROGRAM_ID } from "@solana/spl-token";
import { PublicKey } from "@solana/web3.js";
import { launchSdk } from "../../src/launch/sdk.js";
import type { Ledger } from "../../localnet/ledger/index.js";
import { lamports } from "./ledger-views.js";
import {
  BUYBACK_FEE_RECIPIENTS,
  FEE_RECIPIENTS,
  createToken,
  creatorVaultAddress,
  curveAddress,
  userVolumeAccumulatorAddress,
} from "../../localnet/programs/launch/index.js";
import {
  ata,
  big,
  bn,
  coinHolderOn,
  coinWithHolder,
  expectCustom,
  funded,
  must,
  newLedger,
  quoteArgs,
  sdkBuyIxs,
  sdkState,
  send,
  snapshot,
  tokenBalance,
} from "./launch-fixture.js";

const { PUMP_SDK } = launchSdk;

describe("buy and sell built by the SDK", () => {
  let ledger: Ledger;
  let mint: PublicKey;
  let creator: PublicKey;
  beforeAll(() => {
    ledger = newLedger();
  });
  // Each case trades its own coin so no case drives another's curve to completion.
  beforeEach(() => {
    ({ mint, creator } = createToken(ledger, {}));
  });

  it("buy: tokens and every lamport movement equal the SDK quote", async () => {
    await fc.assert(
      fc.asyncProperty(fc.bigInt({ min: 1_000n, max: 1_500_000_000n }), fc.boolean(), async (sol, exact) => {
        const user = funded(ledger, 10n);
        const s = sdkState(ledger, mint);
        const q = quoteArgs(s);
        // Either the SDK's SOL→tokens estimate or a direct token amount (reference A.1a / A.2).
        const amount = exact
          ? launchSdk.getBuyTokenAmountFromSolAmount({ ...q, amount: bn(sol) })
          : bn(sol * 1_000n);
        const cost = launchSdk.getBuySolAmountFromTokenAmount({ ...q, amount });
        const ixs = await sdkBuyIxs(s, mint, user.publicKey, amount, cost, 0);
        const buy = ixs[ixs.length - 1]!;
        const feeRecipient = buy.keys[1]!.pubkey;
        const buyback = buy.keys[17]!.pubkey;
        const vault = creatorVaultAddress(creator);
        const pre = {
          user: lamports(ledger, user.publicKey),
          curve: lamports(ledger, curveAddress(mint)),
          fees: lamports(ledger, feeRecipient) + lamports(ledger, buyback),
          vault: lamports(ledger, vault),
        };
        const rec = send(ledger, user, ixs);
        expect(rec.err, rec.logs.join("\n")).toBeNull();
        const curveBefore = s.curve;
        const solCost =
          (big(amount) * big(curveBefore.virtualQuoteReserves)) /
            (big(curveBefore.virtualTokenReserves) - big(amount)) +
          1n;
        expect(tokenBalance(ledger, ata(mint, user.publicKey))).toBe(big(amount));
        expect(lamports(ledger, curveAddress(mint)) - pre.curve).toBe(solCost);
        const creatorFee = (solCost * 30n + 9_999n) / 10_000n;
        const rent0 = ledger.rentExemptMinimum(0);
        const topUp = pre.vault + creatorFee < rent0 ? rent0 - pre.vault - creatorFee : 0n;
        expect(lamports(ledger, vault) - pre.vault).toBe(creatorFee + topUp);
        expect(lamports(ledger, feeRecipient) + lamports(ledger, buyback) - pre.fees).toBe(
          big(cost) - solCost - creatorFee,
        );
        const rents =
          lamports(ledger, ata(mint, user.publicKey)) +
          lamports(ledger, userVolumeAccumulatorAddress(user.publicKey));
        expect(pre.user - lamports(ledger, user.publicKey)).toBe(big(cost) + topUp + rents + rec.fee);
      }),
      { numRuns: 25 },
    );
  });

  it("sell: the user receives exactly the SDK's quoted lamports", async () => {
    await fc.assert(
      fc.asyncProperty(fc.bigInt({ min: 1n, max: 1_000_000n }), async (permille) => {
        const { user, tokens } = await coinHolderOn(ledger, mint);
        const amount = (tokens * permille) / 1_000_000n || 1n;
        const s = sdkState(ledger, mint);
        const out = launchSdk.getSellSolAmountFromTokenAmount({ ...quoteArgs(s), amount: bn(amount) });
        const ixs = await PUMP_SDK.sellInstructions({
          global: s.global,
          bondingCurveAccountInfo: s.curveInfo,
          bondingCurve: s.curve,
          mint,
          user: user.publicKey,
          amount: bn(amount),
          solAmount: out,
          slippage: 0,
          tokenProgram: TOKEN_2022_PROGRAM_ID,
          mayhemMode: s.curve.isMayhemMode,
          cashback: s.curve.isCashbackCoin,
        });
        const pre = lamports(ledger, user.publicKey);
        const preCurve = lamports(ledger, curveAddress(mint));
        const rec = send(ledger, user, ixs);
        expect(rec.err, rec.logs.join("\n")).toBeNull();
        expect(lamports(ledger, user.publicKey) - pre).toBe(big(out) - rec.fee);
        expect(tokenBalance(ledger, ata(mint, user.publicKey))).toBe(tokens - amount);
        const solOut =
          (amount * big(s.curve.virtualQuoteReserves)) / (big(s.curve.virtualTokenReserves) + amount);
        expect(preCurve - lamports(ledger, curveAddress(mint))).toBe(solOut);
      }),
      { numRuns: 25 },
    );
  });

  it("buy_exact_sol_in built per reference A.1(b) follows the IDL formula B.1.3", async () => {
    const program = launchSdk.getPumpProgram(null as never);
    await fc.assert(
      fc.asyncProperty(fc.bigInt({ min: 10_000n, max: 2_000_000_000n }), async (spendable) => {
        const user = funded(ledger, 10n);
        const s = sdkState(ledger, mint);
        const vT = big(s.curve.virtualTokenReserves);
        const vS = big(s.curve.virtualQuoteReserves);
        const [p, c] = [95n, 30n];
        let net = (spendable * 10_000n) / (10_000n + p + c);
        const fees = (net * p + 9_999n) / 10_000n + (net * c + 9_999n) / 10_000n;
        if (net + fees > spendable) net -= net + fees - spendable;
        const expected = ((net - 1n) * vT) / (vS + net - 1n);
        const userAta = ata(mint, user.publicKey);
        const ix = await program.methods
          .buyExactSolIn(bn(spendable), bn(expected), { 0: true })
          .accountsPartial({
            feeRecipient: FEE_RECIPIENTS[3]!,
            mint,
            associatedUser: userAta,
            user: user.publicKey,
            creatorVault: creatorVaultAddress(creator),
            tokenProgram: TOKEN_2022_PROGRAM_ID,
          })
          .remainingAccounts([
            { pubkey: launchSdk.bondingCurveV2Pda(mint), isWritable: false, isSigner: false },
            { pubkey: BUYBACK_FEE_RECIPIENTS[5]!, isWritable: true, isSigner: false },
          ])
          .instruction();
        const createAta = (
          await import("@solana/spl-token")
        ).createAssociatedTokenAccountIdempotentInstruction(
          user.publicKey,
          userAta,
          user.publicKey,
          mint,
          TOKEN_2022_PROGRAM_ID,
        );
        const pre = lamports(ledger, user.publicKey);
        const preCurve = lamports(ledger, curveAddress(mint));
        const rec = send(ledger, user, [createAta, ix]);
        expect(rec.err, rec.logs.join("\n")).toBeNull();
        expect(tokenBalance(ledger, userAta)).toBe(expected);
        // Documented choice: the curve is credited net_sol and the user pays net_sol + fees(net_sol).
        expect(lamports(ledger, curveAddress(mint)) - preCurve).toBe(net);
        const charged = net + (net * p + 9_999n) / 10_000n + (net * c + 9_999n) / 10_000n;
        expect(charged).toBeLessThanOrEqual(spendable);
        const rents =
          lamports(ledger, userAta) + lamports(ledger, userVolumeAccumulatorAddress(user.publicKey));
        expect(pre - lamports(ledger, user.publicKey)).toBe(charged + rents + rec.fee);
      }),
      { numRuns: 20 },
    );
  });

  it("a slippage limit one unit too tight fails with the program's code and changes nothing", async () => {
    const { user, tokens } = await coinHolderOn(ledger, mint);
    const s = sdkState(ledger, mint);
    const amount = bn(tokens / 3n);
    const cost = launchSdk.getBuySolAmountFromTokenAmount({ ...quoteArgs(s), amount });
    const base = {
      user: user.publicKey,
      mint,
      creator,
      feeRecipient: FEE_RECIPIENTS[1]!,
      buybackFeeRecipient: BUYBACK_FEE_RECIPIENTS[2]!,
      tokenProgram: TOKEN_2022_PROGRAM_ID,
    };
    const buyIx = await PUMP_SDK.getBuyInstructionRaw({ ...base, amount, solAmount: cost.subn(1) });
    const out = launchSdk.getSellSolAmountFromTokenAmount({ ...quoteArgs(s), amount });
    const sellIx = await PUMP_SDK.getSellInstructionRaw({ ...base, amount, solAmount: out.addn(1) });
    for (const [ix, code] of [
      [buyIx, 6002],
      [sellIx, 6003],
    ] as const) {
      const before = snapshot(ledger, [ix]);
      const payerBefore = lamports(ledger, user.publicKey);
      const rec = send(ledger, user, [ix]);
      expectCustom(rec, 0, code);
      expect(rec.logs.some((l) => l.includes(`Error Number: ${code}`))).toBe(true);
      // Only the transaction fee leaves the payer; every other byte and lamport is unchanged.
      ledger.setAccount(user.publicKey, { ...ledger.getAccount(user.publicKey)!, lamports: payerBefore });
      expect(snapshot(ledger, [ix])).toEqual(before);
    }
    // And the exact limits pass.
    expect(
      send(ledger, user, [await PUMP_SDK.getBuyInstructionRaw({ ...base, amount, solAmount: cost })]).err,
    ).toBeNull();
  });
});

describe("cashback coins", () => {
  it("accrue the creator fee in the user's accumulator on buys and sells, and claim_cashback pays it", async () => {
    const ledger = newLedger(true);
    const { mint, creator, user, tokens } = await coinWithHolder(ledger, { cashback: true });
    const uvaKey = userVolumeAccumulatorAddress(user.publicKey);
    const uvaRent = ledger.rentExemptMinimum(137);
    const accrued = lamports(ledger, uvaKey) - uvaRent;
    expect(accrued).toBeGreaterThan(0n);
    expect(lamports(ledger, creatorVaultAddress(creator))).toBe(0n);
    const decodeUva = () => PUMP_SDK.decodeUserVolumeAccumulator(must(ledger, uvaKey));
    expect(big(decodeUva().cashbackEarned)).toBe(accrued);

    const s = sdkState(ledger, mint);
    const amount = bn(tokens / 2n);
    const out = launchSdk.getSellSolAmountFromTokenAmount({ ...quoteArgs(s), amount });
    const solOut =
      (big(amount) * big(s.curve.virtualQuoteReserves)) / (big(s.curve.virtualTokenReserves) + big(amount));
    const creatorFee = (solOut * 30n + 9_999n) / 10_000n;
    const sell = await PUMP_SDK.sellInstructions({
      global: s.global,
      bondingCurveAccountInfo: s.curveInfo,
      bondingCurve: s.curve,
      mint,
      user: user.publicKey,
      amount,
      solAmount: out,
      slippage: 0,
      tokenProgram: TOKEN_2022_PROGRAM_ID,
      mayhemMode: false,
      cashback: true,
    });
    const pre = lamports(ledger, user.publicKey);
    let rec = send(ledger, user, sell);
    expect(rec.err, rec.logs.join("\n")).toBeNull();
    expect(lamports(ledger, user.publicKey) - pre).toBe(big(out) - rec.fee);
    expect(lamports(ledger, uvaKey) - uvaRent).toBe(accrued + creatorFee);
    expect(big(decodeUva().cashbackEarned)).toBe(accrued + creatorFee);

    // claim_cashback is permissionless: someone else pays the fee, the user gets the lamports.
    const payer = funded(ledger, 1n);
    const before = lamports(ledger, user.publicKey);
    rec = send(ledger, payer, [await PUMP_SDK.claimCashbackInstruction({ user: user.publicKey })]);
    expect(rec.err, rec.logs.join("\n")).toBeNull();
    expect(lamports(ledger, user.publicKey) - before).toBe(accrued + creatorFee);
    expect(lamports(ledger, uvaKey)).toBe(uvaRent);
    expect(big(decodeUva().totalCashbackClaimed)).toBe(accrued + creatorFee);
  });
});
