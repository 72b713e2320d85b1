/**
 * buildCurveBuyExactSolIn keeps the account list Anchor resolved for a set of accounts and encodes the amounts
 * with the IDL's coder on later builds: those builds must equal Anchor's own, for every amount, and a change
 * of any account (fee recipient, user, mint) must resolve again.
 */
import { describe, expect, it } from "vitest";
import BN from "bn.js";
import { PublicKey, type TransactionInstruction } from "@solana/web3.js";
import { TOKEN_2022_PROGRAM_ID } from "@solana/spl-token";
import { launchProgram } from "../../../src/launch/programs-offline.js";
import {
  associatedTokenAddress,
  bondingCurveV2Address,
  creatorVaultAddress,
} from "../../../src/launch/programs.js";
import type { LaunchGlobal } from "../../../src/launch/state.js";
import { buildCurveBuyExactSolIn, curveBuyMemoSize } from "../../../src/launch/trade-instructions.js";
import { key } from "../../helpers/fixtures.js";

const Z = PublicKey.default;
const FEES = [key(40), key(41)];
const BUYBACKS = [key(60), key(61)];
const global = {
  feeRecipient: FEES[0],
  feeRecipients: [FEES[1], ...Array<PublicKey>(6).fill(Z)],
  reservedFeeRecipients: Array<PublicKey>(7).fill(Z),
  buybackFeeRecipients: [...BUYBACKS, ...Array<PublicKey>(6).fill(Z)],
} as unknown as LaunchGlobal; // only the recipient lists matter to the builder

/** The instruction as Anchor's methods builder makes it (no memo), with the same random picks. */
async function anchorBuild(
  user: PublicKey,
  mint: PublicKey,
  pick: number,
  spend: bigint,
  min: bigint,
): Promise<TransactionInstruction> {
  return launchProgram.methods
    .buyExactSolIn(new BN(spend.toString()), new BN(min.toString()), { 0: true })
    .accountsPartial({
      feeRecipient: FEES[pick]!,
      mint,
      associatedUser: associatedTokenAddress(user, mint, TOKEN_2022_PROGRAM_ID),
      user,
      creatorVault: creatorVaultAddress(key(2)),
      tokenProgram: TOKEN_2022_PROGRAM_ID,
    })
    .remainingAccounts([
      { pubkey: bondingCurveV2Address(mint), isWritable: false, isSigner: false },
      { pubkey: BUYBACKS[pick]!, isWritable: true, isSigner: false },
    ])
    .instruction();
}

describe("curve buy account memo", () => {
  it("later builds of the same accounts equal Anchor's build, whatever the amounts and accounts", async () => {
    const cases: [PublicKey, PublicKey, number, bigint, bigint][] = [
      [key(1), key(3), 0, 1_000_000_000n, 1n],
      [key(1), key(3), 0, 5n, 4n], // same accounts: memoized list, new amounts
      [key(1), key(3), 0, 2n ** 64n - 1n, 2n ** 63n],
      [key(1), key(3), 1, 7n, 6n], // another fee and buyback recipient
      [key(7), key(3), 0, 7n, 6n], // another user
      [key(1), key(8), 0, 7n, 6n], // another mint
      [key(1), key(3), 0, 9n, 8n],
      [key(1), key(3), 0, 0n, 0n], // the data written directly (not by the coder): the u64 bounds
      [key(1), key(3), 0, 2n ** 64n - 1n, 2n ** 64n - 1n],
      [key(1), key(3), 0, -1n, 5n], // outside u64: the coder's own encoding, whatever it makes of it
    ];
    for (const [user, mint, pick, spend, min] of cases) {
      const [ours] = await buildCurveBuyExactSolIn({
        global,
        curve: { creator: key(2), isMayhemMode: false },
        mint,
        user,
        tokenProgram: TOKEN_2022_PROGRAM_ID,
        random: () => pick / 2, // index `pick` of both two-key lists
        spendableLamports: spend,
        minTokensOut: min,
        createAta: false,
      });
      const expected = await anchorBuild(user, mint, pick, spend, min);
      expect(ours!.programId.equals(expected.programId)).toBe(true);
      expect(ours!.data.toString("hex")).toBe(expected.data.toString("hex"));
      expect(ours!.keys).toEqual(expected.keys);
    }
  });

  it("keeps one entry per wallet and mint whatever recipients a trade picks (the memo's bound, issue 18)", async () => {
    const before = curveBuyMemoSize();
    // Fee pick × buyback pick: the random source is called once per list, fee recipient first.
    for (const [fee, buyback] of [
      [0, 0],
      [0, 1],
      [1, 0],
      [1, 1],
    ] as const) {
      const picks = [fee / 2, buyback / 2];
      const [ours] = await buildCurveBuyExactSolIn({
        global,
        curve: { creator: key(2), isMayhemMode: false },
        mint: key(9),
        user: key(10),
        tokenProgram: TOKEN_2022_PROGRAM_ID,
        random: () => picks.shift()!,
        spendableLamports: 3n,
        minTokensOut: 2n,
        createAta: false,
      });
      const keys = ours!.keys.map((k) => k.pubkey.toBase58());
      expect(keys).toContain(FEES[fee]!.toBase58());
      expect(keys).toContain(BUYBACKS[buyback]!.toBase58());
      expect(keys).not.toContain(FEES[1 - fee]!.toBase58());
      expect(keys).not.toContain(BUYBACKS[1 - buyback]!.toBase58());
    }
    expect(curveBuyMemoSize()).toBe(before + 1);
  });

  it("refuses an amount past u64 as Anchor's coder does", async () => {
    const build = (spend: bigint) =>
      buildCurveBuyExactSolIn({
        global,
        curve: { creator: key(2), isMayhemMode: false },
        mint: key(3),
        user: key(1),
        tokenProgram: TOKEN_2022_PROGRAM_ID,
        random: () => 0,
        spendableLamports: spend,
        minTokensOut: 1n,
        createAta: false,
      });
    await build(1n); // memoized accounts: the later build encodes its data without Anchor's builder
    const coder = (() => {
      try {
        launchProgram.coder.instruction.encode("buyExactSolIn", {
          spendableSolIn: new BN((2n ** 64n).toString()),
          minTokensOut: new BN(1),
          trackVolume: { 0: true },
        });
        return "encoded";
      } catch (e) {
        return (e as Error).message;
      }
    })();
    await expect(build(2n ** 64n)).rejects.toThrow(coder);
  });
});
