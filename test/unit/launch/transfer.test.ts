import { describe, expect, it } from "vitest";
import { PublicKey, SystemProgram } from "@solana/web3.js";
import { ASSOCIATED_TOKEN_PROGRAM_ID, TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from "@solana/spl-token";
import { SPEC } from "../../../src/core/errors.js";
import { associatedTokenAddress } from "../../../src/launch/programs.js";
import type { ReadAccount } from "../../../src/launch/read-account.js";
import {
  buildSolTransfer,
  buildTokenTransfer,
  interpretTokenTransferRead,
  tokenTransferReadPlan,
} from "../../../src/launch/transfer-instructions.js";
import { detailOf } from "../../helpers/expect.js";
import { key, mintData, tokenAccountData } from "../../helpers/fixtures.js";

const from = key(1);
const to = key(2);
const mint = key(3);

function mintAccount(owner: PublicKey, decimals: number): ReadAccount {
  return { lamports: 1n, owner, data: mintData({ supply: 10n ** 15n, decimals }) };
}

function tokenAccount(amount: bigint, program: PublicKey): ReadAccount {
  return { lamports: 1n, owner: program, data: tokenAccountData({ mint, owner: from, amount }) };
}

describe("asset transfer builders", () => {
  it("SOL: one system transfer", () => {
    const [ix] = buildSolTransfer({ from, to, lamports: 1_500_000_000n });
    expect(ix?.programId).toEqual(SystemProgram.programId);
    expect(Buffer.from(ix!.data).toString("hex")).toBe("02000000002f685900000000");
  });

  for (const program of [TOKEN_PROGRAM_ID, TOKEN_2022_PROGRAM_ID]) {
    it(`token under ${program.toBase58().slice(0, 8)}: idempotent recipient ATA, then transferChecked`, () => {
      const ixs = buildTokenTransfer({
        mint,
        tokenProgram: program,
        decimals: 6,
        from,
        to,
        amount: 1_000_000n,
        createRecipientAta: true,
      });
      const source = associatedTokenAddress(from, mint, program);
      const destination = associatedTokenAddress(to, mint, program);
      expect(ixs).toHaveLength(2);
      expect(ixs[0]?.programId).toEqual(ASSOCIATED_TOKEN_PROGRAM_ID);
      expect(Buffer.from(ixs[0]!.data).toString("hex")).toBe("01");
      expect(ixs[0]?.keys.map((k) => k.pubkey)).toEqual([
        from,
        destination,
        to,
        mint,
        SystemProgram.programId,
        program,
      ]);
      expect(ixs[1]?.programId).toEqual(program);
      // transferChecked: tag 12, u64 amount, u8 decimals
      expect(Buffer.from(ixs[1]!.data).toString("hex")).toBe("0c40420f000000000006");
      expect(ixs[1]?.keys.map((k) => [k.pubkey, k.isSigner, k.isWritable])).toEqual([
        [source, false, true],
        [mint, false, false],
        [destination, false, true],
        [from, true, false],
      ]);
    });
  }
});

describe("token transfer read", () => {
  const plan = tokenTransferReadPlan({ mint, from });

  it("takes token program and decimals from the mint and the balance from the matching ATA", () => {
    const r = interpretTokenTransferRead(plan, [
      mintAccount(TOKEN_2022_PROGRAM_ID, 6),
      tokenAccount(77n, TOKEN_2022_PROGRAM_ID),
      null,
    ]);
    expect(r).toEqual({
      tokenProgram: TOKEN_2022_PROGRAM_ID,
      decimals: 6,
      sourceTokenAccount: associatedTokenAddress(from, mint, TOKEN_2022_PROGRAM_ID),
      sourceBalance: 77n,
    });
    const spl = interpretTokenTransferRead(plan, [
      mintAccount(TOKEN_PROGRAM_ID, 9),
      null,
      tokenAccount(5n, TOKEN_PROGRAM_ID),
    ]);
    expect(spl.sourceBalance).toBe(5n);
    expect(spl.decimals).toBe(9);
  });

  it("answers the spec's texts for a missing mint, a foreign owner and a missing source account", () => {
    expect(detailOf(() => interpretTokenTransferRead(plan, [null, null, null]))).toBe(
      SPEC.transfer.mintNotFound,
    );
    expect(detailOf(() => interpretTokenTransferRead(plan, [mintAccount(key(9), 6), null, null]))).toBe(
      SPEC.transfer.unsupportedMint,
    );
    expect(
      detailOf(() =>
        interpretTokenTransferRead(plan, [
          mintAccount(TOKEN_PROGRAM_ID, 6),
          tokenAccount(1n, TOKEN_2022_PROGRAM_ID),
          null,
        ]),
      ),
    ).toBe(SPEC.transfer.noSourceAccount);
  });
});
