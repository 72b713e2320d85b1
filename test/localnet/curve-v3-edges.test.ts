/**
 * Edges of the v3 curve trades on the 2026-10 localnet: account sizes (a 256-byte curve keeps its size,
 * a 125-byte one grows to 166 on its first v3 trade) and mayhem coins, which get no synthetic migration
 * (6021, or with partial_fill only what is left).
 */
import { NATIVE_MINT } from "@solana/spl-token";
import { Keypair } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { createToken, curveAddress, readBuckets, readCurve } from "../../localnet/programs/launch/index.js";
import { ata, expectCustom, send, tokenBalance } from "./launch-fixture.js";
import {
  createUserAta,
  curveV3Ix,
  curveV3Keys,
  eventsOf,
  fixtureIx,
  upgradeLedger,
  wallet,
} from "./upgrade-fixture.js";

describe("v3 curve trades: sizes and mayhem coins (2026-10)", () => {
  for (const [size, after] of [
    [125, 166],
    [256, 256],
  ] as const) {
    it(`a ${size}-byte curve is ${after} bytes after a v3 buy, its fields read as before`, () => {
      const ledger = upgradeLedger();
      const { mint } = createToken(ledger, { creator: Keypair.generate() });
      const curve = curveAddress(mint);
      const acc = ledger.getAccount(curve)!;
      const data = new Uint8Array(size);
      data.set(acc.data.subarray(0, Math.min(size, acc.data.length)));
      ledger.setAccount(curve, { ...acc, lamports: ledger.rentExemptMinimum(size), data });
      const before = readCurve(ledger, mint)!;
      const user = wallet(ledger);
      const rec = send(ledger, user, [
        createUserAta(mint, user.publicKey),
        curveV3Ix("buy_v3", mint, user.publicKey, {
          amount: 1_000_000_000_000n,
          max_sol_cost: 1_000_000_000n,
        }),
      ]);
      expect(rec.err, rec.logs.join("\n")).toBeNull();
      expect(ledger.getAccount(curve)!.data.length).toBe(after);
      const now = readCurve(ledger, mint)!;
      expect(now.creator.equals(before.creator)).toBe(true);
      expect(before.realTokenReserves - now.realTokenReserves).toBe(1_000_000_000_000n);
      expect(readBuckets(ledger.getAccount(curve)!.data).creatorFee).toBeGreaterThan(0n);
    });
  }

  it("a SOL-paired v3 buy ignores associated_quote_user (IDL: validated for token quotes only)", () => {
    const ledger = upgradeLedger();
    const { mint } = createToken(ledger, { creator: Keypair.generate() });
    const user = wallet(ledger);
    const keys = { ...curveV3Keys(mint, user.publicKey), associated_quote_user: NATIVE_MINT };
    const rec = send(ledger, user, [
      createUserAta(mint, user.publicKey),
      fixtureIx("launch", "buy_v3", keys, { amount: 1_000_000n, max_sol_cost: 1_000_000_000n }),
    ]);
    expect(rec.err, rec.logs.join("\n")).toBeNull();
    expect(tokenBalance(ledger, ata(mint, user.publicKey))).toBe(1_000_000n);
  });

  it("mayhem coins: past the end fails 6021; with partial_fill it buys what is left and completes", () => {
    const ledger = upgradeLedger();
    const { mint } = createToken(ledger, { creator: Keypair.generate(), mayhem: true });
    const remaining = readCurve(ledger, mint)!.realTokenReserves;
    const user = wallet(ledger, 1_000n);
    const args = { amount: remaining + 1_000_000n, max_sol_cost: 500_000_000_000n };
    expectCustom(
      send(ledger, user, [
        createUserAta(mint, user.publicKey),
        curveV3Ix("buy_v3", mint, user.publicKey, { ...args, partial_fill: false }),
      ]),
      1,
      6021,
    );
    const rec = send(ledger, user, [
      createUserAta(mint, user.publicKey),
      curveV3Ix("buy_v3", mint, user.publicKey, { ...args, partial_fill: true }),
    ]);
    expect(rec.err, rec.logs.join("\n")).toBeNull();
    expect(eventsOf(rec.logs).map((e) => e.name.toLowerCase())).toEqual(["tradeevent", "completeevent"]);
    expect(tokenBalance(ledger, ata(mint, user.publicKey))).toBe(remaining);
    expect(readCurve(ledger, mint)!.complete).toBe(true);
  });
});
