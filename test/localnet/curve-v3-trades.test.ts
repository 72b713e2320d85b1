/**
 * Curve v3 trades on the 2026-10 localnet (TRADE_V3.md): the legacy prices and fee amounts, the
 * protocol fee (minus the buyback part, paid in the trade) and the creator fee kept on the curve, the
 * curve account grown to the current layout on its first new-style trade, events with the zero fee
 * recipient and `creator_fee_unclaimed`, and the refusals (cashback coins, missing accounts).
 */
import { Keypair, PublicKey } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import type { Ledger } from "../../localnet/ledger/index.js";
import { buildBuyIx } from "../../localnet/programs/launch/ix-builders.js";
import {
  createToken,
  creatorVaultAddress,
  curveAddress,
  CURVE_CURRENT_SIZE,
  FEE_RECIPIENTS,
  readBuckets,
} from "../../localnet/programs/launch/index.js";
import { ata, expectCustom, send, tokenBalance } from "./launch-fixture.js";
import { lamports } from "./ledger-views.js";
import {
  BUYBACK,
  createUserAta,
  curveV3Ix,
  eventsOf,
  lastU64,
  upgradeLedger,
  wallet,
} from "./upgrade-fixture.js";

const TX_FEE = 5_000n;

function coin(ledger: Ledger, opts: { cashback?: boolean } = {}) {
  const creator = Keypair.generate();
  return { ...createToken(ledger, { creator, ...opts }), creator: creator.publicKey };
}

function trade(logs: string[]) {
  const e = eventsOf(logs).find((x) => x.name === "tradeEvent" || x.name === "TradeEvent");
  if (!e) throw new Error(`no TradeEvent in\n${logs.join("\n")}`);
  return e;
}

const pick = (d: Record<string, unknown>) =>
  Object.fromEntries(
    [
      "solAmount",
      "tokenAmount",
      "fee",
      "creatorFee",
      "buybackFee",
      "virtualTokenReserves",
      "realSolReserves",
    ].map((k) => [k, String(d[k])]),
  );

describe("curve v3 trades (2026-10)", () => {
  it("buy_v3 charges what a legacy buy charges and keeps the fees on the curve", () => {
    const ledger = upgradeLedger();
    const a = coin(ledger);
    const b = coin(ledger);
    const amount = 20_000_000_000_000n;
    const max = 10_000_000_000n;
    const legacyUser = wallet(ledger);
    const legacy = send(ledger, legacyUser, [
      createUserAta(a.mint, legacyUser.publicKey),
      buildBuyIx({
        mint: a.mint,
        user: legacyUser.publicKey,
        creator: a.creator,
        feeRecipient: FEE_RECIPIENTS[0]!,
        amount,
        limit: max,
      }),
    ]);
    expect(legacy.err, legacy.logs.join("\n")).toBeNull();

    const user = wallet(ledger);
    const curve = curveAddress(b.mint);
    expect(ledger.getAccount(curve)!.data.length).toBe(151);
    const before = {
      user: lamports(ledger, user.publicKey),
      curve: lamports(ledger, curve),
      buyback: lamports(ledger, BUYBACK),
      vault: lamports(ledger, creatorVaultAddress(b.creator)),
    };
    const rec = send(ledger, user, [
      createUserAta(b.mint, user.publicKey),
      curveV3Ix("buy_v3", b.mint, user.publicKey, { amount, max_sol_cost: max, partial_fill: null }),
    ]);
    expect(rec.err, rec.logs.join("\n")).toBeNull();
    const ev = trade(rec.logs);
    expect(pick(ev.data)).toEqual(pick(trade(legacy.logs).data));
    expect(ev.data.ixName).toBe("buy_v3");
    expect((ev.data.feeRecipient as PublicKey).equals(PublicKey.default)).toBe(true);

    const fee = BigInt(String(ev.data.fee));
    const creatorFee = BigInt(String(ev.data.creatorFee));
    const buyback = BigInt(String(ev.data.buybackFee));
    expect(creatorFee).toBeGreaterThan(0n);
    expect(buyback).toBeGreaterThan(0n);
    // The account grew to the current layout; the trader paid the rent difference.
    const data = ledger.getAccount(curve)!.data;
    expect(data.length).toBe(CURVE_CURRENT_SIZE);
    const growth = ledger.rentExemptMinimum(CURVE_CURRENT_SIZE) - ledger.rentExemptMinimum(151);
    const buckets = readBuckets(data);
    expect(buckets.protocolFees).toBe(fee - buyback);
    expect(buckets.creatorFee).toBe(creatorFee);
    expect(lastU64(ev.raw)).toBe(creatorFee);
    const solAmount = BigInt(String(ev.data.solAmount));
    expect(lamports(ledger, curve) - before.curve).toBe(solAmount + fee - buyback + creatorFee + growth);
    expect(lamports(ledger, BUYBACK) - before.buyback).toBe(buyback);
    expect(lamports(ledger, creatorVaultAddress(b.creator))).toBe(before.vault);
    expect(tokenBalance(ledger, ata(b.mint, user.publicKey))).toBe(amount);
    const ataRent = lamports(ledger, ata(b.mint, user.publicKey));
    const uvaRent = ledger.rentExemptMinimum(137);
    expect(before.user - lamports(ledger, user.publicKey)).toBe(
      solAmount + fee + creatorFee + growth + ataRent + uvaRent + TX_FEE,
    );
  });

  it("buy_exact_quote_in_v3 and sell_v3 match buy_exact_sol_in and sell; the curve pays only net and buyback", () => {
    const ledger = upgradeLedger();
    const a = coin(ledger);
    const b = coin(ledger);
    const spend = 1_500_000_000n;
    const legacyUser = wallet(ledger);
    const legacy = send(ledger, legacyUser, [
      createUserAta(a.mint, legacyUser.publicKey),
      buildBuyIx({
        mint: a.mint,
        user: legacyUser.publicKey,
        creator: a.creator,
        feeRecipient: FEE_RECIPIENTS[1]!,
        amount: spend,
        limit: 1n,
        exactSolIn: true,
      }),
    ]);
    expect(legacy.err, legacy.logs.join("\n")).toBeNull();
    const user = wallet(ledger);
    const buy = send(ledger, user, [
      createUserAta(b.mint, user.publicKey),
      curveV3Ix("buy_exact_quote_in_v3", b.mint, user.publicKey, {
        spendable_quote_in: spend,
        min_tokens_out: 1n,
      }),
    ]);
    expect(buy.err, buy.logs.join("\n")).toBeNull();
    expect(pick(trade(buy.logs).data)).toEqual(pick(trade(legacy.logs).data));
    expect(trade(buy.logs).data.ixName).toBe("buy_exact_quote_in_v3");

    const held = tokenBalance(ledger, ata(b.mint, user.publicKey));
    const curve = curveAddress(b.mint);
    const kept = readBuckets(ledger.getAccount(curve)!.data);
    const before = {
      user: lamports(ledger, user.publicKey),
      curve: lamports(ledger, curve),
      buyback: lamports(ledger, BUYBACK),
    };
    const sell = send(ledger, user, [
      curveV3Ix("sell_v3", b.mint, user.publicKey, { amount: held / 2n, min_sol_output: 1n }),
    ]);
    expect(sell.err, sell.logs.join("\n")).toBeNull();
    const ev = trade(sell.logs);
    expect(ev.data.ixName).toBe("sell_v3");
    expect(ev.data.isBuy).toBe(false);
    const solOut = BigInt(String(ev.data.solAmount));
    const fee = BigInt(String(ev.data.fee));
    const creatorFee = BigInt(String(ev.data.creatorFee));
    const buyback = BigInt(String(ev.data.buybackFee));
    const net = solOut - fee - creatorFee;
    expect(lamports(ledger, user.publicKey) - before.user).toBe(net - TX_FEE);
    expect(before.curve - lamports(ledger, curve)).toBe(net + buyback);
    expect(lamports(ledger, BUYBACK) - before.buyback).toBe(buyback);
    const after = readBuckets(ledger.getAccount(curve)!.data);
    expect(after.protocolFees - kept.protocolFees).toBe(fee - buyback);
    expect(after.creatorFee - kept.creatorFee).toBe(creatorFee);
    expect(lastU64(ev.raw)).toBe(after.creatorFee);
  });

  it("refuses cashback coins (6094), a missing user token account and a foreign buyback recipient", () => {
    const ledger = upgradeLedger();
    const user = wallet(ledger);
    const cash = coin(ledger, { cashback: true });
    const args = { amount: 1_000_000n, max_sol_cost: 1_000_000_000n, partial_fill: null };
    const refused = send(ledger, user, [
      createUserAta(cash.mint, user.publicKey),
      curveV3Ix("buy_v3", cash.mint, user.publicKey, args),
    ]);
    expectCustom(refused, 1, 6094);
    const plain = coin(ledger);
    const noAta = send(ledger, user, [curveV3Ix("buy_v3", plain.mint, user.publicKey, args)]);
    expectCustom(noAta, 0, 3012);
    const ix = curveV3Ix("buy_v3", plain.mint, user.publicKey, args);
    ix.keys[13] = { pubkey: PublicKey.unique(), isSigner: false, isWritable: true };
    expectCustom(send(ledger, user, [createUserAta(plain.mint, user.publicKey), ix]), 1, 6057);
    // Nothing moved: the curve is still the 151-byte account create_v2 made.
    expect(ledger.getAccount(curveAddress(plain.mint))!.data.length).toBe(151);
  });
});
