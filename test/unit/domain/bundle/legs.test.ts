import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { PublicKey, type TransactionInstruction } from "@solana/web3.js";
import { TOKEN_2022_PROGRAM_ID } from "@solana/spl-token";
import { planCreateLedBundle } from "../../../../src/domain/bundle/legs.js";
import { quoteCreateLedBuys } from "../../../../src/domain/bundle/shape.js";
import { createdCoinFees, planCreate } from "../../../../src/domain/create/plan.js";
import { quoteInitialBuy, type CreateFields } from "../../../../src/domain/create/request.js";
import {
  associatedTokenAddress,
  creatorVaultAddress,
  LAUNCH_PROGRAM_ID,
} from "../../../../src/launch/programs.js";
import { freshCurve } from "../../../../src/launch/quote-inputs.js";
import type { LaunchGlobal } from "../../../../src/launch/state.js";
import { key } from "../../../helpers/fixtures.js";

const Z = PublicKey.default;
const FEE = key(40);
const RESERVED = key(41);
// Only the fields fee selection, the fresh curve and the builders read.
const global = {
  feeBasisPoints: 95n,
  creatorFeeBasisPoints: 30n,
  creatorFeeConfigurable: false,
  initialVirtualTokenReserves: 1_073_000_000_000_000n,
  initialVirtualSolReserves: 30_000_000_000n,
  initialRealTokenReserves: 793_100_000_000_000n,
  tokenTotalSupply: 1_000_000_000_000_000n,
  feeRecipient: FEE,
  feeRecipients: Array<PublicKey>(7).fill(Z),
  reservedFeeRecipient: RESERVED,
  reservedFeeRecipients: Array<PublicKey>(7).fill(Z),
  buybackFeeRecipients: [key(42), ...Array<PublicKey>(7).fill(Z)],
} as unknown as LaunchGlobal;
const config = { global, feeConfig: null };
const creator = key(1);
const buyers = [key(2), key(3), key(4)];
const mint = key(9);
const fields: CreateFields = {
  name: "Laser",
  symbol: "LSR",
  uri: "https://example.com/m.json",
  mayhemMode: false,
  cashback: false,
  initialBuy: { text: "0.5", lamports: 500_000_000n, slippageBps: 200n },
};

/** buy_exact_sol_in's u64 arguments (after the 8-byte discriminator). */
function buyArgs(ix: TransactionInstruction): { spendable: bigint; minTokensOut: bigint } {
  return { spendable: ix.data.readBigUInt64LE(8), minTokensOut: ix.data.readBigUInt64LE(16) };
}

describe("planCreate", () => {
  it("without an initial buy: create_v2 alone, the curve stays fresh", async () => {
    const { initialBuy: _, ...noBuy } = fields;
    const plan = await planCreate({ config, fields: noBuy, creator, mint });
    expect(plan.instructions).toHaveLength(1);
    expect(plan.instructions[0]!.programId.equals(LAUNCH_PROGRAM_ID)).toBe(true);
    expect(plan.initialBuy).toBeNull();
    expect(plan.curveAfter).toEqual(freshCurve(global));
  });

  it("with an initial buy: create_v2, the creator's ATA and buy_exact_sol_in with the quoted floor", async () => {
    const plan = await planCreate({ config, fields, creator, mint });
    expect(plan.instructions).toHaveLength(3);
    const fresh = freshCurve(global);
    const quote = quoteInitialBuy(fresh, fields.initialBuy!, createdCoinFees(config, false)(fresh));
    expect(plan.initialBuy).toMatchObject({ lamports: 500_000_000n, minTokensOut: quote.minTokensOut });
    expect(buyArgs(plan.instructions[2]!)).toEqual({
      spendable: 500_000_000n,
      minTokensOut: quote.minTokensOut,
    });
    expect(plan.curveAfter).toEqual(quote.curveAfter);
  });
});

describe("planCreateLedBundle", () => {
  it("quotes each buyer against the curve advanced by the dev buy and every earlier buyer", async () => {
    const buys = [
      { amount: 300_000_000n, slippageBps: 200n },
      { amount: 300_000_000n, slippageBps: 100n },
      { amount: 1_000_000_000n, slippageBps: 0n },
    ];
    const plan = await planCreateLedBundle({
      config,
      create: fields,
      buys,
      wallets: [creator, ...buyers],
      mint,
    });
    expect(plan.legInstructions).toHaveLength(4);
    const expected = quoteCreateLedBuys(plan.create.curveAfter, buys, createdCoinFees(config, false));
    expect(plan.buys).toEqual(expected);
    for (const [i, buyer] of buyers.entries()) {
      const [ata, buy] = plan.legInstructions[i + 1]!;
      expect(ata!.keys[1]!.pubkey.equals(associatedTokenAddress(buyer, mint, TOKEN_2022_PROGRAM_ID))).toBe(
        true,
      );
      expect(buyArgs(buy!)).toEqual({ spendable: buys[i]!.amount, minTokensOut: expected[i]!.minTokensOut });
      const keys = buy!.keys.map((k) => k.pubkey.toBase58());
      // The buyer signs; the creator vault is the create leg's wallet's, on the fresh coin's fee recipient.
      expect(buy!.keys.find((k) => k.isSigner)!.pubkey.equals(buyer)).toBe(true);
      expect(keys).toContain(creatorVaultAddress(creator).toBase58());
      expect(keys).toContain(FEE.toBase58());
    }
  });

  it("mayhem coins' buyers pay the reserved fee recipient", async () => {
    const plan = await planCreateLedBundle({
      config,
      create: { ...fields, mayhemMode: true },
      buys: [{ amount: 100_000_000n, slippageBps: 200n }],
      wallets: [creator, buyers[0]!],
      mint,
    });
    const keys = plan.legInstructions[1]![1]!.keys.map((k) => k.pubkey.toBase58());
    expect(keys).toContain(RESERVED.toBase58());
    expect(keys).not.toContain(FEE.toBase58());
  });

  it("needs exactly one wallet per leg", async () => {
    await expect(
      planCreateLedBundle({
        config,
        create: fields,
        buys: [{ amount: 1_000_000n, slippageBps: 0n }],
        wallets: [creator],
        mint,
      }),
    ).rejects.toThrow(RangeError);
  });

  it("equal buys later in the bundle never get more tokens than earlier ones", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1_000_000n, max: 20_000_000_000n }),
        fc.bigInt({ min: 0n, max: 5_000n }),
        (lamports, bps) => {
          const fresh = freshCurve(global);
          const feesAt = createdCoinFees(config, false);
          const dev = quoteInitialBuy(fresh, { lamports, slippageBps: 200n }, feesAt(fresh));
          const leg = { amount: lamports, slippageBps: bps };
          const [a, b, c] = quoteCreateLedBuys(dev.curveAfter, [leg, leg, leg], feesAt);
          expect(a!.tokensOut).toBeLessThanOrEqual(dev.tokensOut);
          expect(b!.tokensOut).toBeLessThanOrEqual(a!.tokensOut);
          expect(c!.tokensOut).toBeLessThanOrEqual(b!.tokensOut);
        },
      ),
      { numRuns: 200 },
    );
  });
});
