/**
 * Fees held then swept on the curve (SWEEP_FEES.md): v3 trades keep the protocol and creator fee on
 * the curve; the permissionless sweeps pay them to a fee recipient and the creator vault, empty the
 * buckets and log SweepBondingCurveFeeEvent; an empty bucket sweeps to nothing; wrong recipients fail.
 */
import { Keypair } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import {
  createToken,
  creatorVaultAddress,
  curveAddress,
  FEE_RECIPIENTS,
  readBuckets,
} from "../../localnet/programs/launch/index.js";
import { expectCustom, send } from "./launch-fixture.js";
import { lamports } from "./ledger-views.js";
import {
  createUserAta,
  curveSweepIx,
  curveV3Ix,
  eventsOf,
  upgradeLedger,
  wallet,
} from "./upgrade-fixture.js";

const TX_FEE = 5_000n;

describe("curve fee sweeps (2026-10)", () => {
  it("pays the kept fees out once, to where a legacy trade would have paid them", () => {
    const ledger = upgradeLedger();
    const creator = Keypair.generate();
    const { mint } = createToken(ledger, { creator });
    const user = wallet(ledger);
    const buy = send(ledger, user, [
      createUserAta(mint, user.publicKey),
      curveV3Ix("buy_v3", mint, user.publicKey, {
        amount: 30_000_000_000_000n,
        max_sol_cost: 10_000_000_000n,
      }),
    ]);
    expect(buy.err, buy.logs.join("\n")).toBeNull();
    const curve = curveAddress(mint);
    const kept = readBuckets(ledger.getAccount(curve)!.data);
    expect(kept.protocolFees).toBeGreaterThan(0n);
    expect(kept.creatorFee).toBeGreaterThan(0n);

    const payer = wallet(ledger, 1n);
    const vault = creatorVaultAddress(creator.publicKey);
    const before = {
      curve: lamports(ledger, curve),
      recipient: lamports(ledger, FEE_RECIPIENTS[0]!),
      vault: lamports(ledger, vault),
      payer: lamports(ledger, payer.publicKey),
    };
    const sweep = send(ledger, payer, [
      curveSweepIx(ledger, "protocol", mint, payer.publicKey),
      curveSweepIx(ledger, "creator", mint, payer.publicKey),
    ]);
    expect(sweep.err, sweep.logs.join("\n")).toBeNull();
    expect(lamports(ledger, FEE_RECIPIENTS[0]!) - before.recipient).toBe(kept.protocolFees);
    // The vault was empty: the payer topped it up to rent-exempt.
    const rent = ledger.rentExemptMinimum(0);
    const topUp = before.vault + kept.creatorFee < rent ? rent - before.vault - kept.creatorFee : 0n;
    expect(lamports(ledger, vault) - before.vault).toBe(kept.creatorFee + topUp);
    expect(before.curve - lamports(ledger, curve)).toBe(kept.protocolFees + kept.creatorFee);
    expect(before.payer - lamports(ledger, payer.publicKey)).toBe(TX_FEE + topUp);
    const after = readBuckets(ledger.getAccount(curve)!.data);
    expect([after.protocolFees, after.creatorFee]).toEqual([0n, 0n]);
    const events = eventsOf(sweep.logs).filter((e) => e.name === "SweepBondingCurveFeeEvent");
    expect(events.map((e) => [e.data.amount, e.data.bucket, String(e.data.recipient)])).toEqual([
      [kept.protocolFees, 0, FEE_RECIPIENTS[0]!.toBase58()],
      [kept.creatorFee, 1, vault.toBase58()],
    ]);

    // Nothing waiting: a second sweep succeeds and moves nothing.
    const again = send(ledger, payer, [curveSweepIx(ledger, "protocol", mint, payer.publicKey)]);
    expect(again.err).toBeNull();
    expect(eventsOf(again.logs).filter((e) => e.name === "SweepBondingCurveFeeEvent")).toEqual([]);
    expect(lamports(ledger, FEE_RECIPIENTS[0]!) - before.recipient).toBe(kept.protocolFees);
  });

  it("refuses a protocol recipient outside Global's list and a creator recipient that is not the vault", () => {
    const ledger = upgradeLedger();
    const { mint } = createToken(ledger, { creator: Keypair.generate() });
    const payer = wallet(ledger, 1n);
    const stranger = Keypair.generate().publicKey;
    expectCustom(
      send(ledger, payer, [curveSweepIx(ledger, "protocol", mint, payer.publicKey, stranger)]),
      0,
      6000,
    );
    expectCustom(
      send(ledger, payer, [curveSweepIx(ledger, "creator", mint, payer.publicKey, stranger)]),
      0,
      2006,
    );
  });

  it("legacy 125-byte curves grow on their first sweep, the payer paying the rent difference", () => {
    const ledger = upgradeLedger();
    const { mint } = createToken(ledger, { creator: Keypair.generate() });
    const curve = curveAddress(mint);
    const acc = ledger.getAccount(curve)!;
    ledger.setAccount(curve, { ...acc, data: acc.data.subarray(0, 125) });
    const payer = wallet(ledger, 1n);
    const before = lamports(ledger, payer.publicKey);
    const rec = send(ledger, payer, [curveSweepIx(ledger, "protocol", mint, payer.publicKey)]);
    expect(rec.err, rec.logs.join("\n")).toBeNull();
    expect(ledger.getAccount(curve)!.data.length).toBe(166);
    const diff = ledger.rentExemptMinimum(166) - ledger.rentExemptMinimum(125);
    expect(before - lamports(ledger, payer.publicKey)).toBe(TX_FEE + diff);
  });
});
