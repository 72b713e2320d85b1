/** Issue 29 finding 4: the worst case of built transactions, per instruction kind. */
import BN from "bn.js";
import { Keypair, PublicKey, SystemProgram, TransactionInstruction } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import {
  setComputeUnitLimit,
  setComputeUnitPrice,
  systemTransfer,
} from "../../../../src/chain/budget-instructions.js";
import {
  ATA_RENT_BOUND,
  CREATE_RENT_BOUND,
  totalOf,
  transactionWorstCase,
  worstCaseSpend,
  type SpendableTransaction,
} from "../../../../src/domain/execution/worst-case-spend.js";
import { launchProgram, launchSwapProgram } from "../../../../src/launch/programs-offline.js";
import { associatedTokenAddress, WSOL_MINT } from "../../../../src/launch/programs.js";
import {
  createAssociatedTokenAccountIdempotentInstruction,
  createCloseAccountInstruction,
  TOKEN_PROGRAM_ID,
} from "../../../../src/launch/spl-token.js";

const user = Keypair.generate().publicKey;
const outside = Keypair.generate().publicKey;
const tipAccount = Keypair.generate().publicKey;
const mint = Keypair.generate().publicKey;

/** An instruction of `program` with `data` and the user as a writable signer. */
function programIx(programId: PublicKey, data: Buffer): TransactionInstruction {
  return new TransactionInstruction({
    programId,
    keys: [{ pubkey: user, isSigner: true, isWritable: true }],
    data,
  });
}

/** A transaction as assembly shows it: budget (limit 100 000, price 1 000 µ-lamports), the ops, a 10 000 tip. */
function tx(ops: TransactionInstruction[], signatureCount = 1): SpendableTransaction {
  return {
    instructions: [
      setComputeUnitLimit(100_000),
      setComputeUnitPrice(1_000n),
      ...ops,
      systemTransfer(user, tipAccount, 10_000n),
    ],
    signatureCount,
    tipAccounts: [tipAccount],
  };
}
// 5 000 per signature + ceil(100 000 × 1 000 / 10^6) = 100.
const FEE_ONE_SIGNATURE = 5_100n;

const ata = () =>
  createAssociatedTokenAccountIdempotentInstruction(
    user,
    associatedTokenAddress(user, mint, TOKEN_PROGRAM_ID),
    user,
    mint,
    TOKEN_PROGRAM_ID,
  );

describe("transactionWorstCase", () => {
  it("a curve buy in token units: its max_sol_cost, the ATA rent, the tip and fees", () => {
    const buy = launchProgram.coder.instruction.encode("buy", {
      amount: new BN("3000000000000"),
      maxSolCost: new BN(145_000_000),
      trackVolume: { 0: true },
    });
    const w = transactionWorstCase(tx([ata(), programIx(launchProgram.programId, buy)]));
    expect(w).toEqual({
      amount: 145_000_000n,
      rent: ATA_RENT_BOUND,
      tip: 10_000n,
      fee: FEE_ONE_SIGNATURE,
      unbounded: false,
    });
    expect(totalOf(w)).toBe(145_000_000n + ATA_RENT_BOUND + 10_000n + FEE_ONE_SIGNATURE);
  });

  it("buy_exact_sol_in: its spendable amount", () => {
    const data = launchProgram.coder.instruction.encode("buyExactSolIn", {
      spendableSolIn: new BN(50_000_000),
      minTokensOut: new BN(1),
      trackVolume: { 0: true },
    });
    expect(transactionWorstCase(tx([programIx(launchProgram.programId, data)])).amount).toBe(50_000_000n);
  });

  it("a create with a dev buy: the create rent bound plus the buy", () => {
    const create = launchProgram.coder.instruction.encode("createV2", {
      name: "n",
      symbol: "s",
      uri: "u",
      creator: user,
      isMayhemMode: false,
      isCashbackEnabled: [false],
      creatorFeeBps: [new BN(0)],
      isHolderReward: [false],
    });
    const buy = launchProgram.coder.instruction.encode("buyExactSolIn", {
      spendableSolIn: new BN(1_000_000),
      minTokensOut: new BN(1),
      trackVolume: { 0: true },
    });
    const w = transactionWorstCase(
      tx([programIx(launchProgram.programId, create), ata(), programIx(launchProgram.programId, buy)], 2),
    );
    expect(w.amount).toBe(1_000_000n);
    expect(w.rent).toBe(CREATE_RENT_BOUND + ATA_RENT_BOUND);
    expect(w.fee).toBe(10_100n);
  });

  it("a curve sell spends fees and tip only", () => {
    const sell = launchProgram.coder.instruction.encode("sell", {
      amount: new BN(1_000),
      minSolOutput: new BN(1),
    });
    expect(transactionWorstCase(tx([programIx(launchProgram.programId, sell)]))).toEqual({
      amount: 0n,
      rent: 0n,
      tip: 10_000n,
      fee: FEE_ONE_SIGNATURE,
      unbounded: false,
    });
  });

  it("a launchswap buy: the wrap and the swap's max_quote_amount_in are the same SOL, counted once", () => {
    const wsol = associatedTokenAddress(user, WSOL_MINT, TOKEN_PROGRAM_ID);
    const buy = launchSwapProgram.coder.instruction.encode("buy", {
      baseAmountOut: new BN(3_000_000_000),
      maxQuoteAmountIn: new BN(80_000_000),
      trackVolume: { 0: true },
    });
    const w = transactionWorstCase(
      tx([
        SystemProgram.transfer({ fromPubkey: user, toPubkey: wsol, lamports: 80_000_000 }),
        programIx(launchSwapProgram.programId, buy),
        createCloseAccountInstruction(wsol, user, user),
      ]),
    );
    expect(w.amount).toBe(80_000_000n);
    // A swap whose quote-in exceeds what was wrapped (WSOL already held) counts the quote-in.
    const more = launchSwapProgram.coder.instruction.encode("buy", {
      baseAmountOut: new BN(1),
      maxQuoteAmountIn: new BN(90_000_000),
      trackVolume: { 0: true },
    });
    expect(transactionWorstCase(tx([programIx(launchSwapProgram.programId, more)])).amount).toBe(90_000_000n);
  });

  it("consolidate to an outside address: the transferred lamports", () => {
    const w = transactionWorstCase(tx([systemTransfer(user, outside, 49_000_000_000n)]));
    expect(w.amount).toBe(49_000_000_000n);
    expect(w.tip).toBe(10_000n);
  });

  it("split: every transfer out counts, whoever receives it", () => {
    const own = Keypair.generate().publicKey;
    const w = transactionWorstCase(
      tx([systemTransfer(user, outside, 1_000_000_000n), systemTransfer(user, own, 2_000_000_000n)]),
    );
    expect(w.amount).toBe(3_000_000_000n);
  });

  it("account creations paid by a signer count as amount; the default compute limit prices the fee", () => {
    const w = transactionWorstCase({
      instructions: [
        setComputeUnitPrice(1_000_000n),
        SystemProgram.createAccount({
          fromPubkey: user,
          newAccountPubkey: outside,
          lamports: 7_000_000,
          space: 0,
          programId: SystemProgram.programId,
        }),
      ],
      signatureCount: 2,
    });
    expect(w.amount).toBe(7_000_000n);
    // No SetComputeUnitLimit: 200 000 per instruction × 2 instructions at 1 lamport per CU.
    expect(w.fee).toBe(10_000n + 400_000n);
  });

  it("an unknown program or an admin instruction of a launch program is unbounded", () => {
    const other = programIx(Keypair.generate().publicKey, Buffer.from([1, 2, 3]));
    expect(transactionWorstCase(tx([other])).unbounded).toBe(true);
    const admin = launchProgram.coder.instruction.encode("setCreator", { creator: user });
    expect(transactionWorstCase(tx([programIx(launchProgram.programId, admin)])).unbounded).toBe(true);
    const short = programIx(launchProgram.programId, Buffer.alloc(4));
    expect(transactionWorstCase(tx([short])).unbounded).toBe(true);
  });
});

describe("worstCaseSpend of several transactions", () => {
  it("a bundle: every leg's token-unit buy, tip and fees add up", () => {
    const leg = (maxSol: number) =>
      programIx(
        launchProgram.programId,
        launchProgram.coder.instruction.encode("buy", {
          amount: new BN(1_000),
          maxSolCost: new BN(maxSol),
          trackVolume: { 0: true },
        }),
      );
    const w = worstCaseSpend([tx([leg(30_000_000)]), { instructions: [leg(20_000_000)], signatureCount: 1 }]);
    expect(w.amount).toBe(50_000_000n);
    expect(w.tip).toBe(10_000n);
    expect(w.unbounded).toBe(false);
  });
});
