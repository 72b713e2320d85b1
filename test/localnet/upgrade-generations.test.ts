/**
 * The same signed transactions on both generations: on 2026-09 the October 2026 instructions fail
 * InstructionFallbackNotFound (101) as the earlier program answers an unknown discriminator, and
 * nothing moves; on 2026-10 they land.
 */
import { Keypair } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { completeCurve, createToken } from "../../localnet/programs/launch/index.js";
import { migrateCurve } from "../../localnet/programs/launchswap/admin.js";
import { expectCustom, send, snapshot } from "./launch-fixture.js";
import {
  createUserAta,
  curveSweepIx,
  curveV3Ix,
  poolSweepIx,
  upgradeLedger,
  wallet,
} from "./upgrade-fixture.js";

describe("one transaction, two generations", () => {
  for (const generation of ["2026-09", "2026-10"] as const) {
    it(`${generation}: curve v3 buy, curve sweep, pool sweep`, () => {
      const ledger = upgradeLedger(generation);
      const { mint } = createToken(ledger, { creator: Keypair.generate() });
      const user = wallet(ledger);
      const buy = curveV3Ix("buy_v3", mint, user.publicKey, {
        amount: 1_000_000n,
        max_sol_cost: 1_000_000_000n,
      });
      // Every account the buy names but the fee payer (which pays the fee of a failed transaction too).
      const touched = [{ ...buy, keys: buy.keys.filter((k) => !k.pubkey.equals(user.publicKey)) }];
      const before = snapshot(ledger, touched);
      const rec = send(ledger, user, [createUserAta(mint, user.publicKey), buy]);
      const sweep = send(ledger, user, [curveSweepIx(ledger, "protocol", mint, user.publicKey)]);
      const other = createToken(ledger, { creator: Keypair.generate() });
      completeCurve(ledger, other.mint);
      const { pool } = migrateCurve(ledger, other.mint);
      const poolSweep = send(ledger, user, [poolSweepIx(ledger, "creator", pool, user.publicKey)]);
      if (generation === "2026-09") {
        expectCustom(rec, 1, 101);
        expect(rec.logs.join("\n")).toContain("InstructionFallbackNotFound");
        expect(snapshot(ledger, touched)).toEqual(before);
        expectCustom(sweep, 0, 101);
        expectCustom(poolSweep, 0, 101);
      } else {
        for (const r of [rec, sweep, poolSweep]) expect(r.err, r.logs.join("\n")).toBeNull();
      }
    });
  }
});
