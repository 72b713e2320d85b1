/**
 * Synthetic migration end to end on the 2026-10 localnet (SYNTHETIC_MIGRATION.md): a v3 buy past what
 * the curve has left completes it and continues at the would-be pool's price (TradeEvent,
 * CompleteEvent, PostCompleteBuyEvent; the buyer's balances move by exactly the events' amounts),
 * every curve trade then fails BondingCurveComplete (6005) until migrate_v2 opens the pool on the
 * reserves the buy left behind, and the pool trades. Legacy buys past the end still fail 6021.
 */
import { Keypair } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import type { Ledger } from "../../localnet/ledger/index.js";
import {
  completeCurve,
  createToken,
  curveAddress,
  curveTokenAccount,
  FEE_RECIPIENTS,
  readBuckets,
  readCurve,
  readGlobal,
} from "../../localnet/programs/launch/index.js";
import { buildBuyIx } from "../../localnet/programs/launch/ix-builders.js";
import { migrateV2Instruction } from "../../localnet/programs/launchswap/migrate-v2.js";
import { ata, expectCustom, send, tokenBalance } from "./launch-fixture.js";
import { lamports } from "./ledger-views.js";
import {
  createUserAta,
  curveSweepIx,
  curveV3Ix,
  eventsOf,
  poolOf,
  upgradeLedger,
  wallet,
} from "./upgrade-fixture.js";

const TX_FEE = 5_000n;
const n = (v: unknown) => BigInt(String(v));

/** Runs migrate_v2 signed by a fresh wallet; returns the pool. */
function migrateV2(ledger: Ledger, mint: Keypair["publicKey"]) {
  const user = wallet(ledger, 10n);
  const rec = send(ledger, user, [
    migrateV2Instruction(mint, user.publicKey, readGlobal(ledger).withdrawAuthority),
  ]);
  expect(rec.err, rec.logs.join("\n")).toBeNull();
  const ev = eventsOf(rec.logs).find(
    (e) => e.name === "completePumpAmmMigrationEvent" || e.name === "CompletePumpAmmMigrationEvent",
  );
  return { rec, pool: ev!.data.pool as Keypair["publicKey"] };
}

describe("synthetic migration (2026-10)", () => {
  it("buy_v3 past the end: three events, balances equal to their amounts, 6005 until migrate_v2, then the pool", () => {
    const ledger = upgradeLedger();
    const { mint } = createToken(ledger, { creator: Keypair.generate() });
    const curve = curveAddress(mint);
    const remaining = readCurve(ledger, mint)!.realTokenReserves;
    const curveTokensBefore = tokenBalance(ledger, curveTokenAccount(mint));
    const extra = 50_000_000_000_000n;
    const user = wallet(ledger, 1_000n);
    const userBefore = lamports(ledger, user.publicKey);
    const rec = send(ledger, user, [
      createUserAta(mint, user.publicKey),
      curveV3Ix("buy_v3", mint, user.publicKey, {
        amount: remaining + extra,
        max_sol_cost: 500_000_000_000n,
      }),
    ]);
    expect(rec.err, rec.logs.join("\n")).toBeNull();
    const events = eventsOf(rec.logs);
    expect(events.map((e) => e.name.toLowerCase())).toEqual([
      "tradeevent",
      "completeevent",
      "postcompletebuyevent",
    ]);
    const [t, , p] = events.map((e) => e.data) as Record<string, unknown>[];
    expect(n(t!.tokenAmount)).toBe(remaining);
    expect(n(p!.baseOut)).toBe(extra);
    // The buyer got both parts and paid both parts' amounts and fees (plus its account rents).
    expect(tokenBalance(ledger, ata(mint, user.publicKey))).toBe(n(t!.tokenAmount) + n(p!.baseOut));
    const paid =
      n(t!.solAmount) + n(t!.fee) + n(t!.creatorFee) + n(p!.quoteIn) + n(p!.fee) + n(p!.creatorFee);
    const rents =
      lamports(ledger, ata(mint, user.publicKey)) +
      ledger.rentExemptMinimum(137) +
      ledger.rentExemptMinimum(166) -
      ledger.rentExemptMinimum(151);
    expect(userBefore - lamports(ledger, user.publicKey)).toBe(paid + rents + TX_FEE);
    // The pool part was priced on the would-be pool: the curve's leftover tokens and quote minus the migration fee.
    const global = readGlobal(ledger);
    expect(n(p!.poolBaseReservesBefore)).toBe(curveTokensBefore - remaining);
    expect(n(p!.poolQuoteReservesBefore)).toBe(n(t!.realSolReserves) - global.poolMigrationFee);
    const quoteIn = n(p!.quoteIn);
    const base = n(p!.poolBaseReservesBefore);
    expect(quoteIn).toBe((n(p!.poolQuoteReservesBefore) * extra + base - extra - 1n) / (base - extra));
    expect(n(p!.poolBaseReservesAfter)).toBe(base - extra);
    expect(n(p!.poolQuoteReservesAfter)).toBe(n(p!.poolQuoteReservesBefore) + quoteIn);
    const buckets = readBuckets(ledger.getAccount(curve)!.data);
    expect([buckets.postCompleteBaseOut, buckets.postCompleteQuoteIn]).toEqual([extra, quoteIn]);
    expect(buckets.creatorFee).toBe(n(t!.creatorFee) + n(p!.creatorFee));
    expect(readCurve(ledger, mint)!.complete).toBe(true);

    // The window: every curve trade fails BondingCurveComplete.
    const other = wallet(ledger);
    const small = { amount: 1_000_000n, max_sol_cost: 1_000_000_000n };
    expectCustom(
      send(ledger, other, [
        createUserAta(mint, other.publicKey),
        curveV3Ix("buy_v3", mint, other.publicKey, small),
      ]),
      1,
      6005,
    );
    expectCustom(
      send(ledger, user, [
        curveV3Ix("sell_v3", mint, user.publicKey, { amount: 1_000_000n, min_sol_output: 0n }),
      ]),
      0,
      6005,
    );
    const legacy = buildBuyIx({
      mint,
      user: other.publicKey,
      creator: Keypair.generate().publicKey,
      feeRecipient: FEE_RECIPIENTS[0]!,
      amount: 1_000_000n,
      limit: 1_000_000_000n,
    });
    expect(send(ledger, other, [createUserAta(mint, other.publicKey), legacy]).err).not.toBeNull();

    // migrate_v2 opens the pool exactly where the buy stopped; the kept fees stay on the curve.
    const withdrawBefore = lamports(ledger, global.withdrawAuthority);
    const curveLamportsBefore = lamports(ledger, curve);
    const { pool } = migrateV2(ledger, mint);
    const state = poolOf(ledger, pool);
    expect(tokenBalance(ledger, state.pool_base_token_account)).toBe(n(p!.poolBaseReservesAfter));
    expect(tokenBalance(ledger, state.pool_quote_token_account)).toBe(n(p!.poolQuoteReservesAfter));
    expect(lamports(ledger, global.withdrawAuthority) - withdrawBefore).toBe(global.poolMigrationFee);
    expect(curveLamportsBefore - lamports(ledger, curve)).toBe(
      n(p!.poolQuoteReservesAfter) + global.poolMigrationFee,
    );
    const keptAfter = readBuckets(ledger.getAccount(curve)!.data);
    expect([keptAfter.protocolFees, keptAfter.creatorFee]).toEqual([
      buckets.protocolFees,
      buckets.creatorFee,
    ]);
    // The sweeps still pay the kept fees out after the migration (it moved the reserves, not the fees).
    const payer = wallet(ledger, 1n);
    const sweep = send(ledger, payer, [
      curveSweepIx(ledger, "protocol", mint, payer.publicKey),
      curveSweepIx(ledger, "creator", mint, payer.publicKey),
    ]);
    expect(sweep.err, sweep.logs.join("\n")).toBeNull();
    expect(eventsOf(sweep.logs).map((e) => e.data.amount)).toEqual([
      buckets.protocolFees,
      buckets.creatorFee,
    ]);
  });

  it("buy_exact_quote_in_v3 past the end spends the budget in both parts", () => {
    const ledger = upgradeLedger();
    const { mint } = createToken(ledger, { creator: Keypair.generate() });
    const user = wallet(ledger, 1_000n);
    const spend = 120_000_000_000n;
    const before = lamports(ledger, user.publicKey);
    const rec = send(ledger, user, [
      createUserAta(mint, user.publicKey),
      curveV3Ix("buy_exact_quote_in_v3", mint, user.publicKey, {
        spendable_quote_in: spend,
        min_tokens_out: 1n,
      }),
    ]);
    expect(rec.err, rec.logs.join("\n")).toBeNull();
    const [t, , p] = eventsOf(rec.logs).map((e) => e.data) as Record<string, unknown>[];
    const paid =
      n(t!.solAmount) + n(t!.fee) + n(t!.creatorFee) + n(p!.quoteIn) + n(p!.fee) + n(p!.creatorFee);
    expect(paid).toBeLessThanOrEqual(spend);
    expect(spend - paid).toBeLessThan(10n);
    const rents =
      lamports(ledger, ata(mint, user.publicKey)) +
      ledger.rentExemptMinimum(137) +
      ledger.rentExemptMinimum(166) -
      ledger.rentExemptMinimum(151);
    expect(before - lamports(ledger, user.publicKey)).toBe(paid + rents + TX_FEE);
    expect(tokenBalance(ledger, ata(mint, user.publicKey))).toBe(n(t!.tokenAmount) + n(p!.baseOut));
    // min_tokens_out covers both parts.
    const again = upgradeLedger();
    const c2 = createToken(again, { creator: Keypair.generate() });
    const u2 = wallet(again, 1_000n);
    const tooMany = n(t!.tokenAmount) + n(p!.baseOut) + 1n;
    expectCustom(
      send(again, u2, [
        createUserAta(c2.mint, u2.publicKey),
        curveV3Ix("buy_exact_quote_in_v3", c2.mint, u2.publicKey, {
          spendable_quote_in: spend,
          min_tokens_out: tooMany,
        }),
      ]),
      1,
      6042,
    );
  });

  for (const generation of ["2026-09", "2026-10"] as const) {
    it(`${generation}: legacy buys past the end fail 6021; migrate_v2 migrates a curve completed by legacy buys`, () => {
      const ledger = upgradeLedger(generation);
      const { mint } = createToken(ledger, { creator: Keypair.generate() });
      const user = wallet(ledger, 1_000n);
      const remaining = readCurve(ledger, mint)!.realTokenReserves;
      const past = buildBuyIx({
        mint,
        user: user.publicKey,
        creator: readCurve(ledger, mint)!.creator,
        feeRecipient: FEE_RECIPIENTS[0]!,
        amount: remaining + 1n,
        limit: 500_000_000_000n,
      });
      expectCustom(send(ledger, user, [createUserAta(mint, user.publicKey), past]), 1, 6021);
      completeCurve(ledger, mint);
      const curveRaised = readCurve(ledger, mint)!.realQuoteReserves;
      const { pool } = migrateV2(ledger, mint);
      const state = poolOf(ledger, pool);
      expect(tokenBalance(ledger, state.pool_quote_token_account)).toBe(
        curveRaised - readGlobal(ledger).poolMigrationFee,
      );
    });
  }
});
